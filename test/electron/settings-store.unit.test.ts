// Preferences on electron-store: defaults, persistence, the schema, and a damaged file set aside.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../src-shared/settings/settings-types';
import { applySettingsChange } from '../../src-main/core/app/settings-rules';
import { defaultDownloadFolder, electronSettingsStore } from '../../src-main/electron/electron-settings-store';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import { describeBadSettingsFile } from '../helpers/bad-settings-file-cases';
import { temporaryFolder } from '../helpers/fixtures';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);
vi.mock('electron-store', async () => ({ default: (await import('./conf-backed-store')).ConfBackedStore }));

let folder: string;
const downloads = path.resolve('/home/someone/Downloads');

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'mlso-electron-settings-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const settingsFile = () => path.join(folder, 'settings.json');

describe('the desktop settings store', () => {
  it('starts from the documented defaults, downloading into Downloads/MLSO', () => {
    expect(electronSettingsStore(folder, downloads).read()).toEqual({
      baseUrl: 'http://api.mlso.ucar.edu',
      apiVersion: 'v1',
      clientName: 'mlso-downloader',
      downloadFolder: path.join(downloads, 'MLSO'),
      concurrency: 4,
      retries: 4,
      existingFiles: 'skip',
      lastEmail: '',
      rememberSession: false,
      useDemoServer: false,
      allowOtherHosts: false,
      linkReused: false,
      windowBounds: null,
      notifyWhenDone: true,
      autoUpdate: true,
      listingTimeoutMinutes: 10,
      maxListingMegabytes: 256,
      settleDays: 7,
      proxy: 'system',
      limitRate: '',
    } satisfies Settings);
    expect(defaultDownloadFolder(downloads)).toBe(path.join(downloads, 'MLSO'));
  });

  it('keeps what was written across a restart', () => {
    const first = electronSettingsStore(folder, downloads);
    const changed = applySettingsChange(first.read(), {
      concurrency: 8,
      existingFiles: 'keep-both',
      lastEmail: 'demo@example.com',
      windowBounds: { x: 10, y: 20, width: 1100, height: 700, maximized: true },
    });
    first.write(changed);
    expect(electronSettingsStore(folder, downloads).read()).toEqual(changed);
  });

  it('refuses to save values outside the schema', () => {
    const store = electronSettingsStore(folder, downloads);
    const good = store.read();
    const bad: Partial<Record<keyof Settings, unknown>>[] = [
      { concurrency: 0 },
      { concurrency: 2.5 },
      { retries: 99 },
      { existingFiles: 'delete' },
      { baseUrl: 'ftp://example.org' },
      { downloadFolder: '' },
      { windowBounds: { x: 1, y: 2 } },
      { listingTimeoutMinutes: 0 },
      { listingTimeoutMinutes: 1.5 },
      { maxListingMegabytes: 4097 },
      { maxListingMegabytes: '256' },
    ];
    for (const change of bad) expect(() => store.write({ ...good, ...change } as Settings), JSON.stringify(change)).toThrow(/schema/i);
    expect(electronSettingsStore(folder, downloads).read()).toEqual(good);
  });

  it('accepts every value the core rules accept at their limits', () => {
    const store = electronSettingsStore(folder, downloads);
    for (const change of [
      { concurrency: 1, retries: 0, listingTimeoutMinutes: 1, maxListingMegabytes: 1 },
      { concurrency: 16, retries: 20, listingTimeoutMinutes: 1440, maxListingMegabytes: 4096 },
    ]) {
      const next = applySettingsChange(store.read(), change);
      store.write(next);
      expect(store.read()).toEqual(next);
    }
  });

  it('accepts every window position the core rules keep (a window of no size is forgotten, not kept)', () => {
    const store = electronSettingsStore(folder, downloads);
    for (const windowBounds of [
      { x: -20, y: 0, width: 1, height: 1, maximized: false },
      { x: 0, y: 0, width: 0, height: 700, maximized: false },
      { x: 0, y: 0, width: 1100, height: -1, maximized: true },
    ]) {
      const next = applySettingsChange(store.read(), { windowBounds });
      store.write(next);
      expect(store.read()).toEqual(next);
    }
  });

  it('sets a file that breaks the schema aside and starts from the defaults', async () => {
    await writeFile(settingsFile(), JSON.stringify({ concurrency: 'lots', lastEmail: 'kept@example.com' }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = electronSettingsStore(folder, downloads);
    expect(store.read().concurrency).toBe(4);
    const files = await readdir(folder);
    const setAside = files.find((name) => name.startsWith('settings.invalid-'));
    expect(setAside).toBeDefined();
    expect(await readFile(path.join(folder, setAside ?? ''), 'utf8')).toContain('kept@example.com');
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('sets a file that is not JSON aside too', async () => {
    await writeFile(settingsFile(), '{ not json');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(electronSettingsStore(folder, downloads).read().retries).toBe(4);
    vi.restoreAllMocks();
  });

  it('fills in settings missing from an older file', async () => {
    await writeFile(settingsFile(), JSON.stringify({ lastEmail: 'old@example.com', concurrency: 2 }));
    const settings = electronSettingsStore(folder, downloads).read();
    expect(settings).toMatchObject({ lastEmail: 'old@example.com', concurrency: 2, retries: 4, windowBounds: null });
  });
});

describeBadSettingsFile('the desktop app', {
  folder: temporaryFolder,
  fileName: 'settings.json',
  open: (folder, warn) => electronSettingsStore(folder, downloads, warn),
  // The desktop app's own defaults: its folder, and the system's proxy.
  defaults: { ...defaultSettings(path.join(downloads, 'MLSO')), proxy: 'system' },
});
