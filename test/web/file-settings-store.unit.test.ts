// Web mode's preferences file: defaults, persistence, a damaged or hand-edited file falling back to the
// defaults, and whole-file writes that never leave a half-written file or a stray temporary behind.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applySettingsChange } from '../../src-main/core/app/settings-rules';
import { fileSettingsStore } from '../../src-main/web/file-settings-store';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import { describeBadSettingsFile } from '../helpers/bad-settings-file-cases';
import { temporaryFolder } from '../helpers/fixtures';

const downloads = path.resolve('/home/someone/mlso-data');
const settingsFile = (folder: string): string => path.join(folder, 'web-settings.json');

describe('the web-mode settings file', () => {
  it('starts from the defaults when there is no file', async () => {
    const folder = await temporaryFolder();
    expect(fileSettingsStore(folder, downloads).read()).toEqual(defaultSettings(downloads));
  });

  it('keeps what was written across a restart, in web-settings.json, leaving no temporary file', async () => {
    const folder = await temporaryFolder();
    const first = fileSettingsStore(folder, downloads);
    const changed = applySettingsChange(first.read(), { concurrency: 8, existingFiles: 'keep-both', lastEmail: 'demo@example.com' });
    first.write(changed);
    first.write(applySettingsChange(changed, { retries: 7 }));
    expect(fileSettingsStore(folder, downloads).read()).toEqual({ ...changed, retries: 7 });
    expect(await readdir(folder)).toEqual(['web-settings.json']);
    expect(JSON.parse(await readFile(settingsFile(folder), 'utf8'))).toEqual({ ...changed, retries: 7 });
  });

  it('reads the file an earlier version wrote (tab-indented JSON from conf)', async () => {
    const folder = await temporaryFolder();
    const saved = { ...defaultSettings(downloads), concurrency: 3, baseUrl: 'http://127.0.0.1:5000' };
    await writeFile(settingsFile(folder), JSON.stringify(saved, undefined, '\t'));
    expect(fileSettingsStore(folder, downloads).read()).toEqual(saved);
  });

  it.each([
    ['damaged JSON', '{"concurrency": 8,'],
    ['an empty file', ''],
    ['not an object', '[1, 2, 3]'],
    ['a bad value', JSON.stringify({ concurrency: 99 })],
  ])('falls back to the defaults for %s, and a later write replaces the file', async (_what, text) => {
    const folder = await temporaryFolder();
    await writeFile(settingsFile(folder), text);
    const store = fileSettingsStore(folder, downloads);
    expect(store.read()).toEqual(defaultSettings(downloads));
    store.write(applySettingsChange(store.read(), { concurrency: 2 }));
    expect(fileSettingsStore(folder, downloads).read().concurrency).toBe(2);
  });

  it('ignores keys it does not know (a newer version may have written them)', async () => {
    const folder = await temporaryFolder();
    await writeFile(settingsFile(folder), JSON.stringify({ concurrency: 5, someFutureSetting: true }));
    expect(fileSettingsStore(folder, downloads).read()).toEqual({ ...defaultSettings(downloads), concurrency: 5 });
  });

  it('creates a missing state folder on the first write', async () => {
    const folder = path.join(await temporaryFolder(), 'new', 'state');
    const store = fileSettingsStore(folder, downloads);
    store.write(applySettingsChange(store.read(), { concurrency: 6 }));
    expect(fileSettingsStore(folder, downloads).read().concurrency).toBe(6);
  });

  it('throws when the file cannot be written (a file in the way of the state folder)', async () => {
    const blocker = path.join(await temporaryFolder(), 'notes.txt');
    await writeFile(blocker, 'a file, not a folder');
    const store = fileSettingsStore(path.join(blocker, 'state'), downloads);
    expect(store.read()).toEqual(defaultSettings(downloads));
    expect(() => store.write(applySettingsChange(store.read(), { concurrency: 7 }))).toThrow();
  });
});

describeBadSettingsFile('web mode', {
  folder: temporaryFolder,
  fileName: 'web-settings.json',
  open: (folder, warn) => fileSettingsStore(folder, downloads, warn),
  defaults: defaultSettings(downloads),
});
