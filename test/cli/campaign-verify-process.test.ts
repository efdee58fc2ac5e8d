// Verify through the built mlso-dl: the files are hashed by worker threads of the bundle, and `--quick` trusts the
// files whose size and modification time are those a verify found intact, yet finds a changed file and a missing one.
import { mkdir, readFile, readdir, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { LEDGER_FILE } from '../../src-main/core/state/open-state-folder';
import { CampaignStore } from '../../src-main/core/campaigns/campaign-store';
import { runBuiltCli, startBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { openStateFile } from '../core/state/state-file';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import { waitFor } from '../helpers/wait-for';

const emulator = useEmulator({ imageSize: 32 });
afterEach(stopBuiltCli);

const DAY = ['-s', '2025-03-24', '-e', '2025-03-24T23:59:59', '--every', '2hours'];

async function mlsoDl(stateDir: string, ...args: string[]) {
  return runBuiltCli(['--base-url', emulator().url, ...args, '--state-dir', stateDir]);
}

describe('campaign verify, out of process', () => {
  it('hashes on worker threads, and --quick finds a changed and a missing file as a full verify does', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'season');
    await mlsoDl(state, 'campaign', 'create', 'season', '-i', 'kcor', '-p', 'pb', ...DAY, '--output-dir', folder);
    expect((await mlsoDl(state, 'campaign', 'sync', 'season', '-u', DEMO_EMAIL, '--json')).status).toBe(0);
    const names = (await readdir(folder)).sort();
    expect(names.length).toBeGreaterThan(2);

    const clean = await mlsoDl(state, 'campaign', 'verify', 'season', '--quick', '--json');
    expect(clean.status).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ onDisk: names.length, changed: 0, missing: 0, problems: [] });

    const changed = path.join(folder, names[1]!);
    await writeFile(changed, Buffer.alloc((await stat(changed)).size, 0x41));
    const later = new Date(Date.now() + 60_000);
    await utimes(changed, later, later);
    await rm(path.join(folder, names[0]!));
    const expected = { onDisk: names.length - 2, changed: 1, missing: 1 };
    const quick = await mlsoDl(state, 'campaign', 'verify', 'season', '--quick', '--json');
    expect([quick.status, quick.stderr]).toEqual([1, '']);
    const report = JSON.parse(quick.stdout);
    expect(report).toMatchObject(expected);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        { path: names[0], problem: 'missing' },
        { path: names[1], problem: 'changed' },
      ]),
    );
    const full = await mlsoDl(state, 'campaign', 'verify', 'season', '--json');
    expect(full.status).toBe(1);
    expect(JSON.parse(full.stdout)).toMatchObject(expected);
  });

  it('stopped with Ctrl-C while hashing, exits 130 having read a small part of the files, and records nothing', { timeout: 60_000 }, async () => {
    // Four sparse files of 4 GiB: seconds of hashing on any machine, and no disk space.
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'big');
    await mkdir(folder, { recursive: true });
    const { ledger, state: database } = openStateFile(path.join(state, LEDGER_FILE));
    const store = new CampaignStore(database);
    const campaign = store.create({ name: 'big', folder, layout: '', queries: [{ instrument: 'kcor', product: 'pb', filters: {} }], autoSyncHours: null });
    const size = 4 * 1024 ** 3;
    const records = ['a', 'b', 'c', 'd'].map((letter) => {
      const filename = `20250324_00000${letter}_kcor_l2_pb.fts`;
      return {
        relativePath: filename,
        targetPath: path.join(folder, filename),
        filename,
        url: `https://api.example.org/${filename}`,
        instrument: 'kcor',
        product: 'pb',
        dateObs: null,
        waveRegion: null,
        obsPlan: null,
        filesize: size,
        expectedSha256: null,
      };
    });
    store.recordFiles(campaign.id, records);
    for (const [index, id] of ledger
      .insertMany(records.map((file) => ({ ...file, folder, expectedSize: size, batchId: null, state: 'active' as const })))
      .entries()) {
      await writeFile(records[index]!.targetPath, '');
      await truncate(records[index]!.targetPath, size);
      ledger.markDone(id, { sha256: 'ab'.repeat(32), bytesReceived: size, bytesWritten: size });
    }
    ledger.close();

    const run = startBuiltCli(['campaign', 'verify', 'big', '--json', '--state-dir', state]);
    // What the process has read from files, workers included (rchar of /proc/PID/io), sampled until it is gone.
    let bytesRead = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const io = await readFile(`/proc/${run.child.pid!}/io`, 'utf8').catch(() => '');
        bytesRead = Math.max(bytesRead, Number(/^rchar: (\d+)$/m.exec(io)?.[1] ?? 0));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    await waitFor(() => bytesRead > 256 * 1024 ** 2, 'hashing to be under way');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    sampling = false;
    await sampler;
    // Stopped, not finished: a verify that hashed on after Ctrl-C would have read all 16 GiB before it ended.
    expect(bytesRead).toBeLessThan((records.length * size) / 2);
    expect(run.stdout()).toBe('');
    const after = openStateFile(path.join(state, LEDGER_FILE));
    expect(after.ledger.list().map((job) => job.state)).toEqual(['done', 'done', 'done', 'done']);
    after.ledger.close();
  });
});
