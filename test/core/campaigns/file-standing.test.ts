// Where a campaign's file stands: one rule (file-standing.ts) for the store's counts, grouped in SQL, and for the
// sync's report, file by file; a file that differs from a shared list's SHA-256 is counted apart from those on disk.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignStore, type CampaignFileRecord } from '../../../src-main/core/campaigns/campaign-store';
import { CHANGED_ON_DISK, MISSING_ON_DISK, emptyStandingCounts, standingOf } from '../../../src-shared/campaigns/file-standing';
import { JOB_STATES, type DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import type { StateDatabase } from '../../../src-main/core/state/state-database';
import { temporaryFolder } from '../../helpers/fixtures';
import { openStateFile } from '../state/state-file';

const [SHARED, OTHER] = ['a'.repeat(64), 'b'.repeat(64)];

let ledger: DownloadLedger;
let state: StateDatabase;
beforeAll(async () => {
  ({ ledger, state } = openStateFile(path.join(await temporaryFolder(), 'ledger.sqlite')));
});
afterAll(() => ledger.close());

describe('a campaign file standing', () => {
  it('is on disk when done and the shared SHA-256 (if any) is its own, differs when done with another, else as its job', () => {
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
  });

  it('is counted the same by the store (grouped in SQL) as file by file, for every state and every pair of hashes', () => {
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
    for (const file of store.files(campaign.id)) fileByFile[standingOf(file)] += 1;
    expect(fileByFile).toEqual({ onDisk: 3, differs: 1, queued: 6, failed: 2, changed: 0, missing: 4 });
    // Never synced: what is not on disk is not yet synced rather than missing; nothing was fetched by a sync.
    expect(store.counts(campaign.id)).toEqual({ files: records.length, ...fileByFile, missing: 0, notSynced: 4, downloaded: 0, alreadyThere: 3 });
  });
});
