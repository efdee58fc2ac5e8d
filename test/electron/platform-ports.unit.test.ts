// The platform shell and the event sink the core gets in the desktop app.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BrowserWindow } from 'electron';
import { electronPlatformShell } from '../../src-main/electron/platform-shell';
import { windowEventSink } from '../../src-main/electron/window-event-sink';
import { fake, FakeBrowserWindow, resetFakeElectron } from './fake-electron';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);

beforeEach(() => resetFakeElectron());

const asWindow = (window: FakeBrowserWindow) => window as unknown as BrowserWindow;

describe('the platform shell', () => {
  it('asks for a folder with the native picker, allowing a new folder', async () => {
    const window = new FakeBrowserWindow({});
    fake.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/data/mlso'] });
    await expect(electronPlatformShell(() => asWindow(window)).chooseFolder('/home/x/Downloads/MLSO')).resolves.toBe('/data/mlso');
    expect(fake.dialog.showOpenDialog).toHaveBeenCalledWith(
      window,
      expect.objectContaining({ defaultPath: '/home/x/Downloads/MLSO', properties: ['openDirectory', 'createDirectory'] }),
    );
  });

  it('shows the picker on its own when there is no live window, and answers null when it is cancelled', async () => {
    const closed = new FakeBrowserWindow({});
    closed.destroyed = true;
    for (const current of [null, closed]) {
      fake.dialog.showOpenDialog.mockClear();
      fake.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: ['/not/chosen'] });
      await expect(electronPlatformShell(() => (current ? asWindow(current) : null)).chooseFolder('/x')).resolves.toBeNull();
      // One argument: the options alone, no parent window (a destroyed one would make Electron throw).
      expect(fake.dialog.showOpenDialog).toHaveBeenCalledOnce();
      expect(fake.dialog.showOpenDialog).toHaveBeenCalledWith(expect.objectContaining({ defaultPath: '/x', properties: ['openDirectory', 'createDirectory'] }));
    }
  });

  it('opens folders and reports what the OS said when it could not', async () => {
    const shell = electronPlatformShell(() => null);
    await shell.openPath('/data/mlso');
    expect(fake.shell.openPath).toHaveBeenCalledWith('/data/mlso');
    fake.shell.openPath.mockResolvedValueOnce('Failed to open path');
    await expect(shell.openPath('/gone')).rejects.toThrow(/Failed to open path/);
  });

  it('shows a file in its folder', () => {
    electronPlatformShell(() => null).showItemInFolder('/data/mlso/a.fts');
    expect(fake.shell.showItemInFolder).toHaveBeenCalledWith('/data/mlso/a.fts');
  });

  it('opens only http(s) links in the browser', async () => {
    const shell = electronPlatformShell(() => null);
    await shell.openExternal('https://registration.hao.ucar.edu');
    expect(fake.shell.openExternal).toHaveBeenCalledWith('https://registration.hao.ucar.edu/');
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'mailto:someone@example.com']) {
      await expect(shell.openExternal(url)).rejects.toThrow(/http/);
    }
    expect(fake.shell.openExternal).toHaveBeenCalledOnce();
  });
});

describe('the event sink', () => {
  it("sends each event on the window's webContents under its own name", () => {
    const window = new FakeBrowserWindow({});
    windowEventSink(() => asWindow(window))('session:changed', { signedIn: true, email: 'demo@example.com', expiresAt: null });
    expect(window.webContents.sent).toEqual([{ channel: 'session:changed', payload: { signedIn: true, email: 'demo@example.com', expiresAt: null } }]);
  });

  it('drops events while there is no live window, and sends each to the window open when it comes', () => {
    let current: FakeBrowserWindow | null = null;
    const sink = windowEventSink(() => (current ? asWindow(current) : null));
    sink('downloads:queue-resumed', null);
    const closed = new FakeBrowserWindow({});
    closed.destroyed = true;
    current = closed;
    sink('downloads:queue-resumed', null);
    const pageGone = new FakeBrowserWindow({});
    pageGone.webContents.destroyed = true;
    current = pageGone;
    sink('downloads:queue-resumed', null);
    const reopened = new FakeBrowserWindow({});
    current = reopened;
    sink('session:changed', { signedIn: false, email: null, expiresAt: null });

    expect(closed.webContents.sent).toEqual([]);
    expect(pageGone.webContents.sent).toEqual([]);
    // Dropped, not held back: the new window gets only what came after it opened (it asks for a snapshot on load).
    expect(reopened.webContents.sent).toEqual([{ channel: 'session:changed', payload: { signedIn: false, email: null, expiresAt: null } }]);
  });
});
