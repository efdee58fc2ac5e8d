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
 * campaign's times are read by scalar subqueries: a join to campaigns here makes SQLite run the statement several
 * times slower.
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
 * with `c` its campaign) LEFT JOIN `j`, as the triggers count them; `where` and `from` narrow it.
 */
export function countingSelect(where: string, since = 'c.counted_since'): string {
  return `SELECT f.campaign_id, ${standingSql(f, j, 'c.listed_whole_at')} AS standing, ${arrivalSql(j, since)} AS arrival, COUNT(*) AS files
    FROM campaign_files f JOIN campaigns c ON c.id = f.campaign_id LEFT JOIN jobs j ON j.target_path = f.target_path
    WHERE ${where} GROUP BY 1, 2, 3`;
}

/** Adds the counts of `select` (rows of campaign_id, standing, arrival, files) to those kept. */
const addCounts = (select: string): string =>
  `INSERT INTO campaign_counts (campaign_id, standing, arrival, files) SELECT * FROM (${select}) WHERE true
   ON CONFLICT (campaign_id, standing, arrival) DO UPDATE SET files = files + excluded.files`;

/** New jobs (id above @after) at campaign files' places, each file as it stood without a job (`delta` -1) or with it (1). */
const withNewJobs = (job: Columns, delta: number): string =>
  `SELECT f.campaign_id, ${standingSql(f, job, 'c.listed_whole_at')} AS standing, ${arrivalSql(job, 'c.counted_since')} AS arrival, ${delta} AS files
   FROM jobs j CROSS JOIN campaign_files f ON f.target_path = j.target_path JOIN campaigns c ON c.id = f.campaign_id WHERE j.id > @after`;

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
 * Many files, or many jobs, inserted at a time (a sync's listing, the queue's intake): counted in one grouped
 * statement for the lot, where the insert triggers cost several microseconds a row (seconds at a million).
 */
export const COUNTED_BULK_INSERTS: readonly BulkInsertWatch[] = [
  bulkInsertCounted('campaign_files', addCounts(countingSelect('f.rowid > @after'))),
  bulkInsertCounted(
    'jobs',
    addCounts(`SELECT campaign_id, standing, arrival, SUM(files) FROM (${withNewJobs(NO_JOB, -1)} UNION ALL ${withNewJobs(j, 1)}) GROUP BY 1, 2, 3`),
  ),
];

const sameSql = (a: string, b: string): boolean => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

/**
 * Makes the counting triggers as the rule now defines them, and counts every campaign again, when those in the file
 * are not those (a new ledger, or one a version with another rule counted): at a million files, a second or two,
 * once. Returns whether it counted.
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
