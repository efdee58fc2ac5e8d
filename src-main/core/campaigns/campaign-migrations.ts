// The campaigns' tables in the state folder's database, beside the downloads' jobs, as migrations numbered in the one
// sequence every domain shares (state-migrations.ts): 2 and 3, after the downloads' first, 7 (incremental sync), 9,
// 10, 12, 14, 15 and 16.
import type { StateMigration } from '../state/state-migrations';

export const CAMPAIGN_MIGRATIONS: readonly StateMigration[] = [
  // 2: observing campaigns, beside the jobs their files become. A campaign's files are every file its queries ever
  // listed (or its shared file list named), each with the path it has in the campaign's folder; its state on disk
  // is the state of the job with that target path.
  {
    version: 2,
    sql: `CREATE TABLE campaigns (
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
  },
  // 3: one rule for when two campaign names are the same name (campaign-name.ts's campaignNameKey: Unicode case
  // folding and NFC; NOCASE folds ASCII only, so "Été" and "été" could both exist). The folded name is kept, unique.
  // SQL cannot fold it: the campaign store fills in the rows a version-2 ledger had (see CampaignStore).
  {
    version: 3,
    sql: `ALTER TABLE campaigns ADD COLUMN name_key TEXT;
   CREATE UNIQUE INDEX campaigns_name_key ON campaigns (name_key);`,
  },
  // 7: incremental sync. A campaign remembers each window its queries were listed in (calendar months of a query's
  // span, campaign-windows.ts): when, whether completely, how many entries came back and a digest of them, so that a
  // sync lists again only what can still change. A query is known by its content (instrument, product, filters), so
  // reordering queries keeps their windows and changing one drops its windows. Each file also remembers the sync that
  // last listed it and which of that sync's queries did (a bit per query position), so a sync's per-query figures
  // are counted in SQL instead of held in memory, and files are found by name (a listed file's earlier place, one
  // chunk of the listing at a time) without reading the whole set.
  {
    version: 7,
    sql: `CREATE TABLE campaign_windows (
     campaign_id  INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
     query_key    TEXT    NOT NULL,
     window_start TEXT    NOT NULL,
     window_end   TEXT    NOT NULL,
     listed_at    TEXT    NOT NULL,
     complete     INTEGER NOT NULL DEFAULT 0,
     entries      INTEGER NOT NULL DEFAULT 0,
     digest       TEXT,
     PRIMARY KEY (campaign_id, query_key, window_start)
   );
   ALTER TABLE campaign_files ADD COLUMN listed_at TEXT;
   ALTER TABLE campaign_files ADD COLUMN listed_by INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX campaign_files_name ON campaign_files (campaign_id, filename);`,
  },
  // 9: a campaign's counts as they were last counted (campaignCounts, as JSON), which the app's list shows the moment
  // it opens, while it counts again: counting a million files is a wait the user would see.
  {
    version: 9,
    sql: `ALTER TABLE campaigns ADD COLUMN remembered_counts TEXT;`,
  },
  // 10: a layout change whose files are still being moved (campaign-relayout.ts). Set with the new layout, in the same
  // transaction, and cleared once every file is at its new place or left to the sync: a change killed half-way is
  // finished by whatever next uses the campaign (a change, a sync, a verify), not taken for one that is done. And
  // whether the SHA-256 a shared file list promised are kept beside the campaign's copy (campaign-backups.ts), so that
  // a new ledger takes them back: 0 for a campaign of a ledger from before, whose promises are written out once.
  {
    version: 10,
    sql: `ALTER TABLE campaigns ADD COLUMN layout_moving INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE campaigns ADD COLUMN shared_list_kept INTEGER NOT NULL DEFAULT 0;`,
  },
  // 12: the server (the API's base URL) each window was listed from, so that a file of a settled window that must be
  // fetched again after the campaign's server moved has its window listed again from the new one (campaign-sync.ts).
  {
    version: 12,
    sql: `ALTER TABLE campaign_windows ADD COLUMN listed_from TEXT;`,
  },
  // 14: when a sync last listed every query of the campaign whole (every window, nothing refused): a file of the set
  // that listing did not name is one the archive no longer lists, counted apart and never queued again.
  {
    version: 14,
    sql: `ALTER TABLE campaigns ADD COLUMN listed_whole_at TEXT;`,
  },
  // 15: every server (API base URL) the campaign's queries were listed from, windowed or listed whole, as a JSON array:
  // a remembered address on one of them is the campaign's own file, which follows the server the campaign syncs
  // against now (campaign-addresses.ts). Kept apart from the windows, which go with a query that changes.
  {
    version: 15,
    sql: `ALTER TABLE campaigns ADD COLUMN servers_listed_from TEXT NOT NULL DEFAULT '[]';
   UPDATE campaigns SET servers_listed_from = (SELECT json_group_array(DISTINCT w.listed_from) FROM campaign_windows w
     WHERE w.campaign_id = campaigns.id AND w.listed_from IS NOT NULL);`,
  },
  // 16: each campaign's counts, kept as its files and their jobs change (campaign-counting.ts, whose triggers fill the
  // table at the next opening): how many files stand where and arrived how, since the start of the sync the
  // campaign counts arrivals from (counted_since: its last recorded sync). They replace the counts remembered for
  // the app's list (9), which counting a million files made worth keeping. While many rows go in at once, a row
  // in campaign_counting_held holds the insert triggers; the rows are then counted together (COUNTED_BULK_INSERTS).
  {
    version: 16,
    sql: `CREATE TABLE campaign_counts (
     campaign_id INTEGER NOT NULL,
     standing    TEXT    NOT NULL,
     arrival     TEXT    NOT NULL,
     files       INTEGER NOT NULL,
     PRIMARY KEY (campaign_id, standing, arrival)
   ) WITHOUT ROWID;
   ALTER TABLE campaigns ADD COLUMN counted_since TEXT;
   UPDATE campaigns SET counted_since = last_sync_at;
   ALTER TABLE campaigns DROP COLUMN remembered_counts;
   CREATE TABLE campaign_counting_held (held INTEGER NOT NULL);`,
  },
];
