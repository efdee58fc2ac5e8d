// A campaign's counts grouped in SQL, by the one rule of src-shared/campaigns/file-standing.ts.
import type { JobState } from '../../../src-shared/downloads/job-state';
import { emptyStandingCounts, standingOf, type StandingCounts } from '../../../src-shared/campaigns/file-standing';

/**
 * Files grouped by what standingOf reads of them: their job's state, which of the two hashes they have, and
 * whether those are equal. The store counts a campaign's files this way, grouped in SQL (a 100,000-file campaign
 * in a few groups, not 100,000 rows), and the rule stays in standingOf.
 */
export interface StandingGroup {
  state: JobState | null;
  hasSha256: number | boolean;
  hasExpectedSha256: number | boolean;
  sameSha256: number | boolean;
  files: number;
}

export function countStandingGroups(groups: Iterable<StandingGroup>): StandingCounts {
  const counts = emptyStandingCounts();
  for (const group of groups) {
    // A file standing for its group: hashes that are equal when the group's are, different when not.
    const sha256 = group.hasSha256 ? 'a' : null;
    const expectedSha256 = group.hasExpectedSha256 ? (group.sameSha256 ? sha256 : 'b') : null;
    counts[standingOf({ state: group.state, sha256, expectedSha256 })] += group.files;
  }
  return counts;
}
