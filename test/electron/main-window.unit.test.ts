// The window's security settings and its confinement to the app's own page.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createMainWindow } from '../../src-main/electron/main-window';
import { fake, FakeBrowserWindow, resetFakeElectron } from './fake-electron';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);

const rendererIndex = path.resolve('/opt/mlso/resources/app.asar/dist/renderer/index.html');
const preload = path.resolve('/opt/mlso/resources/app.asar/dist/electron/preload.cjs');

function openWindow(bounds: Parameters<typeof createMainWindow>[0]['bounds'] = null): FakeBrowserWindow {
  createMainWindow({ preload, rendererIndex, bounds });
  const window = FakeBrowserWindow.instances.at(-1);
  if (!window) throw new Error('no window was created');
  return window;
}

beforeEach(() => resetFakeElectron());

describe('the main window', () => {
  it('is created with the secure web preferences and the built preload, and nothing that loosens them', () => {
    const window = openWindow();
    // Whole, not a subset: a preference added later (experimentalFeatures, enableBlinkFeatures...) has to be looked at here.
    expect(window.options.webPreferences).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
      spellcheck: false,
      preload,
    });
  });

  it('loads the built renderer with loadFile', () => {
    expect(openWindow().loadedFile).toBe(rendererIndex);
  });

  it('opens where it was last time, maximised if it was', () => {
    const window = openWindow({ x: 40, y: 50, width: 1000, height: 700, maximized: true });
    expect(window.options).toMatchObject({ x: 40, y: 50, width: 1000, height: 700 });
    expect(window.maximized).toBe(true);
  });

  it('opens centred at the default size when there is no remembered place', () => {
    expect(openWindow().options).toMatchObject({ center: true, width: 1280, height: 820 });
  });
});

describe('navigation', () => {
  it('is refused for any page but the app', () => {
    const { webContents } = openWindow();
    expect(webContents.navigate('https://evil.example/')).toBe(true);
    expect(webContents.navigate('file:///etc/passwd')).toBe(true);
    expect(webContents.navigate('data:text/html,<script>1</script>')).toBe(true);
    // A web link goes to the system browser; a file or data address is handed to nothing.
    expect(fake.shell.openExternal.mock.calls).toEqual([['https://evil.example/']]);
  });

  it('is stopped when redirected anywhere but the app page, and nothing is opened', () => {
    const { webContents } = openWindow();
    expect(webContents.redirect('https://evil.example/')).toBe(true);
    expect(webContents.redirect('file:///etc/passwd')).toBe(true);
    expect(webContents.redirect(pathToFileURL(rendererIndex).href)).toBe(false);
    expect(fake.shell.openExternal).not.toHaveBeenCalled();
  });

  it('back to the app page itself (a reload) is allowed', () => {
    const { webContents } = openWindow();
    expect(webContents.navigate(`${pathToFileURL(rendererIndex).href}#/downloads`)).toBe(false);
  });

  it('sends a followed web link to the system browser instead', () => {
    const { webContents } = openWindow();
    webContents.navigate('https://www2.hao.ucar.edu/mlso');
    expect(fake.shell.openExternal).toHaveBeenCalledWith('https://www2.hao.ucar.edu/mlso');
  });
});

describe('window.open', () => {
  it('never opens a window, and hands http(s) links to the system browser', () => {
    const { webContents } = openWindow();
    const handler = webContents.windowOpenHandler;
    expect(handler).toBeDefined();
    expect(handler?.({ url: 'https://doi.org/10.5065/D69G5JV8' })).toEqual({ action: 'deny' });
    expect(handler?.({ url: 'http://registration.hao.ucar.edu/' })).toEqual({ action: 'deny' });
    expect(fake.shell.openExternal.mock.calls.map(([url]) => url)).toEqual(['https://doi.org/10.5065/D69G5JV8', 'http://registration.hao.ucar.edu/']);
  });

  it('ignores every other scheme', () => {
    const { webContents } = openWindow();
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://server/share', 'ms-settings:', 'not a url']) {
      expect(webContents.windowOpenHandler?.({ url })).toEqual({ action: 'deny' });
    }
    expect(fake.shell.openExternal).not.toHaveBeenCalled();
  });

  it('refuses to attach webviews', () => {
    const { webContents } = openWindow();
    let prevented = false;
    webContents.emit('will-attach-webview', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
  });
});
