// Where a campaign's file stands, from its ledger job and the SHA-256 a shared file list gave, and the counts of a
// campaign built from those standings. The one rule behind every count of a campaign (`campaign list/show`, the
// sync's summary, verify, the app's card and its timeline), so no two of them disagree.
import type { JobState } from '../downloads/job-state';
import type { CampaignCounts } from './campaign-types';

/** The ledger's error kind for a finished file that verify found changed on disk (the next sync fetches it again). */
export const CHANGED_ON_DISK = 'changed-on-disk';
/** The ledger's error kind for a finished file that verify found gone from disk (the next sync fetches it again). */
export const MISSING_ON_DISK = 'missing-on-disk';

/** In the order the timeline stacks them (bottom first). */
export const FILE_STANDINGS = ['onDisk', 'differs', 'queued', 'failed', 'changed', 'missing', 'noLongerListed'] as const;
export type FileStanding = (typeof FILE_STANDINGS)[number];

export type StandingCounts = Record<FileStanding, number>;

export interface Standable {
  state: JobState | null;
  /** The SHA-256 of the file as downloaded. */
  sha256: string | null;
  /** The SHA-256 a shared file list gave, if any. */
  expectedSha256: string | null;
  /** Why the job failed, as the ledger names it: verify's findings (CHANGED_ON_DISK, MISSING_ON_DISK) among them. */
  lastErrorKind: string | null;
  /** The campaign's last whole listing did not name it: the archive no longer lists it (absent: it does). */
  noLongerListed?: boolean;
}

export function standingOf(file: Standable): FileStanding {
  // Whatever is on disk of it stays there, but sync can no longer fetch it: it is counted apart from the files it keeps.
  if (file.noLongerListed === true) return 'noLongerListed';
  switch (file.state) {
    case 'done':
      // A shared list's hash is the point of sharing a file set: a file that is not that one is kept apart.
      return file.expectedSha256 !== null && file.sha256 !== null && file.sha256 !== file.expectedSha256 ? 'differs' : 'onDisk';
    case 'queued':
    case 'active':
    case 'paused':
      return 'queued';
    case 'failed':
      // What verify found on disk is held in the ledger until a download changes it, so every count shows it.
      if (file.lastErrorKind === CHANGED_ON_DISK) return 'changed';
      if (file.lastErrorKind === MISSING_ON_DISK) return 'missing';
      return 'failed';
    default:
      return 'missing';
  }
}

export function emptyStandingCounts(): StandingCounts {
  return { onDisk: 0, differs: 0, queued: 0, failed: 0, changed: 0, missing: 0, noLongerListed: 0 };
}

/** How a file on disk came to be there, as the counts tell it: fetched, copied or linked from another folder, or there before. */
export type Arrival = 'downloaded' | 'reused' | 'alreadyThere';

/** What the counts need to know of a job beyond its standing: how it arrived and when it ended. */
export interface Arrivable {
  state: JobState | null;
  /** Set when a transfer started (or a reuse put the file in place); a file taken in as already there never had one. */
  startedAt: string | null;
  finishedAt: string | null;
  /** The folder the file was copied or linked from instead of fetched; null when fetched. */
  reusedFrom: string | null;
}

/**
 * How a file arrived, seen from the sync that started at `syncAt`: downloaded or reused by a transfer (or a reuse)
 * that ended after it started; otherwise it was already there.
 */
export function arrivalSince(file: Arrivable, syncAt: string | null): Arrival {
  const sinceSync = file.state === 'done' && syncAt !== null && file.startedAt !== null && file.finishedAt !== null && file.finishedAt >= syncAt;
  if (!sinceSync) return 'alreadyThere';
  return file.reusedFrom === null ? 'downloaded' : 'reused';
}

/** Files alike for the counts: one file, or a group of them (the store groups in SQL). */
export interface CountedFiles {
  standing: FileStanding;
  arrival: Arrival;
  files: number;
}

/**
 * A campaign's counts: the card's, `campaign show/list --json`'s, verify's and the sync summary's (its total is
 * these counts as the sync left them). `synced` is false for a campaign no sync has run for: what is not on disk
 * is then "not yet synced", not missing.
 */
export function campaignCounts(groups: Iterable<CountedFiles>, synced: boolean): CampaignCounts {
  const counts: CampaignCounts = { files: 0, ...emptyStandingCounts(), downloaded: 0, reused: 0, alreadyThere: 0, notSynced: 0 };
  for (const group of groups) {
    counts.files += group.files;
    counts[group.standing] += group.files;
    if (group.standing === 'onDisk') counts[group.arrival] += group.files;
  }
  if (!synced) {
    counts.notSynced = counts.missing;
    counts.missing = 0;
  }
  return counts;
}
