// `mlso-dl campaign sync` never calls a file "already there" that is gone or changed (issue 29, item 1): the files of a
// settled window are not listed again, but every finished file is looked at on disk (exists, size and modification
// time as written), and one that fails is fetched again. The built mlso-dl as child processes against the emulator.
import Database from 'better-sqlite3';
import { readFile, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { runBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import { sha256Hex } from '../helpers/sha256';

// Two hours of one long-settled day, a file every quarter of an hour: one month window, settled after the first sync.
const emulator = useEmulator({ imageSize: 32, lastDay: '2025-03-24', days: 1, cadenceSeconds: 900, zeroFilesizeRate: 0 });
afterEach(stopBuiltCli);

const NAME = 'settled';

async function mlsoDl(state: string, ...args: string[]) {
  return runBuiltCli(['--base-url', emulator().url, ...args, '--state-dir', state]);
}

interface ExportedFile {
  local_path: string;
  filename: string;
  size_on_disk: number;
}

async function campaignWithFiles(): Promise<{ state: string; files: ExportedFile[] }> {
  const state = await temporaryFolder();
  const folder = path.join(await temporaryFolder(), NAME);
  const window = ['-s', '2025-03-24T20:00:00', '-e', '2025-03-24T21:45:00'];
  expect((await mlsoDl(state, 'campaign', 'create', NAME, '-i', 'kcor', '-p', 'pb', ...window, '--output-dir', folder)).status).toBe(0);
  const first = await mlsoDl(state, 'campaign', 'sync', NAME, '-u', DEMO_EMAIL, '--json');
  expect(first.status, first.stderr).toBe(0);
  const exported = await mlsoDl(state, 'campaign', 'export', NAME, '--format', 'json', '--out', '-');
  const files = (JSON.parse(exported.stdout) as { files: ExportedFile[] }).files;
  expect(files.length).toBeGreaterThanOrEqual(5);
  return { state, files };
}

describe('mlso-dl campaign sync checks the files of settled windows on disk', () => {
  it('fetches again a file deleted, truncated or overwritten (same size, other bytes, new time), and says so', { timeout: 60_000 }, async () => {
    const { state, files } = await campaignWithFiles();
    const total = files.length;
    emulator().resetStats();
    const quiet = await mlsoDl(state, 'campaign', 'sync', NAME, '-u', DEMO_EMAIL);
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stderr).toContain(`Synced "${NAME}": 0 downloaded, ${total} already there, 0 failed.`);
    // The window is settled: the second sync did not list it again.
    expect(emulator().stats().downloadsStarted).toBe(0);

    const [gone, shortened, overwritten] = [files[0]!, files[1]!, files[2]!];
    await rm(gone.local_path);
    await truncate(shortened.local_path, Math.floor(shortened.size_on_disk / 2));
    const before = await stat(overwritten.local_path);
    await writeFile(overwritten.local_path, Buffer.alloc(overwritten.size_on_disk, 0x41));
    await utimes(overwritten.local_path, before.atime, new Date(before.mtimeMs + 5000));

    emulator().resetStats();
    const again = await mlsoDl(state, 'campaign', 'sync', NAME, '-u', DEMO_EMAIL);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain(`Synced "${NAME}": 3 downloaded, ${total - 3} already there, 0 failed.`);
    expect(again.stderr).toContain('Not on disk as downloaded: 1 missing, 2 changed (another size or modification time); queued to be fetched again.');
    expect(Object.keys(emulator().stats().downloadsByFile).sort()).toEqual([gone.filename, shortened.filename, overwritten.filename].sort());
    for (const file of [gone, shortened, overwritten]) {
      expect(sha256Hex(await readFile(file.local_path))).toBe(sha256Hex(await emulator().fileBytes('kcor', file.filename)));
    }

    // The card's counts say the same (one count function), and verify finds every file intact.
    const shown = JSON.parse((await mlsoDl(state, 'campaign', 'show', NAME, '--json')).stdout);
    expect(shown.counts).toMatchObject({ files: total, onDisk: total, missing: 0, changed: 0, failed: 0 });
    expect(shown.lastSync.total).toMatchObject({ downloaded: 3, alreadyThere: total - 3 });
    const verified = await mlsoDl(state, 'campaign', 'verify', NAME, '--json');
    expect(JSON.parse(verified.stdout)).toMatchObject({ onDisk: total, missing: 0, changed: 0, unexpected: 0 });
  });

  it('records the time of a finished file whose time was never recorded, and compares it from then on', { timeout: 60_000 }, async () => {
    const { state, files } = await campaignWithFiles();
    const total = files.length;
    // As a ledger from before the time was kept has its finished files.
    const ledger = new Database(path.join(state, 'downloads.sqlite'));
    try {
      ledger.prepare('UPDATE jobs SET written_mtime_ms = NULL').run();
    } finally {
      ledger.close();
    }
    emulator().resetStats();
    const firstLook = await mlsoDl(state, 'campaign', 'sync', NAME, '-u', DEMO_EMAIL);
    expect(firstLook.stderr).toContain(`Synced "${NAME}": 0 downloaded, ${total} already there, 0 failed.`);
    expect(emulator().stats().downloadsStarted).toBe(0);

    const touched = files[0]!;
    const before = await stat(touched.local_path);
    await utimes(touched.local_path, before.atime, new Date(before.mtimeMs + 5000));
    const again = await mlsoDl(state, 'campaign', 'sync', NAME, '-u', DEMO_EMAIL);
    expect(again.stderr).toContain(`Synced "${NAME}": 1 downloaded, ${total - 1} already there, 0 failed.`);
    expect(Object.keys(emulator().stats().downloadsByFile)).toEqual([touched.filename]);
  });
});
