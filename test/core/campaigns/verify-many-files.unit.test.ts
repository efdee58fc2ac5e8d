// Verify over 10,000 files (the bench runs 100,000): hashed on every core, it finds a planted changed file and a
// missing one; a quick verify trusts the files whose size and modification time are those it found intact before
// and hashes only the others, and finds the same planted files.
import { createHash } from 'node:crypto';
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kcorFileRecord, recordCampaignFiles } from '../../../scripts/bench/campaign-records';
import type { MlsoClient } from '../../../src-main/core/api/mlso-client';
import type { VerifyReport } from '../../../src-shared/campaigns/campaign-types';
import { CampaignService } from '../../../src-main/core/campaigns/campaign-service';
import { HashPool } from '../../../src-main/core/campaigns/file-hashing';
import type { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import type { StateDatabase } from '../../../src-main/core/state/state-database';
import { temporaryFolder } from '../../helpers/fixtures';
import { openStateFile } from '../state/state-file';
import { KCOR_DAY } from './campaign-harness';

const FILES = 10_000;
const ledgers: DownloadLedger[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

/**
 * A campaign of `FILES` small files, all downloaded (in the ledger with their SHA-256); its service and folder.
 * `observedAt` gives a file its observation time (by default all share one, so the campaign lists them by path).
 */
async function downloadedCampaign(
  observedAt?: (index: number) => string,
): Promise<{ service: CampaignService; folder: string; names: string[]; state: StateDatabase }> {
  const { ledger, state } = openStateFile(':memory:');
  ledgers.push(ledger);
  const service = new CampaignService({ ledger, state, client: {} as MlsoClient });
  const folder = path.join(await temporaryFolder(), 'season');
  await mkdir(folder, { recursive: true });
  const campaign = service.store.create({ name: 'season', folder, layout: '', queries: [KCOR_DAY], autoSyncHours: null });
  const names = Array.from({ length: FILES }, (_, index) => `20250324_${String(index).padStart(6, '0')}_kcor_l2_pb.fts`);
  const records = names.map((filename, index) => kcorFileRecord(path.join(folder, filename), 0, observedAt?.(index)));
  const ids = recordCampaignFiles(service.store, ledger, campaign.id, records);
  const bodies = records.map((file) => Buffer.from(`SIMPLE  = T / file ${file.filename}`.padEnd(2880, ' ')));
  for (let start = 0; start < records.length; start += 500) {
    await Promise.all(records.slice(start, start + 500).map((file, index) => writeFile(file.targetPath, bodies[start + index]!)));
  }
  ledger.transaction(() =>
    bodies.forEach((body, index) =>
      ledger.markDone(ids[index]!, { sha256: createHash('sha256').update(body).digest('hex'), bytesReceived: body.length, bytesWritten: body.length }),
    ),
  );
  return { service, folder, names, state };
}

/** How many rows the database has changed since it was opened. */
const rowsChanged = (state: StateDatabase): number => state.connection.prepare<[], { changed: number }>('SELECT total_changes() AS changed').get()!.changed;

/** The same size, other bytes, and a modification time later than the one verify saw. */
async function change(file: string): Promise<void> {
  await writeFile(file, Buffer.alloc(2880, 0x41));
  const later = new Date(Date.now() + 60_000);
  await utimes(file, later, later);
}

/** One file changed (same size, other bytes, a later time) and one deleted. */
async function plantProblems(folder: string, names: readonly string[]): Promise<void> {
  await change(path.join(folder, names[4321]!));
  await rm(path.join(folder, names[9876]!));
}

function expectPlantedFound(report: VerifyReport, names: readonly string[]): void {
  expect(report).toMatchObject({ onDisk: FILES - 2, changed: 1, unexpected: 0 });
  expect(report.missing + report.notSynced).toBe(1); // never synced: the missing one counts as not yet synced
  expect(report.problems).toEqual([
    { path: names[4321], problem: 'changed' },
    { path: names[9876], problem: 'missing' },
  ]);
}

describe('verify of 10,000 files', () => {
  it('finds a changed file and a missing one, hashing every file', { timeout: 60_000 }, async () => {
    const { service, folder, names } = await downloadedCampaign();
    await plantProblems(folder, names);
    let hashed = 0;
    expectPlantedFound(await service.verify('season', { onHashed: (done) => (hashed = done) }), names);
    expect(hashed).toBe(FILES);
  });

  it('with --quick hashes only the files whose size or time moved, and finds the same', { timeout: 60_000 }, async () => {
    const { service, folder, names } = await downloadedCampaign();
    // Never found intact by a verify yet: a quick verify hashes them all, and records what it found.
    let hashed = 0;
    expect(await service.verify('season', { quick: true, onHashed: (done) => (hashed = done) })).toMatchObject({ onDisk: FILES, changed: 0 });
    expect(hashed).toBe(FILES);
    await plantProblems(folder, names);
    let total = 0;
    expectPlantedFound(await service.verify('season', { quick: true, onHashed: (_done, all) => (total = all) }), names);
    expect(total).toBe(1);
  });

  it('stops hashing at once when cancelled', { timeout: 60_000 }, async () => {
    const { service } = await downloadedCampaign();
    const controller = new AbortController();
    const verifying = service.verify('season', { signal: controller.signal, onHashed: (done) => done >= 1000 && controller.abort() });
    await expect(verifying).rejects.toThrow();
  });

  it('writes nothing to the ledger when every file is as it was found intact before', { timeout: 60_000 }, async () => {
    const { service, folder, names, state } = await downloadedCampaign();
    await service.verify('season');
    const before = rowsChanged(state);
    expect(await service.verify('season')).toMatchObject({ onDisk: FILES, changed: 0 });
    expect(rowsChanged(state) - before).toBe(0);
    // A file touched since (same bytes, a later time) is recorded again with its new time, and only it.
    const touched = path.join(folder, names[17]!);
    const later = new Date(Date.now() + 60_000);
    await utimes(touched, later, later);
    expect(await service.verify('season')).toMatchObject({ onDisk: FILES, changed: 0 });
    expect(rowsChanged(state) - before).toBe(1);
    let hashed = -1;
    await service.verify('season', { quick: true, onHashed: (done) => (hashed = done) });
    expect(hashed).toBe(-1); // its new time was recorded: a quick verify trusts it too
  });

  it('lists the problems in the order the campaign lists its files (by observation time), not by path', { timeout: 60_000 }, async () => {
    // Observed in the reverse order of their names: the last name first.
    const start = Date.parse('2025-03-24T17:00:00Z');
    const { service, folder, names } = await downloadedCampaign((index) => new Date(start + (FILES - index) * 1000).toISOString().slice(0, 19));
    await plantProblems(folder, names);
    expect((await service.verify('season')).problems).toEqual([
      { path: names[9876], problem: 'missing' },
      { path: names[4321], problem: 'changed' },
    ]);
  });
});

describe('verify progress', () => {
  it('counts up to the files downloaded, when some of the campaign are not', { timeout: 60_000 }, async () => {
    const { service } = await downloadedCampaign();
    const ledger = ledgers.at(-1)!;
    const files = service.store.files(service.store.require('season').id);
    for (const file of files.slice(0, 100)) ledger.markFailed(file.jobId!, 'http', 'The server answered 500.');
    const progress: [number, number][] = [];
    await service.verify('season', { onHashed: (done, total) => progress.push([done, total]) });
    expect(progress.at(-1)).toEqual([FILES - 100, FILES - 100]);
    for (const [done, total] of progress) expect(done).toBeLessThanOrEqual(total);
  });
});

describe('the hashing threads', () => {
  it('hash files added in pieces while they work, each in the order added, and say when all are done', async () => {
    const folder = await temporaryFolder();
    const bodies = ['first', 'second', 'third', 'fourth'].map((word) => Buffer.from(word.repeat(1000)));
    const files = bodies.map((_, index) => path.join(folder, `${index}.fts`));
    await Promise.all(files.map((file, index) => writeFile(file, bodies[index]!)));
    const progress: [number, number][] = [];
    const pool = new HashPool({ expected: 5, threads: 2, onHashed: (done, total) => progress.push([done, total]) });
    try {
      pool.add(files.slice(0, 2));
      await new Promise((resolve) => setTimeout(resolve, 50));
      pool.add([path.join(folder, 'gone.fts'), ...files.slice(2)]);
      const digests = await pool.finish();
      expect(digests.map((digest) => digest?.sha256)).toEqual([
        ...bodies.slice(0, 2).map((body) => createHash('sha256').update(body).digest('hex')),
        undefined,
        ...bodies.slice(2).map((body) => createHash('sha256').update(body).digest('hex')),
      ]);
      expect(digests[4]?.size).toBe(bodies[3]!.length);
      expect(progress.at(-1)).toEqual([5, 5]);
    } finally {
      await pool.close();
    }
  });
});
