// Ledgers as earlier releases wrote them: test/fixtures/ledger-schema/migration-N.sql is the Nth migration's text as
// it stood in src-main/core/downloads/ledger-migrations.ts (commit 170e627) when PRAGMA user_version counted them,
// before each domain registered its own. Never edit those files: they are what users' ledgers hold.
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

/** The schema text of the first `version` migrations as released. */
export function releasedMigrations(version: 1 | 2 | 3): string[] {
  return [1, 2, 3].slice(0, version).map((n) => readFileSync(new URL(`../../fixtures/ledger-schema/migration-${n}.sql`, import.meta.url), 'utf8'));
}

/** A ledger file at `version` made with the released text, open for the test to fill in (and close). */
export function oldLedger(file: string, version: 1 | 2 | 3): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (const sql of releasedMigrations(version)) db.exec(sql);
  db.pragma(`user_version = ${version}`);
  return db;
}
