// `mlso-dl campaign update NAME --layout T` killed with SIGKILL at several points of moving 2,333 downloaded files,
// through the built mlso-dl: whichever command comes next (the same update, a plain sync, a verify) finishes the
// move first, so every file ends exactly once, where the ledger says, and none is fetched again.
import { cp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { runBuiltCli, startBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import { waitFor } from '../helpers/wait-for';

const emulator = useEmulator({ imageSize: 32 });
afterEach(stopBuiltCli);

/** Three days of KCor pB at the emulator's cadence: 2,333 files. */
const DAYS = ['-s', '2025-03-22', '-e', '2025-03-24T23:59:59'];
const OLD_LAYOUT = '{yyyy}{mm}{dd}';
const NEW_LAYOUT = '{instrument}/{dd}';

async function mlsoDl(stateDir: string, ...args: string[]) {
  return runBuiltCli(['--base-url', emulator().url, ...args, '--state-dir', stateDir]);
}

/** Every file under `folder`, by full path, sorted (none when it does not exist). */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** Where the ledger says each file is, by the manifest (`campaign export --format json`). */
async function ledgerPlaces(state: string): Promise<{ filename: string; date_obs: string; local_path: string }[]> {
  const exported = await mlsoDl(state, 'campaign', 'export', 'big', '--format', 'json', '--out', '-');
  return (JSON.parse(exported.stdout) as { files: { filename: string; date_obs: string; local_path: string }[] }).files;
}

type Next = 'update' | 'sync' | 'verify';

function next(state: string, command: Next) {
  if (command === 'update') return mlsoDl(state, 'campaign', 'update', 'big', '--layout', NEW_LAYOUT);
  if (command === 'sync') return mlsoDl(state, 'campaign', 'sync', 'big', '-u', DEMO_EMAIL);
  return mlsoDl(state, 'campaign', 'verify', 'big');
}

describe('a layout change killed half-way, out of process', () => {
  let state = '';
  let folder = '';
  let saved = '';
  let total = 0;

  beforeAll(async () => {
    state = await temporaryFolder();
    folder = path.join(await temporaryFolder(), 'big');
    await mlsoDl(state, 'campaign', 'create', 'big', '-i', 'kcor', '-p', 'pb', ...DAYS, '--output-dir', folder, '--layout', OLD_LAYOUT);
    const synced = await mlsoDl(state, 'campaign', 'sync', 'big', '-u', DEMO_EMAIL, '--json');
    expect(synced.status).toBe(0);
    total = JSON.parse(synced.stdout).total.onDisk as number;
    expect(total).toBeGreaterThan(2000);
    // Each kill starts from this: the state folder and the campaign's folder as the sync left them, the files with
    // their times (as a restore keeps them), so the next sync's quick check finds them as written.
    saved = await temporaryFolder();
    await cp(state, path.join(saved, 'state'), { recursive: true });
    await cp(folder, path.join(saved, 'files'), { recursive: true, preserveTimestamps: true });
  }, 300_000);

  // How far the move had gone when it was killed (a share of the files moved on disk), and what runs next.
  it.each([
    [0, 'sync'],
    [0.25, 'verify'],
    [0.33, 'update'],
    [0.5, 'sync'],
    [0.67, 'verify'],
    [0.95, 'update'],
  ] as [number, Next][])(
    'killed once a share of %s of the files had moved, is finished by a %s: every file once, where the ledger says, none fetched again',
    { timeout: 120_000 },
    async (share, then) => {
      await rm(state, { recursive: true });
      await rm(folder, { recursive: true });
      await cp(path.join(saved, 'state'), state, { recursive: true });
      await cp(path.join(saved, 'files'), folder, { recursive: true, preserveTimestamps: true });

      const change = startBuiltCli(['--base-url', emulator().url, 'campaign', 'update', 'big', '--layout', NEW_LAYOUT, '--state-dir', state]);
      let ended = false;
      void change.exited.then(() => (ended = true));
      const newPlaces = path.join(folder, 'kcor');
      const movedAtLeast = Math.max(1, Math.round(share * total));
      await waitFor(async () => ended || (await filesUnder(newPlaces)).length >= movedAtLeast, `${movedAtLeast} files moved`, 60_000);
      change.child.kill('SIGKILL');
      await change.exited;
      const movedWhenKilled = (await filesUnder(newPlaces)).length;

      emulator().resetStats();
      const finished = await next(state, then);
      expect(finished.stderr).not.toMatch(/unexpected problem/i);
      expect(finished.status).toBe(0);
      expect(emulator().stats().downloadsStarted).toBe(0);

      // Every file once, at its place under the new layout, where the ledger says; nothing else in the folder.
      const places = await ledgerPlaces(state);
      expect(places).toHaveLength(total);
      for (const file of places) expect(file.local_path).toBe(path.join(folder, 'kcor', file.date_obs.slice(8, 10), file.filename));
      expect(await filesUnder(folder)).toEqual(places.map((file) => file.local_path).sort());
      expect(await readdir(folder)).toEqual(['kcor']);
      const verified = await mlsoDl(state, 'campaign', 'verify', 'big', '--json');
      expect(JSON.parse(verified.stdout)).toMatchObject({ onDisk: total, missing: 0, changed: 0, unexpected: 0, failed: 0 });
      // A sync or verify says what it finished first (the update says how many it moved, as always).
      if (movedWhenKilled < total && then !== 'update')
        expect(finished.stderr).toMatch(/^Finished the layout change of "big" that was stopped half-way: \d+ files moved/);
    },
  );
});
