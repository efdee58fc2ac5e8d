// What verify reads of a campaign's files: only the columns it compares, as arrays. better-sqlite3 builds a row's
// object one column at a time, so the store's full rows (CampaignStore.files, twenty columns) of 100,000 files took
// 3 s, longer than hashing them; these ten, read raw, take a fraction of that.
import type { JobState } from '../../../src-shared/downloads/job-state';
import type { StateDatabase } from '../state/state-database';
import type { CampaignFileState } from './campaign-store';

/** A campaign's file as verify sees it, with the modification time it had when a verify last found it intact. */
export type FileToVerify = Pick<
  CampaignFileState,
  'relativePath' | 'targetPath' | 'filename' | 'expectedSha256' | 'jobId' | 'state' | 'sha256' | 'bytesWritten' | 'lastErrorKind'
> & { checkedMtimeMs: number | null };

type Row = [string, string, string, string | null, number | null, JobState | null, string | null, number | null, string | null, number | null];

/** Every file of the campaign with its job's state, SHA-256, size and last intact time, in observation order (as the store's files). */
export function filesToVerify(state: StateDatabase, campaignId: number): FileToVerify[] {
  return state.connection
    .prepare<[number], Row>(
      `SELECT f.relative_path, f.target_path, f.filename, f.expected_sha256, j.id, j.state, j.sha256, j.bytes_written, j.last_error_kind, j.checked_mtime_ms
       FROM campaign_files f LEFT JOIN jobs j ON j.target_path = f.target_path WHERE f.campaign_id = ? ORDER BY f.date_obs, f.relative_path`,
    )
    .raw()
    .all(campaignId)
    .map(([relativePath, targetPath, filename, expectedSha256, jobId, state, sha256, bytesWritten, lastErrorKind, checkedMtimeMs]) => ({
      relativePath,
      targetPath,
      filename,
      expectedSha256,
      jobId,
      state,
      sha256,
      bytesWritten: bytesWritten ?? 0,
      lastErrorKind,
      checkedMtimeMs,
    }));
}
