// The state folder's database is shared by domains (the downloads' jobs and settings, the campaigns), each of which
// registers its own tables as migrations. PRAGMA user_version counts the migrations that have run, across every
// domain, as it has since the first release: ledgers already on users' disks say 1, 2 or 3, counting the downloads'
// first migration (downloads/ledger-migrations.ts) then the campaigns' two (campaigns/campaign-migrations.ts), and a
// release that reads them must count the same way. So each migration carries its place in that one sequence, and a
// new one of any domain takes the next free number.
import type Database from 'better-sqlite3';
import { MlsoError } from '../errors';

export interface StateMigration {
  /** Its place in the one sequence of every domain's migrations (1 for the first ever): the user_version it leaves. */
  readonly version: number;
  readonly sql: string;
}

/** A domain's tables in the state folder's database, as the migrations that create and change them. */
export interface StateTables {
  readonly domain: string;
  readonly migrations: readonly StateMigration[];
  /**
   * Makes what the domain derives from its code's rules (triggers), as the code now defines them: run at every
   * opening for writing, after the migrations. A migration's SQL is fixed once released; a rule kept here is not.
   * @internal only to the library's published types (tsconfig.lib.json), which carry no better-sqlite3 types.
   */
  readonly keepDerived?: (db: Database.Database) => void;
  /**
   * What the domain does around inserts of many rows at a time into another's tables (StateDatabase.insertingMany).
   * @internal as keepDerived.
   */
  readonly bulkInsertWatches?: readonly BulkInsertWatch[];
}

/**
 * A domain's row triggers on `table`, held while many rows go in at once and then done for them all in one
 * statement: per row they would cost more than the insert itself.
 * @internal as StateTables.keepDerived.
 */
export interface BulkInsertWatch {
  readonly table: string;
  /** Before the rows go in: holds the triggers. */
  readonly hold: (db: Database.Database) => void;
  /** After: releases them and does their work for the rows whose rowid is above `afterRowid`. */
  readonly release: (db: Database.Database, afterRowid: number) => void;
}

/** The ledger comes from a later release, whose schema this one cannot read. */
export class LedgerVersionError extends MlsoError {
  readonly kind = 'unsupported' as const;
}

/**
 * Every domain's migrations in the order they run. Two domains taking the same number, or a number left out, is a
 * mistake in the code (the files on disk would be read wrongly), so it stops the opening at once.
 */
export function migrationsInOrder(tables: readonly StateTables[]): readonly StateMigration[] {
  const migrations = tables.flatMap((domain) => domain.migrations).sort((a, b) => a.version - b.version);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      const domains = tables.map((domain) => `${domain.domain} (${domain.migrations.map((each) => each.version).join(', ')})`).join(', ');
      throw new Error(`The state folder's migrations must be numbered 1, 2, 3… across domains, each number once: ${domains}.`);
    }
  });
  return migrations;
}
