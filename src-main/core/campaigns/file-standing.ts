// A campaign's counts grouped in SQL, by the one rule of src-shared/campaigns/file-standing.ts.
import type { CampaignCounts } from '../../../src-shared/campaigns/campaign-types';
import type { JobState } from '../../../src-shared/downloads/job-state';
import { campaignCounts, fetchedSince, standingOf } from '../../../src-shared/campaigns/file-standing';

/**
 * Files grouped by what standingOf and fetchedSince read of them: their job's state, which of the two hashes they
 * have and whether those are equal, why the job failed, and whether a transfer fetched it after the last sync
 * started. The store counts a campaign's files this way, grouped in SQL (a 100,000-file campaign in a few groups,
 * not 100,000 rows), and the rules stay in the shared functions.
 */
export interface StandingGroup {
  state: JobState | null;
  hasSha256: number | boolean;
  hasExpectedSha256: number | boolean;
  sameSha256: number | boolean;
  lastErrorKind: string | null;
  /** A transfer fetched it (it was not taken in as already there). */
  fetched: number | boolean;
  /** Its job ended after the last sync started. */
  finishedSinceSync: number | boolean;
  files: number;
}

export function countStandingGroups(groups: Iterable<StandingGroup>, lastSyncAt: string | null): CampaignCounts {
  const counted = [...groups].map((group) => {
    // A file standing for its group: hashes that are equal when the group's are, different when not; times that
    // are after the sync's start when the group's are.
    const sha256 = group.hasSha256 ? 'a' : null;
    const expectedSha256 = group.hasExpectedSha256 ? (group.sameSha256 ? sha256 : 'b') : null;
    const finishedAt = group.finishedSinceSync ? lastSyncAt : '';
    const file = { state: group.state, sha256, expectedSha256, lastErrorKind: group.lastErrorKind, startedAt: group.fetched ? '' : null, finishedAt };
    return { standing: standingOf(file), fetchedSinceSync: fetchedSince(file, lastSyncAt), files: group.files };
  });
  return campaignCounts(counted, lastSyncAt !== null);
}
