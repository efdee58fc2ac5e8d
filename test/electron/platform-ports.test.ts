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

  it('answers null when the picker is cancelled', async () => {
    await expect(electronPlatformShell(() => null).chooseFolder('/x')).resolves.toBeNull();
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

  it('drops events when there is no window or it is destroyed', () => {
    const window = new FakeBrowserWindow({});
    window.destroyed = true;
    expect(() => windowEventSink(() => asWindow(window))('downloads:queue-resumed', null)).not.toThrow();
    expect(() => windowEventSink(() => null)('downloads:queue-resumed', null)).not.toThrow();
    expect(window.webContents.sent).toEqual([]);
  });
});
