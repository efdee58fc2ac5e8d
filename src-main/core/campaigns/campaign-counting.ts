// A campaign's counts, kept as it changes: campaign_counts (migration 16) holds how many of its files stand where
// (file-standing.ts) and arrived how, and SQLite triggers change it in the very statement that adds, removes or
// changes a file of the set or a job, whoever writes it. Reading a million-file campaign's counts is then a few
// rows, not a pass joining each file to its job. The triggers are made from the rule in file-standing.ts: each
// opening compares them with it and, when the rule changed, makes them again and counts every campaign once.
import type Database from 'better-sqlite3';
import type { BulkInsertWatch } from '../state/state-migrations';
import { arrivalSql, COUNTED_JOB_COLUMNS, NO_JOB, noLongerListedSql, of, standingSql, type Columns } from './file-standing';

/** When the file's campaign was last listed whole, and since when it counts arrivals, as SQL for a trigger's row. */
const listedWholeOf = (file: Columns): string => `(SELECT listed_whole_at FROM campaigns WHERE id = ${file('campaign_id')})`;
const countedSinceOf = (file: Columns): string => `(SELECT counted_since FROM campaigns WHERE id = ${file('campaign_id')})`;

/**
 * Adds `delta` to the counts of the files `from … where` selects, each standing as `file` with `job` says. The
 * campaign's times are read by scalar subqueries: SQLite runs a join to campaigns here much slower.
 */
function bump(delta: 1 | -1, file: Columns, job: Columns, from: string, where: string): string {
  return `INSERT INTO campaign_counts (campaign_id, standing, arrival, files)
    SELECT ${file('campaign_id')}, ${standingSql(file, job, listedWholeOf(file))}, ${arrivalSql(job, countedSinceOf(file))}, ${delta}
    FROM ${from} WHERE ${where}
    ON CONFLICT (campaign_id, standing, arrival) DO UPDATE SET files = files + excluded.files;`;
}

const f = of('f');
const j = of('j');
const jobAt = (file: string): string => `(SELECT 1) LEFT JOIN jobs j ON j.target_path = ${file}.target_path`;
const anyChanged = (columns: readonly string[]): string => columns.map((column) => `OLD.${column} IS NOT NEW.${column}`).join(' OR ');

/** Inserts of many rows at a time hold the insert triggers (COUNTED_BULK_INSERTS), and count the rows after. */
const NOT_HELD = 'NOT EXISTS (SELECT 1 FROM campaign_counting_held)';

/** The triggers, by name: their SQL is what sqlite_master keeps, compared at each opening. */
export const COUNTING_TRIGGERS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    // A new job: its campaign files had none. A job's target path is unique, so no other job was theirs.
    campaign_count_job_insert: `AFTER INSERT ON jobs WHEN ${NOT_HELD} BEGIN
      ${bump(-1, f, NO_JOB, 'campaign_files f', 'f.target_path = NEW.target_path')}
      ${bump(1, f, of('NEW'), 'campaign_files f', 'f.target_path = NEW.target_path')}
    END`,
    campaign_count_job_delete: `AFTER DELETE ON jobs BEGIN
      ${bump(-1, f, of('OLD'), 'campaign_files f', 'f.target_path = OLD.target_path')}
      ${bump(1, f, NO_JOB, 'campaign_files f', 'f.target_path = OLD.target_path')}
    END`,
    // A job that moves to another path leaves the files of its old one without a job and gives the new one's theirs.
    campaign_count_job_update: `AFTER UPDATE OF ${COUNTED_JOB_COLUMNS.join(', ')} ON jobs WHEN ${anyChanged(COUNTED_JOB_COLUMNS)} BEGIN
      ${bump(-1, f, of('OLD'), 'campaign_files f', 'f.target_path = OLD.target_path')}
      ${bump(1, f, of('NEW'), 'campaign_files f', 'f.target_path = NEW.target_path')}
      ${bump(1, f, NO_JOB, 'campaign_files f', 'OLD.target_path IS NOT NEW.target_path AND f.target_path = OLD.target_path')}
      ${bump(-1, f, NO_JOB, 'campaign_files f', 'OLD.target_path IS NOT NEW.target_path AND f.target_path = NEW.target_path')}
    END`,
    campaign_count_file_insert: `AFTER INSERT ON campaign_files WHEN ${NOT_HELD} BEGIN
      ${bump(1, of('NEW'), j, jobAt('NEW'), 'true')}
    END`,
    // A campaign's files deleted with it are not counted down: its counts go with it (CampaignStore.remove).
    campaign_count_file_delete: `AFTER DELETE ON campaign_files WHEN EXISTS (SELECT 1 FROM campaigns WHERE id = OLD.campaign_id) BEGIN
      ${bump(-1, of('OLD'), j, jobAt('OLD'), 'true')}
    END`,
    // Relisting marks a file listed (listed_at): that changes its standing only when it was no longer listed.
    campaign_count_file_update: `AFTER UPDATE OF campaign_id, target_path, expected_sha256, listed_at, first_seen_at ON campaign_files
      WHEN ${anyChanged(['campaign_id', 'target_path', 'expected_sha256'])}
        OR ${noLongerListedSql(listedWholeOf(of('OLD')), of('OLD'))} IS NOT ${noLongerListedSql(listedWholeOf(of('NEW')), of('NEW'))} BEGIN
      ${bump(-1, of('OLD'), j, jobAt('OLD'), 'true')}
      ${bump(1, of('NEW'), j, jobAt('NEW'), 'true')}
    END`,
  }).map(([name, body]) => [name, `CREATE TRIGGER ${name} ${body}`]),
);

/**
 * SQL counting files by standing and arrival (rows of campaign_id, standing, arrival, files) over `f` (campaign_files,
 * with `c` its campaign) LEFT JOIN `j`, as the triggers count them; `where` narrows it, and `anyJobs` false (SQL)
 * says no file has a job (none is looked up). The files are read in rowid
 * order (NOT INDEXED): an index would hand SQLite the campaigns in order, and it then walks the whole index for a
 * chunk's new rows (`f.rowid > @after`) instead of reading just those.
 */
export function countingSelect(where: string, since = 'c.counted_since', anyJobs = 'true'): string {
  return `SELECT f.campaign_id, ${standingSql(f, j, 'c.listed_whole_at')} AS standing, ${arrivalSql(j, since)} AS arrival, COUNT(*) AS files
    FROM campaign_files f NOT INDEXED JOIN campaigns c ON c.id = f.campaign_id LEFT JOIN jobs j ON ${anyJobs} AND j.target_path = f.target_path
    WHERE ${where} GROUP BY 1, 2, 3`;
}

/** Adds the counts of `select` (rows of campaign_id, standing, arrival, files) to those kept. */
const addCounts = (select: string): string =>
  `INSERT INTO campaign_counts (campaign_id, standing, arrival, files) SELECT * FROM (${select}) WHERE true
   ON CONFLICT (campaign_id, standing, arrival) DO UPDATE SET files = files + excluded.files`;

/**
 * New jobs (id above @after) at campaign files' places, grouped by how each file stood without a job and stands with
 * it: read once, then counted down and up. Only when the set has files between the first and last new job's places
 * (one look into its index), so that a queue's jobs of no campaign are never looked up one by one.
 */
const NEW_JOBS_COUNTED = `WITH new AS MATERIALIZED (
    SELECT f.campaign_id, ${standingSql(f, NO_JOB, 'c.listed_whole_at')} AS was, ${arrivalSql(NO_JOB, 'c.counted_since')} AS arrived,
      ${standingSql(f, j, 'c.listed_whole_at')} AS standing, ${arrivalSql(j, 'c.counted_since')} AS arrival, COUNT(*) AS files
    FROM jobs j CROSS JOIN campaign_files f ON f.target_path = j.target_path CROSS JOIN campaigns c ON c.id = f.campaign_id
    WHERE j.id > @after AND EXISTS (SELECT 1 FROM campaign_files WHERE target_path BETWEEN
      (SELECT MIN(target_path) FROM jobs NOT INDEXED WHERE id > @after) AND (SELECT MAX(target_path) FROM jobs NOT INDEXED WHERE id > @after))
    GROUP BY 1, 2, 3, 4, 5)
  SELECT campaign_id, standing, arrival, SUM(files) FROM (SELECT campaign_id, was AS standing, arrived AS arrival, -files AS files FROM new
    UNION ALL SELECT campaign_id, standing, arrival, files FROM new) GROUP BY 1, 2, 3`;

/**
 * New files (rowid above @after), each with its job: looked up only when the ledger has jobs between the first and
 * last new file's places (one look into its index; a first sync's files have none yet).
 */
const NEW_FILES_COUNTED = countingSelect(
  'f.rowid > @after',
  'c.counted_since',
  `EXISTS (SELECT 1 FROM jobs WHERE target_path BETWEEN (SELECT MIN(target_path) FROM campaign_files NOT INDEXED WHERE rowid > @after)
     AND (SELECT MAX(target_path) FROM campaign_files NOT INDEXED WHERE rowid > @after))`,
);

function bulkInsertCounted(table: string, countInserted: string): BulkInsertWatch {
  return {
    table,
    hold: (db) => void db.prepare('INSERT INTO campaign_counting_held (held) VALUES (1)').run(),
    release: (db, afterRowid) => {
      db.prepare('DELETE FROM campaign_counting_held').run();
      db.prepare(countInserted).run({ after: afterRowid });
    },
  };
}

/**
 * Many files, or many jobs, inserted at a time (a sync's listing, the listing enqueuer): counted in one grouped
 * statement for the lot, where the insert triggers' cost per row adds up to seconds at a million.
 */
export const COUNTED_BULK_INSERTS: readonly BulkInsertWatch[] = [
  bulkInsertCounted('campaign_files', addCounts(NEW_FILES_COUNTED)),
  bulkInsertCounted('jobs', addCounts(NEW_JOBS_COUNTED)),
];

const sameSql = (a: string, b: string): boolean => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

/**
 * Makes the counting triggers as the rule now defines them, and counts every campaign again, when those in the file
 * are not those (a new ledger, or one a version with another rule counted): a wait at a million files, but once. Returns whether it counted.
 */
export function keepCountingCurrent(db: Database.Database): boolean {
  const stored = new Map(
    db
      .prepare<[], { name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'campaign_count_%'`)
      .all()
      .map((row) => [row.name, row.sql]),
  );
  const current = stored.size === COUNTING_TRIGGERS.size && [...COUNTING_TRIGGERS].every(([name, sql]) => sameSql(stored.get(name) ?? '', sql));
  if (current) return false;
  db.transaction(() => {
    for (const name of stored.keys()) db.exec(`DROP TRIGGER ${name}`);
    for (const sql of COUNTING_TRIGGERS.values()) db.exec(sql);
    db.exec('DELETE FROM campaign_counts');
    db.exec(`INSERT INTO campaign_counts (campaign_id, standing, arrival, files) ${countingSelect('true')}`);
  })();
  return true;
}
