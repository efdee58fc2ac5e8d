// Where a campaign's file stands, and how it arrived, as SQL: the one rule behind every count of a campaign (the
// card, `campaign show/list`, the sync's summary, verify) and every file's standing in a list. The counts are kept
// by triggers (counting-triggers.ts) in the transactions that change a file or its job, so reading them is a few rows.
import { CHANGED_ON_DISK, MISSING_ON_DISK } from '../../../src-shared/campaigns/file-standing';

/** The SQL of a column, by its name: of a table alias (`f.state`), of a trigger's row (`NEW.state`), or a value. */
export type Columns = (column: string) => string;

/** Columns of a table alias or a trigger's row (`of('j')`, `of('NEW')`). */
export const of =
  (alias: string): Columns =>
  (column) =>
    `${alias}.${column}`;

/** A file without a job: every job column NULL. */
export const NO_JOB: Columns = () => 'NULL';

const sqlText = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * Whether a campaign file is one the campaign's last whole listing did not name, as SQL: `listedWholeAt` is the SQL
 * of when that listing was (null: never). A file that listing named was listed then or later; one never listed counts
 * from when it joined the set (a shared list's): a file that joined after the listing is not judged by it.
 */
export function noLongerListedSql(listedWholeAt: string, file: Columns = of('f')): string {
  return `COALESCE(${listedWholeAt} > COALESCE(${file('listed_at')}, ${file('first_seen_at')}), 0)`;
}

/**
 * A file's standing (FileStanding, src-shared/campaigns/file-standing.ts) from its row (`file`), its job's (`job`)
 * and when the campaign was last listed whole.
 */
export function standingSql(file: Columns, job: Columns, listedWholeAt: string): string {
  const state = job('state');
  const sha256 = job('sha256');
  const expected = file('expected_sha256');
  // A file the archive no longer lists is counted apart, whatever is on disk of it: sync can no longer fetch it.
  // A shared list's hash is the point of sharing a file set: a finished file that is not that one is kept apart.
  // What verify found on disk is held in the ledger (the job's error kind) until a download changes it.
  return `(CASE WHEN ${noLongerListedSql(listedWholeAt, file)} THEN 'noLongerListed'
    WHEN ${state} = 'done' THEN CASE WHEN ${expected} IS NOT NULL AND ${sha256} IS NOT NULL AND ${sha256} != ${expected} THEN 'differs' ELSE 'onDisk' END
    WHEN ${state} IN ('queued', 'active', 'paused') THEN 'queued'
    WHEN ${state} = 'failed' THEN CASE ${job('last_error_kind')} WHEN ${sqlText(CHANGED_ON_DISK)} THEN 'changed' WHEN ${sqlText(MISSING_ON_DISK)} THEN 'missing' ELSE 'failed' END
    ELSE 'missing' END)`;
}

/**
 * How a file arrived (Arrival), seen from the sync that started at `since` (SQL; null: none): downloaded or reused
 * by a transfer (or a reuse) that ended after it started; otherwise it was already there. Only a file on disk is
 * counted by how it arrived.
 */
export function arrivalSql(job: Columns, since: string): string {
  return `(CASE WHEN ${job('state')} = 'done' AND ${job('started_at')} IS NOT NULL AND ${job('finished_at')} >= ${since}
    THEN CASE WHEN ${job('reused_from')} IS NULL THEN 'downloaded' ELSE 'reused' END ELSE 'alreadyThere' END)`;
}

/** The job columns the standing and the arrival read: a change to any other leaves the counts as they are. */
export const COUNTED_JOB_COLUMNS = ['state', 'sha256', 'last_error_kind', 'started_at', 'finished_at', 'reused_from', 'target_path'] as const;
