// The desktop app put together with Electron mocked and everything else real: the app core over the
// emulator, electron-store files in a temporary profile, IPC from the app's page, and the way out.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../../src-shared/contract/contract';
import { DEMO_EMAIL, createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { runDesktopApp, type DesktopApp } from '../../src-main/electron/desktop-app';
import { runEndText } from '../../src-shared/downloads/run-figures';
import { DESKTOP_LOCATIONS, invokeFromPage, useDesktopProfile } from './desktop-session';
import { fake, FakeBrowserWindow, FakeNotification, FakeWebContents, resetFakeElectron } from './fake-electron';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);
vi.mock('electron-store', async () => ({ default: (await import('./conf-backed-store')).ConfBackedStore }));

let emulator: RunningEmulator;
let profile: string;
let desktop: DesktopApp | undefined;
const profileFolder = useDesktopProfile('mlso-electron-app-', () => desktop);

beforeAll(async () => {
  emulator = await createEmulator({ imageSize: 32 });
});
afterAll(async () => {
  await emulator.close();
});

beforeEach(async () => {
  profile = profileFolder.folder();
  await writeFile(path.join(profile, 'settings.json'), JSON.stringify({ baseUrl: emulator.url, rememberSession: true }));
});

/** Every file under `folder`, with its text and, decoded, every run of it that could be base64 (encoding hides nothing). */
async function filesUnder(folder: string): Promise<{ file: string; text: string }[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  return Promise.all(
    files.map(async (file) => {
      const raw = await readFile(file, 'latin1');
      const decoded = (raw.match(/[A-Za-z0-9+/_-]{16,}={0,2}/g) ?? []).map((run) => Buffer.from(run, 'base64').toString('latin1'));
      return { file, text: [raw, ...decoded].join('\n') };
    }),
  );
}

function mainWindow(): FakeBrowserWindow {
  const window = FakeBrowserWindow.instances[0];
  if (!window) throw new Error('no window');
  return window;
}

describe('the desktop app', () => {
  it('answers every contract channel over IPC from its page, as the electron transport', async () => {
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    expect([...fake.ipcMain.handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
    const { handlers } = desktop.core;
    expect(INVOKE_CHANNELS.filter((channel) => typeof handlers[channel] !== 'function')).toEqual([]);
    await expect(invokeFromPage('app:info')).resolves.toMatchObject({
      ok: true,
      value: { transport: 'electron', version: '0.0.0-test', serverUrl: emulator.url, canUseNativeDialogs: true },
    });
    await expect(invokeFromPage('settings:get')).resolves.toMatchObject({
      ok: true,
      value: { downloadFolder: path.join(profile, 'Downloads', 'MLSO'), baseUrl: emulator.url },
    });
  });

  it('checks for campaigns due an automatic sync as soon as the computer wakes, not at the next minute', async () => {
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    const syncDue = vi.spyOn(desktop.core, 'syncDueCampaigns');
    fake.powerMonitor.emit('resume');
    expect(syncDue).toHaveBeenCalledTimes(1);
    await syncDue.mock.results[0]?.value;
    await desktop.quitGuard.requestQuit({ ask: false });
    fake.powerMonitor.emit('resume');
    expect(syncDue).toHaveBeenCalledTimes(1);
  });

  it('loads the renderer in a secure window and sets the CSP header', async () => {
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    expect(mainWindow().loadedFile).toBe(DESKTOP_LOCATIONS.rendererIndex);
    expect(mainWindow().options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, preload: DESKTOP_LOCATIONS.preload });
    expect(fake.headersListener).toBeDefined();
  });

  it('says nothing on the terminal from start to quit when nothing goes wrong (npm start prints only problems)', async () => {
    const printers = [
      ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((name) => vi.spyOn(console, name)),
      vi.spyOn(process.stdout, 'write'),
      vi.spyOn(process.stderr, 'write'),
    ];
    try {
      desktop = await runDesktopApp(DESKTOP_LOCATIONS);
      await invokeFromPage('session:sign-in', { email: DEMO_EMAIL });
      await desktop.quitGuard.requestQuit({ ask: false });
      expect(printers.flatMap((printer) => printer.mock.calls)).toEqual([]);
    } finally {
      for (const printer of printers) printer.mockRestore();
    }
  });

  it('sends core events to the window and keeps the remembered session encrypted', async () => {
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    await expect(invokeFromPage('session:sign-in', { email: DEMO_EMAIL })).resolves.toMatchObject({ ok: true, value: { signedIn: true } });
    expect(mainWindow().webContents.sent.map(({ channel }) => channel)).toContain('session:changed');
    const vaultFile = await readFile(path.join(profile, 'session.json'), 'utf8');
    expect(JSON.parse(vaultFile).encryptedSession).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(fake.safeStorage.encryptStringAsync).toHaveBeenCalled();
  });

  it('holds no secret in plain text anywhere in its profile: not in the preferences, not in the session file', async () => {
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    await invokeFromPage('session:sign-in', { email: DEMO_EMAIL });
    // The session cookie, from what the vault handed safeStorage to encrypt.
    const sealed = JSON.parse(fake.safeStorage.encryptStringAsync.mock.calls.at(-1)?.[0] ?? '{}') as { jar?: { cookies?: { key: string; value: string }[] } };
    const cookie = sealed.jar?.cookies?.find(({ key }) => key === 'session')?.value;
    expect(cookie).toMatch(/^\S{16,}$/);
    const files = await filesUnder(profile);
    expect(files.map(({ file }) => path.basename(file))).toEqual(expect.arrayContaining(['settings.json', 'session.json']));
    for (const { file, text } of files) expect(text.includes(cookie ?? ''), file).toBe(false);
  });

  it('keeps a proxy password typed into Settings in the keychain, out of every file of its profile', async () => {
    const proxy = 'http://lab:Pr0xy-S3cret-Word@127.0.0.1:9';
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    await expect(invokeFromPage('settings:update', { proxy })).resolves.toMatchObject({ ok: true, value: { proxy } });
    await desktop.quitGuard.requestQuit({ ask: false });
    const files = await filesUnder(profile);
    expect(files.map(({ file }) => path.basename(file))).toEqual(expect.arrayContaining(['settings.json', 'proxy-password.json']));
    for (const { file, text } of files) expect(text.includes('Pr0xy-S3cret-Word'), file).toBe(false);
    expect(JSON.parse(await readFile(path.join(profile, 'settings.json'), 'utf8')).proxy).toBe('http://lab@127.0.0.1:9');
    // The next start, with the same profile.
    resetFakeElectron();
    fake.app.setPath('userData', profile);
    fake.app.setPath('downloads', path.join(profile, 'Downloads'));
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    await expect(invokeFromPage('settings:get', undefined)).resolves.toMatchObject({ ok: true, value: { proxy } });
  });

  it('refuses bad arguments over IPC before they reach the core, naming the argument', async () => {
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    await expect(invokeFromPage('search:start', { instrument: 5 })).resolves.toEqual({
      ok: false,
      error: { kind: 'invalid-input', message: 'instrument must be text.' },
    });
    await expect(invokeFromPage('downloads:pause')).resolves.toEqual({
      ok: false,
      error: { kind: 'invalid-input', message: 'id is missing; it must be a whole number.' },
    });
    await expect(invokeFromPage('settings:update', { concurrency: '8' })).resolves.toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'concurrency' },
    });
    await expect(invokeFromPage('app:info', { unexpected: true })).resolves.toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
  });

  it("answers only its own window's page: the same page in other web contents is refused", async () => {
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    await expect(invokeFromPage('app:info', undefined, new FakeWebContents())).resolves.toMatchObject({ ok: false, error: { kind: 'unsupported' } });
    await expect(invokeFromPage('app:info')).resolves.toMatchObject({ ok: true });
  });

  it('remembers the window place on close, then closes the core and quits', async () => {
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    const window = mainWindow();
    window.bounds = { x: 30, y: 40, width: 1111, height: 777 };
    window.emit('resize');
    expect(window.tryClose()).toBe(true);
    await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalled());
    expect(desktop.quitGuard.mayQuit).toBe(true);
    expect(fake.dialog.showMessageBox).not.toHaveBeenCalled();
    const saved = JSON.parse(await readFile(path.join(profile, 'settings.json'), 'utf8'));
    expect(saved.windowBounds).toEqual({ x: 30, y: 40, width: 1111, height: 777, maximized: false });
    // Once allowed, the final close goes through.
    expect(window.tryClose()).toBe(false);
  });

  it('opens the window where it was last time', async () => {
    await writeFile(
      path.join(profile, 'settings.json'),
      JSON.stringify({ baseUrl: emulator.url, windowBounds: { x: 200, y: 150, width: 1000, height: 700, maximized: false } }),
    );
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    expect(mainWindow().options).toMatchObject({ x: 200, y: 150, width: 1000, height: 700 });
  });

  it('asks before quitting while downloads are in progress', async () => {
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    vi.spyOn(desktop.core, 'countActiveDownloads').mockReturnValue(1);
    fake.dialog.showMessageBox.mockResolvedValueOnce({ response: 1, checkboxChecked: false });
    let prevented = false;
    fake.app.emit('before-quit', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    await vi.waitFor(() => expect(fake.dialog.showMessageBox).toHaveBeenCalledOnce());
    const [, options] = fake.dialog.showMessageBox.mock.calls[0] as [unknown, { message: string; detail: string; buttons: string[] }];
    expect(options.message).toMatch(/^1 download is in progress\. Quit anyway\?$/);
    expect(options.buttons).toEqual(['Quit', 'Cancel']);
    // The answer is handled in promise callbacks only: all of them have run by the next turn of the loop.
    await setImmediate();
    expect(fake.app.quit).not.toHaveBeenCalled();
    expect(desktop.quitGuard.mayQuit).toBe(false);
  });

  it('brings the window to the front when a second instance starts', async () => {
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    const focus = vi.spyOn(mainWindow(), 'focus');
    fake.app.emit('second-instance', {}, ['/opt/mlso/mlso-downloader'], '/home/me');
    expect(focus).toHaveBeenCalled();
  });

  it('notifies when a run of downloads ends while the window is not in front, and shows its progress on the taskbar', async () => {
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    await invokeFromPage('session:sign-in', { email: DEMO_EMAIL });
    const query = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', 'end-date': '2025-03-24T23:59:59', every: '4hours' } };
    await expect(invokeFromPage('downloads:enqueue', { query })).resolves.toMatchObject({ ok: true, value: { queued: expect.any(Number) } });
    await vi.waitFor(() => expect(FakeNotification.shown).toHaveLength(1), { timeout: 15_000 });
    const { run } = (await desktop.core.handlers['downloads:snapshot']()).overall;
    expect(run.done).toBeGreaterThan(0);
    expect(FakeNotification.shown[0]!.options).toEqual({ title: 'Downloads finished', body: runEndText(run), urgency: 'normal' });
    expect(mainWindow().progressBars.at(-1)).toEqual([-1, { mode: 'none' }]);
  });

  it('registers its link scheme and fills a search from a launch link once the page has loaded', async () => {
    const link = 'mlso-downloader://search?instrument=kcor&product=pb&start-date=2025-03-24';
    desktop = await runDesktopApp(DESKTOP_LOCATIONS, ['/opt/mlso/mlso-downloader', link]);
    expect(fake.app.setAsDefaultProtocolClient).toHaveBeenCalledWith('mlso-downloader');
    const openRequests = () =>
      mainWindow()
        .webContents.sent.filter(({ channel }) => channel === 'app:open-request')
        .map(({ payload }) => payload);
    expect(openRequests()).toEqual([]);
    mainWindow().webContents.emit('did-finish-load');
    await vi.waitFor(() =>
      expect(openRequests()).toEqual([{ kind: 'search', query: { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24' } } }]),
    );
    await expect(invokeFromPage('downloads:snapshot')).resolves.toMatchObject({ ok: true, value: { overall: { total: 0 } } });
  });

  it('refuses a hostile link from a second instance in one line, and offers a campaign file macOS opens', async () => {
    desktop = await runDesktopApp(DESKTOP_LOCATIONS, ['/opt/mlso/mlso-downloader']);
    mainWindow().webContents.emit('did-finish-load');
    fake.app.emit('second-instance', {}, ['/opt/mlso/mlso-downloader', 'mlso-downloader://search?instrument=kcor&product=pb&folder=/etc']);
    await vi.waitFor(() => expect(fake.dialog.showMessageBox).toHaveBeenCalledOnce());
    expect(fake.dialog.showMessageBox.mock.calls[0]![1]).toMatchObject({
      type: 'warning',
      message: 'This link was not opened: "folder" is not a search field (use instrument, product and the filters\' names).',
    });
    const file = path.join(profile, 'eclipse.mlso-campaign.json');
    await writeFile(file, '{"format":"mlso-campaign"}');
    let prevented = false;
    fake.app.emit('open-file', { preventDefault: () => (prevented = true) }, file);
    expect(prevented).toBe(true);
    await vi.waitFor(() =>
      expect(
        mainWindow()
          .webContents.sent.filter(({ channel }) => channel === 'app:open-request')
          .map(({ payload }) => payload),
      ).toEqual([{ kind: 'import', source: file, text: '{"format":"mlso-campaign"}' }]),
    );
    expect(await invokeFromPage('campaigns:list')).toEqual({ ok: true, value: [] });
  });
});
