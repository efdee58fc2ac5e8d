// The one app window: sandboxed, isolated, no Node in the page, and unable to leave the app. Links to
// the web open in the system browser; everything else a page might try to open or navigate to is refused.
import { BrowserWindow, shell, type WebContents } from 'electron';
import type { WindowBounds } from '../../src-shared/settings/settings-types';
import { isAppPageUrl } from './app-locations';
import { webLinkOrNull } from './web-links';
import { DEFAULT_WINDOW_SIZE, MINIMUM_WINDOW_SIZE } from './window-bounds';

export interface MainWindowOptions {
  preload: string;
  rendererIndex: string;
  /** Where the window was last time (already checked to be on a visible display), or null. */
  bounds: WindowBounds | null;
}

const SECURE_WEB_PREFERENCES = Object.freeze({
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  // Chromium's spellchecker downloads its dictionaries from Google; nothing typed here needs it.
  spellcheck: false,
});

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const placement = options.bounds
    ? { x: options.bounds.x, y: options.bounds.y, width: options.bounds.width, height: options.bounds.height }
    : { ...DEFAULT_WINDOW_SIZE, center: true };
  const window = new BrowserWindow({
    ...placement,
    minWidth: MINIMUM_WINDOW_SIZE.width,
    minHeight: MINIMUM_WINDOW_SIZE.height,
    title: 'MLSO Downloader',
    // Shown once the first paint is ready, so the window never flashes empty.
    show: false,
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload: options.preload },
  });
  if (options.bounds?.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  confineToApp(window.webContents, options.rendererIndex);
  void window.loadFile(options.rendererIndex);
  return window;
}

/** Hands an http(s) link to the system browser; any other scheme is ignored. */
function openWebLinkExternally(url: string): void {
  const link = webLinkOrNull(url);
  if (link === null) return;
  void shell.openExternal(link).catch((error: unknown) => console.warn(`Could not open ${link}:`, error));
}

/** Keeps the page on the app: no navigation or redirect elsewhere, no new windows; web links go to the browser. */
function confineToApp(contents: WebContents, rendererIndex: string): void {
  contents.on('will-navigate', (event) => {
    if (isAppPageUrl(event.url, rendererIndex)) return;
    event.preventDefault();
    openWebLinkExternally(event.url);
  });
  // A navigation the app allowed could still be redirected (by a server, or a file: URL's handler) to somewhere
  // else; preventing the redirect stops the whole navigation. Nothing is opened: no one chose that address.
  contents.on('will-redirect', (event) => {
    if (!isAppPageUrl(event.url, rendererIndex)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openWebLinkExternally(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
