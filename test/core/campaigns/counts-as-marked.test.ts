// A verify that reads beside the program holding the state folder writes nothing; its counts take what it found as
// if recorded (CampaignStore.countsAsMarked). They must be exactly the counts that recording it gives, whatever
// else the campaign's files are: fetched or taken in, differing from a shared list, queued, failed, never synced.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kcorFileRecord, recordCampaignFiles } from '../../../scripts/bench/campaign-records';
import { CampaignStore } from '../../../src-main/core/campaigns/campaign-store';
import type { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import { CHANGED_ON_DISK, MISSING_ON_DISK } from '../../../src-shared/campaigns/file-standing';
import { openStateFile } from '../state/state-file';
import { KCOR_DAY } from './campaign-harness';

const ledgers: DownloadLedger[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

const SHA = 'a'.repeat(64);

/** A campaign of files of every standing; the ids of its done jobs by how they came. */
function campaignOfEveryKind(syncedAt: string | null) {
  const { ledger, state } = openStateFile(':memory:');
  ledgers.push(ledger);
  const store = new CampaignStore(state);
  const campaign = store.create({ name: 'season', folder: '/data/season', layout: '', queries: [KCOR_DAY], autoSyncHours: null });
  const file = (name: string, expectedSha256: string | null = null) => ({ ...kcorFileRecord(path.join('/data/season', name), 10), expectedSha256 });
  const [fetched, takenIn, differing, untouched, , failed] = recordCampaignFiles(store, ledger, campaign.id, [
    file('fetched.fts'),
    file('taken-in.fts'),
    file('differing.fts', 'b'.repeat(64)),
    file('untouched.fts'),
    file('queued.fts'),
    file('failed.fts'),
  ]);
  store.recordFiles(campaign.id, [file('no-job.fts')]);
  if (syncedAt !== null) state.connection.prepare('UPDATE campaigns SET last_sync_at = ? WHERE id = ?').run(syncedAt, campaign.id);
  ledger.markReused(fetched!, { sha256: SHA, bytesWritten: 10, from: '/elsewhere' });
  for (const id of [takenIn!, differing!, untouched!]) ledger.markDone(id, { sha256: SHA, bytesReceived: 10, bytesWritten: 10 });
  ledger.markFailed(failed!, 'http-500', 'The server failed.');
  return { ledger, store, id: campaign.id, done: { fetched: fetched!, takenIn: takenIn!, differing: differing!, untouched: untouched! } };
}

describe('the counts of findings not recorded', () => {
  for (const syncedAt of [null, '2000-01-01T00:00:00.000Z']) {
    it(`are those recording them gives (${syncedAt === null ? 'never synced' : 'synced'})`, () => {
      const { ledger, store, id, done } = campaignOfEveryKind(syncedAt);
      const marks = new Map([
        [done.fetched, MISSING_ON_DISK],
        [done.takenIn, CHANGED_ON_DISK],
        [done.differing, MISSING_ON_DISK],
      ]);
      const before = store.counts(id);
      expect(store.countsAsMarked(id, new Map())).toEqual(before);
      const asMarked = store.countsAsMarked(id, marks);
      // Written nowhere.
      expect(store.counts(id)).toEqual(before);

      for (const [jobId, kind] of marks) ledger.markFailed(jobId, kind, 'found by verify');
      expect(asMarked).toEqual(store.counts(id));
      expect(asMarked).toMatchObject({ files: 7, onDisk: 1, differs: 0, queued: 1, failed: 1, changed: 1 });
    });
  }
});
