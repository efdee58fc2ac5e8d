// The ledger's schema, as numbered migrations. PRAGMA user_version records how many have run, so an
// older ledger is brought up to date on open and a newer one (from a later release) is refused.

export const LEDGER_MIGRATIONS: readonly string[] = [
  // 1: one row per file the user asked for.
  `CREATE TABLE jobs (
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
];
