// Where a campaign's file stands: one rule (src-main/core/campaigns/file-standing.ts, SQL) for the counts the state
// database keeps and for each file the store reads; checked here against the rule as the README states it, file by
// file. A file that differs from a shared list's SHA-256 is counted apart from those on disk.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignStore, type CampaignFileRecord } from '../../../src-main/core/campaigns/campaign-store';
import {
  CHANGED_ON_DISK,
  MISSING_ON_DISK,
  campaignCounts,
  emptyStandingCounts,
  type Arrival,
  type FileStanding,
} from '../../../src-shared/campaigns/file-standing';
import type { JobState } from '../../../src-shared/downloads/job-state';
import { JOB_STATES, type DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import type { StateDatabase } from '../../../src-main/core/state/state-database';
import { temporaryFolder } from '../../helpers/fixtures';
import { openStateFile } from '../state/state-file';

const [SHARED, OTHER] = ['a'.repeat(64), 'b'.repeat(64)];

interface Facts {
  state: JobState | null;
  sha256: string | null;
  expectedSha256: string | null;
  lastErrorKind: string | null;
  noLongerListed?: boolean;
}

/** The rule, stated apart from the store's SQL: where a file with these facts stands. */
function standingOf(file: Facts): FileStanding {
  if (file.noLongerListed === true) return 'noLongerListed';
  switch (file.state) {
    case 'done':
      return file.expectedSha256 !== null && file.sha256 !== null && file.sha256 !== file.expectedSha256 ? 'differs' : 'onDisk';
    case 'queued':
    case 'active':
    case 'paused':
      return 'queued';
    case 'failed':
      return file.lastErrorKind === CHANGED_ON_DISK ? 'changed' : file.lastErrorKind === MISSING_ON_DISK ? 'missing' : 'failed';
    default:
      return 'missing';
  }
}

/** How it arrived, seen from the sync started at `syncAt`: fetched (or reused) by a transfer that ended since, or there before. */
function arrivalSince(
  file: { state: JobState | null; startedAt: string | null; finishedAt: string | null; reusedFrom: string | null },
  syncAt: string | null,
): Arrival {
  const sinceSync = file.state === 'done' && syncAt !== null && file.startedAt !== null && file.finishedAt !== null && file.finishedAt >= syncAt;
  if (!sinceSync) return 'alreadyThere';
  return file.reusedFrom === null ? 'downloaded' : 'reused';
}

let ledger: DownloadLedger;
let state: StateDatabase;
beforeAll(async () => {
  ({ ledger, state } = openStateFile(path.join(await temporaryFolder(), 'ledger.sqlite')));
});
afterAll(() => ledger.close());

describe('a campaign file standing', () => {
  it('is on disk when done and the shared SHA-256 (if any) is its own, differs when done with another, else as its job (the rule stated here)', () => {
    expect(standingOf({ state: 'done', sha256: SHARED, expectedSha256: null, lastErrorKind: null })).toBe('onDisk');
    expect(standingOf({ state: 'done', sha256: SHARED, expectedSha256: SHARED, lastErrorKind: null })).toBe('onDisk');
    expect(standingOf({ state: 'done', sha256: OTHER, expectedSha256: SHARED, lastErrorKind: null })).toBe('differs');
    expect(standingOf({ state: 'active', sha256: null, expectedSha256: SHARED, lastErrorKind: null })).toBe('queued');
    expect(standingOf({ state: 'failed', sha256: null, expectedSha256: SHARED, lastErrorKind: null })).toBe('failed');
    expect(standingOf({ state: 'cancelled', sha256: null, expectedSha256: null, lastErrorKind: null })).toBe('missing');
    expect(standingOf({ state: null, sha256: null, expectedSha256: SHARED, lastErrorKind: null })).toBe('missing');
    // What verify found on disk, held in the ledger until a download changes it.
    expect(standingOf({ state: 'failed', sha256: null, expectedSha256: null, lastErrorKind: CHANGED_ON_DISK })).toBe('changed');
    expect(standingOf({ state: 'failed', sha256: null, expectedSha256: null, lastErrorKind: MISSING_ON_DISK })).toBe('missing');
    // The archive no longer lists it: apart, whatever its job says.
    for (const state of [...JOB_STATES, null])
      expect(standingOf({ state, sha256: SHARED, expectedSha256: null, lastErrorKind: null, noLongerListed: true })).toBe('noLongerListed');
  });

  it('is counted the same by the store (kept in SQL) as file by file, for every state and every pair of hashes', () => {
    const store = new CampaignStore(state);
    const folder = '/data/standing';
    const campaign = store.create({ name: 'standing', folder, layout: '', queries: [{ instrument: 'kcor', product: 'pb', filters: {} }], autoSyncHours: null });
    const records: CampaignFileRecord[] = [];
    const jobs: { filename: string; state: (typeof JOB_STATES)[number] | null; sha256: string | null }[] = [];
    for (const state of [...JOB_STATES, null]) {
      for (const expectedSha256 of [null, SHARED]) {
        for (const sha256 of state === 'done' ? [SHARED, OTHER] : [null]) {
          const filename = `${state}-${expectedSha256 ? 'shared' : 'none'}-${sha256 === OTHER ? 'other' : 'same'}.fts`;
          records.push({
            relativePath: filename,
            targetPath: path.join(folder, filename),
            filename,
            url: 'u',
            instrument: 'kcor',
            product: 'pb',
            dateObs: null,
            waveRegion: null,
            obsPlan: null,
            filesize: 1,
            expectedSha256,
          });
          jobs.push({ filename, state, sha256 });
        }
      }
    }
    store.recordFiles(campaign.id, records);
    ledger.transaction(() => {
      for (const job of jobs) {
        if (job.state === null) continue;
        const [id] = ledger.insertMany([
          {
            url: 'u',
            instrument: 'kcor',
            product: 'pb',
            dateObs: null,
            filename: job.filename,
            folder,
            targetPath: path.join(folder, job.filename),
            expectedSize: 1,
            batchId: null,
            state: job.state,
          },
        ]);
        if (job.sha256) ledger.markDone(id!, { sha256: job.sha256, bytesReceived: 1, bytesWritten: 1 });
      }
    });
    const fileByFile = emptyStandingCounts();
    for (const file of store.files(campaign.id)) {
      expect(file.standing, file.filename).toBe(standingOf(file));
      fileByFile[file.standing] += 1;
    }
    expect(fileByFile).toEqual({ onDisk: 3, differs: 1, queued: 6, failed: 2, changed: 0, missing: 4, noLongerListed: 0 });
    // Never synced: what is not on disk is not yet synced rather than missing; nothing was fetched by a sync.
    expect(store.counts(campaign.id)).toEqual({ files: records.length, ...fileByFile, missing: 0, notSynced: 4, downloaded: 0, reused: 0, alreadyThere: 3 });
  });

  it('is counted exactly by the store for every job state, pair of hashes, failure kind and time, and by the queries that listed it', async () => {
    const store = new CampaignStore(state);
    const folder = '/data/every-standing';
    const queries = [0, 1].map(() => ({ instrument: 'kcor', product: 'pb', filters: {} }));
    const campaign = store.create({ name: 'every standing', folder, layout: '', queries, autoSyncHours: null });
    const [before, syncAt, after] = ['2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z', '2025-01-03T00:00:00.000Z'];
    interface AllFacts {
      state: (typeof JOB_STATES)[number] | null;
      expectedSha256: string | null;
      sha256: string | null;
      lastErrorKind: string | null;
      startedAt: string | null;
      finishedAt: string | null;
      reusedFrom: string | null;
    }
    const facts: AllFacts[] = [];
    for (const state of [...JOB_STATES, null])
      for (const expectedSha256 of [null, SHARED])
        for (const sha256 of state === null ? [null] : [null, SHARED, OTHER])
          for (const lastErrorKind of state === null ? [null] : [null, CHANGED_ON_DISK, MISSING_ON_DISK, 'http'])
            for (const startedAt of state === null ? [null] : [null, before])
              for (const finishedAt of state === null ? [null] : [null, before, syncAt, after])
                for (const reusedFrom of state === null ? [null] : [null, '/data/elsewhere'])
                  facts.push({ state, expectedSha256, sha256, lastErrorKind, startedAt, finishedAt, reusedFrom });
    const records: CampaignFileRecord[] = facts.map((_fact, index) => {
      const filename = `f${index}.fts`;
      return { relativePath: filename, targetPath: path.join(folder, filename), filename, url: 'u', instrument: 'kcor', product: 'pb' } as CampaignFileRecord;
    });
    store.recordFiles(
      campaign.id,
      records.map((record, index) => ({
        ...record,
        dateObs: null,
        waveRegion: null,
        obsPlan: null,
        filesize: 1,
        expectedSha256: facts[index]!.expectedSha256,
      })),
    );
    const setJob = state.connection.prepare(
      'UPDATE jobs SET state = ?, sha256 = ?, last_error_kind = ?, started_at = ?, finished_at = ?, reused_from = ? WHERE target_path = ?',
    );
    // Listed by the sync at syncAt: by the first query (1 in 3), the second (1 in 3), both (1 in 6); the rest by an earlier sync.
    const listedBits = (index: number): number | null => [1, 2, 3, null, 1, 2][index % 6]!;
    // Counted first as never listed whole, then as listed whole at syncAt: those of the earlier sync are no longer listed.
    store.recordListedWhole(campaign.id, '2024-12-31T00:00:00.000Z');
    const setListed = state.connection.prepare('UPDATE campaign_files SET listed_at = ?, listed_by = ? WHERE campaign_id = ? AND relative_path = ?');
    ledger.transaction(() => {
      facts.forEach((fact, index) => {
        const record = records[index]!;
        const bits = listedBits(index);
        setListed.run(bits === null ? before : syncAt, bits ?? 1, campaign.id, record.relativePath);
        if (fact.state === null) return;
        ledger.insertMany([
          {
            url: 'u',
            instrument: 'kcor',
            product: 'pb',
            dateObs: null,
            filename: record.filename,
            folder,
            targetPath: record.targetPath,
            expectedSize: 1,
            batchId: null,
            state: 'queued',
          },
        ]);
        setJob.run(fact.state, fact.sha256, fact.lastErrorKind, fact.startedAt, fact.finishedAt, fact.reusedFrom, record.targetPath);
      });
    });
    const files = store.files(campaign.id);
    expect(files).toHaveLength(facts.length);
    const fileByFile = (chosen: typeof files, at: string | null) =>
      campaignCounts(
        chosen.map((file) => ({ standing: standingOf(file), arrival: arrivalSince(file, at), files: 1 })),
        at !== null,
      );
    const indexOf = (file: (typeof files)[number]): number => Number(file.filename.slice(1, -4));
    expect(store.counts(campaign.id, null)).toEqual(fileByFile(files, null));
    expect(store.counts(campaign.id, syncAt)).toEqual(fileByFile(files, syncAt));
    for (const file of files) expect(file.standing).toBe(standingOf(file));
    const counts = store.counts(campaign.id, syncAt);
    // Every standing is there, so a miscount of any of them shows.
    for (const standing of ['onDisk', 'differs', 'queued', 'failed', 'changed', 'missing', 'downloaded', 'reused', 'alreadyThere'] as const)
      expect(counts[standing], standing).toBeGreaterThan(0);
    expect(counts.noLongerListed).toBe(0);

    const listed = files.filter((file) => listedBits(indexOf(file)) !== null);
    const withBit = (bit: number) => listed.filter((file) => (listedBits(indexOf(file))! & bit) !== 0);
    const unlistedNotDone = files.filter((file) => listedBits(indexOf(file)) === null && file.state !== 'done').length;
    expect(unlistedNotDone).toBeGreaterThan(0);
    expect(store.syncCounts(campaign.id, syncAt, 2)).toEqual({
      total: fileByFile(files, syncAt),
      byQuery: [fileByFile(withBit(1), syncAt), fileByFile(withBit(2), syncAt)],
      listed: listed.length,
      duplicates: listed.filter((file) => listedBits(indexOf(file)) === 3).length,
      notDoneUnlisted: unlistedNotDone,
    });

    // The sync at syncAt listed the campaign whole: the files only an earlier sync listed are no longer listed,
    // counted apart (file by file as in SQL), and none of them is left to queue.
    store.recordListedWhole(campaign.id, syncAt);
    const nowFiles = store.files(campaign.id);
    expect(nowFiles.filter((file) => file.noLongerListed).map(indexOf)).toEqual(nowFiles.filter((file) => listedBits(indexOf(file)) === null).map(indexOf));
    expect(store.counts(campaign.id, syncAt)).toEqual(fileByFile(nowFiles, syncAt));
    for (const file of nowFiles) expect(file.standing).toBe(standingOf(file));
    // The counts from the sync at syncAt on, once its report is recorded: those the state database keeps.
    const report = store.syncCounts(campaign.id, syncAt, 2).total;
    store.recordSync(campaign.id, {
      campaign: 'every standing',
      at: syncAt,
      queries: [],
      total: { listed: 0, new: 0, ...report },
      duplicates: 0,
      refused: [],
      moved: [],
      differing: [],
    });
    expect(store.counts(campaign.id)).toEqual(fileByFile(nowFiles, syncAt));
    expect(store.counts(campaign.id, null)).toEqual(fileByFile(nowFiles, null));
    expect(store.counts(campaign.id, syncAt).noLongerListed).toBe(files.length - listed.length);
    expect(store.syncCounts(campaign.id, syncAt, 2)).toMatchObject({ total: fileByFile(nowFiles, syncAt), notDoneUnlisted: 0 });
    expect(store.filesNotDone(campaign.id, syncAt, '', 10_000)).toEqual([]);
  });
});
