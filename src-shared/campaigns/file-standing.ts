// Where a campaign's file stands, from its ledger job and the SHA-256 a shared file list gave. The one rule behind
// every count of a campaign (`campaign list`, the sync's report, verify, the app's card and its timeline), so no
// two of them disagree.
import type { JobState } from '../downloads/job-state';

/** In the order the timeline stacks them (bottom first). */
export const FILE_STANDINGS = ['onDisk', 'differs', 'queued', 'failed', 'missing'] as const;
export type FileStanding = (typeof FILE_STANDINGS)[number];

export type StandingCounts = Record<FileStanding, number>;

export interface Standable {
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
