// What verify reads of a campaign's files: only the columns it compares, as arrays, a page at a time.
// better-sqlite3 builds a row's object one column at a time, so reading the store's full rows (CampaignStore.files,
// twenty columns) takes longer than hashing the files; these twelve, read raw, take a fraction of that, and
// in pages (by relative path, the table's key) the hashing of the first page starts while the next are read.
import type { JobState } from '../../../src-shared/downloads/job-state';
import type { StateDatabase } from '../state/state-database';
import type { StoredFileState } from './campaign-store';
import type { FileStanding } from '../../../src-shared/campaigns/file-standing';
import { noLongerListedSql, of, standingSql } from './file-standing';

/** A campaign's file as verify sees it, with the modification time it had when a verify last found it intact. */
export type FileToVerify = Pick<
  StoredFileState,
  | 'relativePath'
  | 'targetPath'
  | 'filename'
  | 'dateObs'
  | 'expectedSha256'
  | 'jobId'
  | 'state'
  | 'sha256'
  | 'bytesWritten'
  | 'lastErrorKind'
  | 'noLongerListed'
  | 'standing'
> & { checkedMtimeMs: number | null };

type Row = [
  string,
  string,
  string,
  string | null,
  string | null,
  number | null,
  JobState | null,
  string | null,
  number | null,
  string | null,
  number | null,
  number,
  FileStanding,
];

const PAGE = 2000;

/**
 * Every file of the campaign with its job's state, SHA-256, size and last intact time, a page at a time in the order
 * of their relative paths; the event loop runs between pages (the hashing threads' answers come in).
 */
export async function eachPageToVerify(state: StateDatabase, campaignId: number, visit: (page: FileToVerify[]) => void): Promise<void> {
  const read = state.connection
    .prepare<[number, string, number], Row>(
      `SELECT f.relative_path, f.target_path, f.filename, f.date_obs, f.expected_sha256, j.id, j.state, j.sha256, j.bytes_written, j.last_error_kind,
         j.checked_mtime_ms, ${noLongerListedSql('c.listed_whole_at')}, ${standingSql(of('f'), of('j'), 'c.listed_whole_at')}
       FROM campaign_files f JOIN campaigns c ON c.id = f.campaign_id LEFT JOIN jobs j ON j.target_path = f.target_path
       WHERE f.campaign_id = ? AND f.relative_path > ? ORDER BY f.relative_path LIMIT ?`,
    )
    .raw();
  for (let after = ''; ;) {
    const page = read.all(campaignId, after, PAGE).map(toVerify);
    if (page.length === 0) return;
    visit(page);
    after = page[page.length - 1]!.relativePath;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * How many files the campaign has: the most a verify hashes, from the campaign's own index (those downloaded
 * would take a look-up of every file's job before any hashing could start).
 */
export function fileCount(state: StateDatabase, campaignId: number): number {
  return state.connection.prepare<[number], { files: number }>('SELECT COUNT(*) AS files FROM campaign_files WHERE campaign_id = ?').get(campaignId)!.files;
}

/** In the order the store lists a campaign's files (CampaignStore.files): by observation time, then by path. */
export function inObservationOrder(a: Pick<FileToVerify, 'dateObs' | 'relativePath'>, b: Pick<FileToVerify, 'dateObs' | 'relativePath'>): number {
  // SQLite sorts NULL first and text by its bytes; the archive's times and paths are ASCII, where < agrees.
  if (a.dateObs !== b.dateObs) return a.dateObs === null ? -1 : b.dateObs === null ? 1 : a.dateObs < b.dateObs ? -1 : 1;
  return a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0;
}

function toVerify([
  relativePath,
  targetPath,
  filename,
  dateObs,
  expectedSha256,
  jobId,
  state,
  sha256,
  bytesWritten,
  lastErrorKind,
  checkedMtimeMs,
  noLongerListed,
  standing,
]: Row): FileToVerify {
  return {
    relativePath,
    targetPath,
    filename,
    dateObs,
    expectedSha256,
    jobId,
    state,
    sha256,
    bytesWritten: bytesWritten ?? 0,
    lastErrorKind,
    checkedMtimeMs,
    noLongerListed: noLongerListed === 1,
    standing,
  };
}
