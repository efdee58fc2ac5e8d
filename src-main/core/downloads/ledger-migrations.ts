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
  // 2: observing campaigns, beside the jobs their files become. A campaign's files are every file its queries ever
  // listed (or its shared file list named), each with the path it has in the campaign's folder; its state on disk
  // is the state of the job with that target path.
  `CREATE TABLE campaigns (
     id              INTEGER PRIMARY KEY,
     name            TEXT    NOT NULL UNIQUE COLLATE NOCASE,
     folder          TEXT    NOT NULL,
     layout          TEXT    NOT NULL DEFAULT '',
     auto_sync_hours INTEGER,
     created_at      TEXT    NOT NULL,
     last_sync_at    TEXT,
     last_sync       TEXT
   );
   CREATE TABLE campaign_queries (
     id          INTEGER PRIMARY KEY,
     campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
     position    INTEGER NOT NULL,
     instrument  TEXT    NOT NULL,
     product     TEXT    NOT NULL,
     filters     TEXT    NOT NULL
   );
   CREATE TABLE campaign_files (
     campaign_id     INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
     relative_path   TEXT    NOT NULL,
     target_path     TEXT    NOT NULL,
     filename        TEXT    NOT NULL,
     url             TEXT    NOT NULL,
     instrument      TEXT    NOT NULL,
     product         TEXT    NOT NULL,
     date_obs        TEXT,
     wave_region     TEXT,
     obs_plan        TEXT,
     filesize        INTEGER NOT NULL DEFAULT 0,
     expected_sha256 TEXT,
     first_seen_at   TEXT    NOT NULL,
     PRIMARY KEY (campaign_id, relative_path)
   );
   CREATE INDEX campaign_files_target ON campaign_files (target_path);`,
  // 3: one rule for when two campaign names are the same name (campaign-name.ts's campaignNameKey: Unicode case
  // folding and NFC; NOCASE folds ASCII only, so "Été" and "été" could both exist). The folded name is kept, unique.
  // SQL cannot fold it: the campaign store fills in the rows a version-2 ledger had (see CampaignStore).
  `ALTER TABLE campaigns ADD COLUMN name_key TEXT;
   CREATE UNIQUE INDEX campaigns_name_key ON campaigns (name_key);`,
];
