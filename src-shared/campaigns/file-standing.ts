// Where a campaign's file can stand, and the counts of a campaign built from how many stand where. The rule that
// says where a file stands (from its ledger job and the SHA-256 a shared file list gave) is SQL, in the main
// process's src-main/core/campaigns/file-standing.ts: the counts are kept by the state database as files change.
// Every count of a campaign (`campaign list/show`, the sync's summary, verify, the app's card and its timeline) comes
// through campaignCounts, so no two of them disagree.
import type { CampaignCounts } from './campaign-types';

/** The ledger's error kind for a finished file that verify found changed on disk (the next sync fetches it again). */
export const CHANGED_ON_DISK = 'changed-on-disk';
/** The ledger's error kind for a finished file that verify found gone from disk (the next sync fetches it again). */
export const MISSING_ON_DISK = 'missing-on-disk';

/** In the order the timeline stacks them (bottom first). */
export const FILE_STANDINGS = ['onDisk', 'differs', 'queued', 'failed', 'changed', 'missing', 'noLongerListed'] as const;
export type FileStanding = (typeof FILE_STANDINGS)[number];

export type StandingCounts = Record<FileStanding, number>;

export function emptyStandingCounts(): StandingCounts {
  return { onDisk: 0, differs: 0, queued: 0, failed: 0, changed: 0, missing: 0, noLongerListed: 0 };
}

/** How a file on disk came to be there, as the counts tell it: fetched, copied or linked from another folder, or there before. */
export type Arrival = 'downloaded' | 'reused' | 'alreadyThere';

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
