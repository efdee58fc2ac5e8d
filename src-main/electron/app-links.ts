// The desktop's ways in: mlso-downloader:// links (registered with the system; delivered in argv at launch, in a
// second instance's argv, or by macOS's open-url) and campaign files opened from the file manager (argv, or macOS's
// open-file). Each is checked by the core and handed to the window once its page has loaded; a refusal is said in
// one line. Nothing here downloads or writes: the window asks the user.
import path from 'node:path';
import { app, dialog, type BrowserWindow } from 'electron';
import { APP_LINK_SCHEME } from '../../src-shared/links/app-link';
import type { OpenCheck } from '../core/app/open-requests';
import { openTargetsIn, type OpenTarget } from './launch-arguments';

interface AppLinksOptions {
  openLink(link: string): Promise<OpenCheck>;
  openCampaignFile(file: string): Promise<OpenCheck>;
  currentWindow(): BrowserWindow | null;
  showWindow(): void;
}

export interface AppLinks {
  /** The window's page has loaded: what arrived before is handed on now, the rest as it comes. */
  pageReady(options: AppLinksOptions): void;
}

/** Registers the link scheme and listens for links and files; called before the app is ready (macOS sends open-url early). */
export function listenForAppLinks(argv: readonly string[] = process.argv): AppLinks {
  registerScheme();
  const waiting: OpenTarget[] = [...openTargetsIn(argv)];
  let ready: AppLinksOptions | null = null;
  const take = (target: OpenTarget) => {
    if (ready) tell(target, ready);
    else waiting.push(target);
  };
  app.on('second-instance', (_event, secondArgv) => {
    for (const target of openTargetsIn(secondArgv)) take(target);
  });
  app.on('open-url', (event, link) => {
    event.preventDefault();
    take({ kind: 'link', link });
  });
  app.on('open-file', (event, file) => {
    event.preventDefault();
    take({ kind: 'file', file });
  });
  return {
    pageReady(options) {
      ready = options;
      for (const target of waiting.splice(0)) tell(target, options);
    },
  };
}

function registerScheme(): void {
  // Started as `electron .` in development, the system must be told to pass the app's folder too.
  const registered = process.defaultApp
    ? app.setAsDefaultProtocolClient(APP_LINK_SCHEME, process.execPath, [path.resolve(process.argv[1] ?? '.')])
    : app.setAsDefaultProtocolClient(APP_LINK_SCHEME);
  if (!registered) console.warn(`Could not register ${APP_LINK_SCHEME}:// links with the system.`);
}

function tell(target: OpenTarget, options: AppLinksOptions): void {
  handOn(target, options).catch((error: unknown) => console.warn('Could not open what the system handed the app:', error));
}

async function handOn(target: OpenTarget, options: AppLinksOptions): Promise<void> {
  const check = target.kind === 'link' ? await options.openLink(target.link) : await options.openCampaignFile(target.file);
  options.showWindow();
  if (check.ok) return;
  const window = options.currentWindow();
  const message = { type: 'warning' as const, message: check.message, buttons: ['OK'], noLink: true };
  try {
    if (window && !window.isDestroyed()) await dialog.showMessageBox(window, message);
    else await dialog.showMessageBox(message);
  } catch (error) {
    console.warn(check.message, error);
  }
}
