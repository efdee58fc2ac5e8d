// Observing campaigns as the front ends see them: a named set of queries whose files are kept in one folder,
// with a folder layout, and what syncing and verifying found.
import type { ReusedFiles } from '../downloads/reused-files';
import type { FilterQuery } from '../filters/filter-rules';

/** One query of a campaign: a product and its filters, as checked by the shared filter rules. */
export interface CampaignQuery {
  instrument: string;
  product: string;
  /** Checked and normalised values; a query without an end date is open-ended (later syncs pick up new files). */
  filters: FilterQuery;
}

/** What a campaign is made of, as the user gives it. */
export interface CampaignDraft {
  name: string;
  /** Full path of the campaign's folder; the app defaults it to the download folder's sub-folder of that name. */
  folder?: string;
  /** Folder layout template ('' keeps every file in the folder itself), e.g. `{instrument}/{yyyy}/{mm}/{dd}`. */
  layout?: string;
  queries: CampaignQuery[];
  /** Sync every so many hours while the app is open; null for never. */
  autoSyncHours?: number | null;
}

export interface Campaign {
  name: string;
  folder: string;
  layout: string;
  queries: CampaignQuery[];
  autoSyncHours: number | null;
  createdAt: string;
  lastSyncAt: string | null;
}

/**
 * Where a campaign's files stand, from the download ledger (with what verify found on disk recorded there), counted
 * by campaignCounts (file-standing.ts): the card, `campaign show/list --json`, verify and the sync's summary all show
 * these numbers. onDisk + differs + queued + failed + changed + missing + notSynced + noLongerListed = files.
 */
export interface CampaignCounts {
  /** Files in the campaign's set (every file its queries listed, duplicates counted once). */
  files: number;
  /** Downloaded, and the file a shared file list named when it gave a SHA-256. */
  onDisk: number;
  /** Of onDisk: fetched since the last sync started (by it, or by a download since). */
  downloaded: number;
  /** Of onDisk: copied or hard-linked from a finished download in another folder since the last sync started, not fetched. */
  reused: number;
  /** Of onDisk: there before the last sync started, or taken in by it as already in the folder. */
  alreadyThere: number;
  /** Downloaded, but its SHA-256 is not the one the shared file list gave: kept apart from onDisk. */
  differs: number;
  /** Queued or downloading. */
  queued: number;
  failed: number;
  /** Found changed on disk by verify (another SHA-256 than when written): the next sync fetches it again. */
  changed: number;
  /** Neither on disk (as far as the ledger and the last verify know), nor queued, failed or changed: the next sync fetches them. */
  missing: number;
  /** Not on disk in a campaign never synced: what its first sync fetches (counted here instead of missing). */
  notSynced: number;
  /**
   * Not named by the campaign's last whole listing (a `--full` sync, or one with no settled window): the archive no
   * longer lists it. Counted here whatever is on disk of it (which stays), and never fetched again.
   */
  noLongerListed: number;
}

export interface CampaignOverview extends Campaign {
  counts: CampaignCounts;
  /** A sync of it is running now. */
  syncing: boolean;
  lastSync: SyncReport | null;
}

/**
 * A sync's numbers for one query or for the whole campaign: the campaign's counts (campaignCounts) over the query's
 * files, with what the listing held and what was new. The total is the campaign's counts as they stand, so it
 * agrees with the card: while the sync's files download, queued falls and downloaded rises.
 */
export interface SyncCounts extends Omit<CampaignCounts, 'files'> {
  /** Files the query's listing held (for the total: distinct files over all queries). */
  listed: number;
  /** Not seen by an earlier sync. */
  new: number;
}

export interface SyncReport {
  campaign: string;
  /** When the sync started (ISO 8601). */
  at: string;
  queries: (SyncCounts & { query: CampaignQuery })[];
  total: SyncCounts;
  /** Files listed by more than one query, kept once. */
  duplicates: number;
  /** Files refused (unsafe names, or layout places outside the folder), with why. */
  refused: { filename: string; reason: string }[];
  /**
   * Files the listing now places elsewhere in the layout (an obs-plan or date-obs that changed): moved there
   * within the folder, or, when the old copy was missing or changed (movedOnDisk false), fetched there.
   */
  moved: { filename: string; from: string; to: string; movedOnDisk: boolean }[];
  /** Files on disk whose SHA-256 differs from the one the shared file list gave (counted in `differs`). */
  differing: DifferingFile[];
  /** Files taken from a finished download in another folder instead of fetched (absent in reports of older versions). */
  reused?: ReusedFiles;
  /**
   * Finished files the sync's quick check found gone (missing) or not as downloaded (changed: another size or
   * modification time), and queued to be fetched again (absent in reports of older versions).
   */
  foundOnDisk?: { missing: number; changed: number };
}

/** A downloaded file that is not the one a shared file list named. */
export interface DifferingFile {
  /** Relative to the campaign's folder. */
  path: string;
  filename: string;
  /** What the shared file list gave. */
  expectedSha256: string;
  /** What the file on disk has. */
  sha256: string;
}

/**
 * `differs`: intact as downloaded, but not the file the shared file list named (another SHA-256). `refused`: not on
 * disk because sync refuses to fetch it (a path the system does not take, say), with the reason.
 */
export type VerifyProblem = 'missing' | 'changed' | 'unexpected' | 'failed' | 'differs' | 'refused';

/**
 * What verify found. Its findings (a file gone, a file changed) are recorded in the ledger first, and its counts are
 * then the campaign's counts (campaignCounts) as they stand: the card shows the same numbers until a sync or a
 * download changes the files again.
 */
export interface VerifyReport extends CampaignCounts {
  campaign: string;
  at: string;
  /** Files in the folder that are not in the campaign's set (not part of the campaign's counts). */
  unexpected: number;
  /** Of the missing (and not yet synced), those sync refuses (its path would be too long, say): syncing again does not fetch them. */
  refused: number;
  /** Each file that is not as it should be, relative to the campaign's folder; a refused one with why. */
  problems: { path: string; problem: VerifyProblem; reason?: string }[];
  /**
   * Set when verify read beside the program holding the state folder, which alone writes the ledger: how many files
   * it found missing or changed that the ledger does not say so of (the counts include them; the next sync there
   * does not know them).
   */
  notRecorded?: number;
}

export const CAMPAIGN_EXPORT_FORMATS = ['csv', 'json', 'campaign'] as const;
export type CampaignExportFormat = (typeof CAMPAIGN_EXPORT_FORMATS)[number];

export interface CampaignExport {
  /** A suggested file name, e.g. `eclipse-2024.csv`. */
  fileName: string;
  mediaType: string;
  text: string;
  /** Instruments used with their DOIs, ready to paste into a paper. */
  acknowledgement: string;
}

export type CampaignSyncPhase = 'listing' | 'checking' | 'queueing' | 'downloading' | 'done' | 'failed';

/** A verify hashing a campaign's files: how many are hashed of how many (events, at most ten a second, and the last). */
export interface CampaignVerifyProgress {
  campaign: string;
  done: number;
  total: number;
}

/** A sync on its way (events, at most a few a second). */
export interface CampaignSyncProgress {
  campaign: string;
  phase: CampaignSyncPhase;
  /** Entries listed so far over all queries. */
  listed: number;
  /** Set in the 'failed' phase. */
  message?: string;
}
