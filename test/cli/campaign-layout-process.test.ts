// `mlso-dl campaign update NAME --layout T` through the built mlso-dl: the files already downloaded move to their
// new places (nothing is fetched again), the count is said in text and JSON, a missing copy is left to the sync, and
// a change killed with SIGKILL half-way loses no file and is finished by the same command again.
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { entryOfStored, relativePathOf, targetPathOf } from '../../src-main/core/campaigns/campaign-paths';
import { CampaignStore } from '../../src-main/core/campaigns/campaign-store';
import { LEDGER_FILE } from '../../src-main/core/state/open-state-folder';
import { openStateFile } from '../core/state/state-file';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { runBuiltCli, startBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { waitFor } from '../helpers/wait-for';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 32 });
afterEach(stopBuiltCli);

const DAY = ['-s', '2025-03-24', '-e', '2025-03-24T23:59:59', '--every', '2hours'];

async function mlsoDl(stateDir: string, ...args: string[]) {
  return runBuiltCli(['--base-url', emulator().url, ...args, '--state-dir', stateDir]);
}

async function localPaths(stateDir: string, name: string): Promise<Map<string, string>> {
  const manifest = JSON.parse((await mlsoDl(stateDir, 'campaign', 'export', name, '--format', 'json', '--out', '-')).stdout) as {
    files: { filename: string; local_path: string }[];
  };
  return new Map(manifest.files.map((file) => [file.filename, file.local_path]));
}

const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );

describe('campaign update --layout, out of process', () => {
  it('moves the downloaded files to the new layout, says how many, and the next sync fetches nothing', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'plans');
    await mlsoDl(state, 'campaign', 'create', 'plans', '-i', 'ucomp', '-p', 'l2', ...DAY, '--output-dir', folder, '--layout', '{obs_plan}');
    const first = await mlsoDl(state, 'campaign', 'sync', 'plans', '-u', DEMO_EMAIL, '--json');
    expect(first.status).toBe(0);
    const total = JSON.parse(first.stdout).total.onDisk as number;
    const before = await localPaths(state, 'plans');

    const changed = await mlsoDl(state, 'campaign', 'update', 'plans', '--layout', '{instrument}/{yyyy}', '--json');
    expect(changed.stderr).toBe('');
    expect(changed.status).toBe(0);
    expect(JSON.parse(changed.stdout)).toMatchObject({
      name: 'plans',
      layout: '{instrument}/{yyyy}',
      moved: total,
      leftForSync: 0,
      counts: { onDisk: total, missing: 0 },
    });
    for (const [filename, local] of await localPaths(state, 'plans')) {
      expect(local).toBe(path.join(folder, 'ucomp', '2025', filename));
      expect(await exists(local)).toBe(true);
      expect(await exists(before.get(filename)!)).toBe(false);
    }
    expect(await readdir(folder)).toEqual(['ucomp']);

    emulator().resetStats();
    const next = await mlsoDl(state, 'campaign', 'sync', 'plans', '-u', DEMO_EMAIL, '--json');
    expect(next.status).toBe(0);
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ moved: [], total: { onDisk: total, missing: 0 } });
    const verified = await mlsoDl(state, 'campaign', 'verify', 'plans', '--json');
    expect(JSON.parse(verified.stdout)).toMatchObject({ onDisk: total, missing: 0, changed: 0, unexpected: 0 });
  });

  it('says in text how many moved and that a missing copy is fetched by the next sync', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'plans');
    await mlsoDl(state, 'campaign', 'create', 'plans', '-i', 'ucomp', '-p', 'l2', ...DAY, '--output-dir', folder, '--layout', '{obs_plan}');
    const total = JSON.parse((await mlsoDl(state, 'campaign', 'sync', 'plans', '-u', DEMO_EMAIL, '--json')).stdout).total.onDisk as number;
    const [lost] = [...(await localPaths(state, 'plans'))];
    await rm(lost![1]);

    const changed = await mlsoDl(state, 'campaign', 'update', 'plans', '--layout', '');
    expect(changed.status).toBe(0);
    expect(changed.stderr).toBe(
      `"plans" now keeps every file in its folder itself: ${total - 1} files moved to their new places. 1 file was not on disk as downloaded (missing or changed): \`mlso-dl campaign sync plans -u EMAIL\` fetches it to the new places.\n`,
    );
    emulator().resetStats();
    expect((await mlsoDl(state, 'campaign', 'sync', 'plans', '-u', DEMO_EMAIL)).status).toBe(0);
    expect(emulator().stats().downloadsByFile).toEqual({ [lost![0]]: 1 });
    expect((await readdir(folder)).sort()).toEqual([...(await localPaths(state, 'plans')).keys()].sort());
  });

  it('killed with SIGKILL half-way through thousands of files, loses none: the same command again moves the rest', { timeout: 120_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'big');
    expect(
      (await mlsoDl(state, 'campaign', 'create', 'big', '-i', 'kcor', '-p', 'pb', ...DAY, '--output-dir', folder, '--layout', '{yyyy}/{mm}/{dd}')).status,
    ).toBe(0);
    // Thousands of downloaded files, one an hour, recorded as the sync records them: the move takes long enough to kill.
    const count = 4000;
    const body = Buffer.alloc(2048, 7);
    const sha256 = createHash('sha256').update(body).digest('hex');
    const { ledger, state: database } = openStateFile(path.join(state, LEDGER_FILE));
    const store = new CampaignStore(database);
    const campaign = store.require('big');
    const records = Array.from({ length: count }, (_, index) => {
      const stored = {
        filename: `${String(index).padStart(5, '0')}_kcor_l2_pb.fts.gz`,
        url: `${emulator().url}/files/${index}`,
        instrument: 'kcor',
        product: 'pb',
        dateObs: new Date(Date.UTC(2025, 0, 1) + index * 3_600_000).toISOString().slice(0, 19),
        waveRegion: null,
        obsPlan: null,
        filesize: body.length,
        expectedSha256: null,
      };
      const relativePath = relativePathOf(campaign.layout, entryOfStored(stored));
      return { ...stored, relativePath, targetPath: targetPathOf(folder, relativePath) };
    });
    store.recordFiles(campaign.id, records);
    ledger.transaction(() => {
      for (const record of records) {
        const [id] = ledger.insertMany([{ ...record, folder: path.dirname(record.targetPath), expectedSize: body.length, batchId: null, state: 'done' }]);
        ledger.markDone(id!, { sha256, bytesReceived: body.length, bytesWritten: body.length });
      }
    });
    ledger.close();
    for (const record of records) {
      await mkdir(path.dirname(record.targetPath), { recursive: true });
      await writeFile(record.targetPath, body);
    }

    const layout = '{instrument}/{yyyy}/{mm}';
    const killed = startBuiltCli(['--base-url', emulator().url, 'campaign', 'update', 'big', '--layout', layout, '--json', '--state-dir', state]);
    // Files in their new place, not only the new folder (made before the first file moves: killed then, none had
    // moved). Several, not one: a kill just after the first rename, before its record, leaves every record to move.
    const january = path.join(folder, 'kcor', '2025', '01');
    await waitFor(async () => (await exists(january)) && (await readdir(january)).length >= 20, 'twenty files moved', 30_000, 5);
    killed.child.kill('SIGKILL');
    expect(await killed.exited).toBe('SIGKILL');

    const again = await mlsoDl(state, 'campaign', 'update', 'big', '--layout', layout, '--json');
    expect(again.stderr).toBe('');
    const { moved, leftForSync } = JSON.parse(again.stdout) as { moved: number; leftForSync: number };
    // The killed run had moved some, not all; together every file, none left to fetch.
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(count);
    expect(leftForSync).toBe(0);
    expect(await readdir(folder)).toEqual(['kcor']);
    const paths = await localPaths(state, 'big');
    for (const record of records)
      expect(paths.get(record.filename)).toBe(path.join(folder, 'kcor', record.dateObs.slice(0, 4), record.dateObs.slice(5, 7), record.filename));
    const verified = await mlsoDl(state, 'campaign', 'verify', 'big', '--json');
    expect(JSON.parse(verified.stdout)).toMatchObject({ onDisk: count, missing: 0, changed: 0, unexpected: 0, refused: 0 });
    expect(verified.status).toBe(0);
  });

  it('refuses a layout with a backslash in create and update, in one line, and makes no folder', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'slashes');
    const refusal = (layout: string) =>
      `mlso-dl: The folder layout "${layout}" holds a backslash (separate folders with /, on every system). Use folders and placeholders inside the campaign folder, e.g. {instrument}/{product}/{yyyy}/{mm}/{dd}.\n`;
    const created = await mlsoDl(state, 'campaign', 'create', 'slashes', '-i', 'kcor', '-p', 'pb', ...DAY, '--output-dir', folder, '--layout', 'a\\b');
    expect(created.stderr).toBe(refusal('a\\b'));
    expect(created.status).toBe(2);
    expect(JSON.parse((await mlsoDl(state, 'campaign', 'list', '--json')).stdout)).toEqual([]);

    await mlsoDl(state, 'campaign', 'create', 'slashes', '-i', 'kcor', '-p', 'pb', ...DAY, '--output-dir', folder, '--layout', '{yyyy}');
    expect((await mlsoDl(state, 'campaign', 'sync', 'slashes', '-u', DEMO_EMAIL)).status).toBe(0);
    const updated = await mlsoDl(state, 'campaign', 'update', 'slashes', '--layout', '{instrument}\\{yyyy}');
    expect(updated.stderr).toBe(refusal('{instrument}\\{yyyy}'));
    expect(updated.status).toBe(2);
    expect(JSON.parse((await mlsoDl(state, 'campaign', 'show', 'slashes', '--json')).stdout)).toMatchObject({ layout: '{yyyy}' });
    expect(await readdir(folder)).toEqual(['2025']);
  });

  it('refuses a layout under which two files would share a place, in one sentence, and changes nothing', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'twice');
    await mlsoDl(state, 'campaign', 'create', 'twice', '-i', 'kcor', '-p', 'pb', ...DAY, '--output-dir', folder, '--layout', '{yyyy}');
    // One name at two dates, as a shared file list can give it.
    const { ledger, state: database } = openStateFile(path.join(state, LEDGER_FILE));
    const store = new CampaignStore(database);
    const campaign = store.require('twice');
    const filename = '20250324_180000_kcor_l2_pb.fts.gz';
    store.recordFiles(
      campaign.id,
      ['2024-03-24T18:00:00', '2025-03-24T18:00:00'].map((dateObs) => ({
        filename,
        url: `${emulator().url}/files/${filename}`,
        instrument: 'kcor',
        product: 'pb',
        dateObs,
        waveRegion: null,
        obsPlan: null,
        filesize: 0,
        expectedSha256: null,
        relativePath: `${dateObs.slice(0, 4)}/${filename}`,
        targetPath: targetPathOf(folder, `${dateObs.slice(0, 4)}/${filename}`),
      })),
    );
    ledger.close();

    const refused = await mlsoDl(state, 'campaign', 'update', 'twice', '--layout', '');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      `mlso-dl: With every file in the folder itself, two files would both be at "${filename}" (from 2024/${filename} and 2025/${filename}): choose a layout whose placeholders tell them apart.\n`,
    );
    expect(JSON.parse((await mlsoDl(state, 'campaign', 'show', 'twice', '--json')).stdout)).toMatchObject({ layout: '{yyyy}' });
  });
});
