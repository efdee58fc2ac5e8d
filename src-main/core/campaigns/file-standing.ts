// Where a campaign's file stands, from its ledger job and the SHA-256 a shared file list gave. The one rule behind
// every count of a campaign (`campaign list`, the sync's report, the app's card), so no two of them disagree.
import type { JobState } from '../../../src-shared/downloads/job-state';

export type FileStanding = 'onDisk' | 'differs' | 'queued' | 'failed' | 'missing';

export type StandingCounts = Record<FileStanding, number>;

interface Standable {
  state: JobState | null;
  /** The SHA-256 of the file as downloaded. */
  sha256: string | null;
  /** The SHA-256 a shared file list gave, if any. */
  expectedSha256: string | null;
}

export function standingOf(file: Standable): FileStanding {
  switch (file.state) {
    case 'done':
      // A shared list's hash is the point of sharing a file set: a file that is not that one is kept apart.
      return file.expectedSha256 !== null && file.sha256 !== null && file.sha256 !== file.expectedSha256 ? 'differs' : 'onDisk';
    case 'queued':
    case 'active':
    case 'paused':
      return 'queued';
    case 'failed':
      return 'failed';
    default:
      return 'missing';
  }
}

export function emptyStandingCounts(): StandingCounts {
  return { onDisk: 0, differs: 0, queued: 0, failed: 0, missing: 0 };
}

/**
 * Files grouped by what standingOf reads of them: their job's state, which of the two hashes they have, and
 * whether those are equal. The store counts a campaign's files this way, grouped in SQL (a 100,000-file campaign
 * in a few groups, not 100,000 rows), and the rule stays here.
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
