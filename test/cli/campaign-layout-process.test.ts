// `mlso-dl campaign update NAME --layout T` through the built mlso-dl: the files already downloaded move to their
// new places (nothing is fetched again), the count is said in text and JSON, and a missing copy is left to the sync.
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { runBuiltCli, stopBuiltCli } from '../helpers/built-cli';
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

const exists = (file: string): Promise<boolean> => stat(file).then(() => true, () => false);

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
    expect(JSON.parse(changed.stdout)).toMatchObject({ name: 'plans', layout: '{instrument}/{yyyy}', moved: total, leftForSync: 0, counts: { onDisk: total, missing: 0 } });
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
});
