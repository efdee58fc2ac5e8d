// The downloads' tables in the state folder's database, as migrations numbered in the one sequence every domain
// shares (state-migrations.ts): an older ledger is brought up to date on open, a newer one is refused.
import type { StateTables } from '../state/state-migrations';

export const DOWNLOAD_TABLES: StateTables = {
  domain: 'downloads',
  migrations: [
    // 1: one row per file the user asked for.
    {
      version: 1,
      sql: `CREATE TABLE jobs (
     id              INTEGER PRIMARY KEY,
     url             TEXT    NOT NULL,
     instrument      TEXT    NOT NULL,
     product         TEXT    NOT NULL,
     date_obs        TEXT,
     filename        TEXT    NOT NULL,
     folder          TEXT    NOT NULL,
     target_path     TEXT    NOT NULL UNIQUE,
     state           TEXT    NOT NULL CHECK (state IN ('queued', 'active', 'paused', 'done', 'failed', 'cancelled')),
     priority        INTEGER NOT NULL DEFAULT 0,
     attempts        INTEGER NOT NULL DEFAULT 0,
     last_error      TEXT,
     last_error_kind TEXT,
     expected_size   INTEGER NOT NULL DEFAULT 0,
     bytes_received  INTEGER NOT NULL DEFAULT 0,
     bytes_written   INTEGER NOT NULL DEFAULT 0,
     sha256          TEXT,
     temp_name       TEXT,
     batch_id        TEXT,
     cleared         INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER,
     created_at      TEXT    NOT NULL,
     updated_at      TEXT    NOT NULL,
     started_at      TEXT,
     finished_at     TEXT
   );
   CREATE INDEX jobs_runnable ON jobs (state, priority, id);
   CREATE INDEX jobs_batch ON jobs (batch_id, state);
   CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
    },
    // 4: where a job keeps the beginning of its body for resuming (resume-file.ts), and the version of the file it is
    // the beginning of; resume_bytes says how much was kept when the last attempt stopped, for the queue's rows.
    {
      version: 4,
      sql: `ALTER TABLE jobs ADD COLUMN resume_name TEXT;
   ALTER TABLE jobs ADD COLUMN resume_validator TEXT;
   ALTER TABLE jobs ADD COLUMN resume_bytes INTEGER NOT NULL DEFAULT 0;`,
    },
    // 5: the modification time a finished file had when it was last hashed and found intact, so that a quick verify
    // can trust a file whose size and time are still those and hash only the others. Null: never checked that way.
    {
      version: 5,
      sql: `ALTER TABLE jobs ADD COLUMN checked_mtime_ms REAL;`,
    },
    // 6: finished files by address and by name, so a listing finds the copies it can reuse (reuse-finder.ts) with
    // one query per chunk; only finished rows are indexed, so queuing a million files does not pay for it.
    {
      version: 6,
      sql: `CREATE INDEX jobs_done_url ON jobs (url) WHERE state = 'done';
   CREATE INDEX jobs_done_filename ON jobs (filename) WHERE state = 'done';`,
    },
    // 8: the Downloads screen's finished and failed files newest first (job-pages.ts reads its default order group by
    // group), so a page of a million-job list is read from an index, not by sorting the table; and the cleared jobs
    // by state, so the list's counts are every job by state (jobs_runnable) less those, never a read of the table.
    // Only finished, failed and cleared rows are indexed, so queuing a million files does not pay for it (an index
    // over every row would be updated by every insert). The expression is the query's own, word for word,
    // as SQLite needs.
    {
      version: 8,
      sql: `CREATE INDEX jobs_done_ended ON jobs (cleared, COALESCE(finished_at, updated_at) DESC, priority) WHERE state = 'done';
   CREATE INDEX jobs_failed_ended ON jobs (cleared, COALESCE(finished_at, updated_at) DESC, priority) WHERE state = 'failed';
   CREATE INDEX jobs_cleared ON jobs (state) WHERE cleared = 1;`,
    },
    // 11: the modification time a finished file had when it was put in place (downloaded, taken in, reused), so that
    // a sync's quick check (quick-check.ts) compares size and time with what was written. Null: not recorded (jobs
    // finished before this, or after a crash); the next quick check records the time it finds then.
    {
      version: 11,
      sql: `ALTER TABLE jobs ADD COLUMN written_mtime_ms REAL;`,
    },
    // 13: the folder a finished file was copied or hard-linked from instead of fetched (reuse-finder.ts), so every
    // count and row can call it reused, and say from where; null for a file fetched or taken in as already there.
    {
      version: 13,
      sql: `ALTER TABLE jobs ADD COLUMN reused_from TEXT;`,
    },
  ],
};
