// The state folder's SQLite database (better-sqlite3, WAL), the file users know as the download ledger. Several
// domains keep their tables in it (the downloads' jobs, the campaigns, whose files join the jobs by target path);
// each hands over its tables as migrations (state-migrations.ts) and works on the one connection given here.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { schemaProblem } from './ledger-schema';
import { markCleanClose } from './clean-close-mark';
import { isDamagedDatabaseError } from './sqlite-errors';
import { LedgerVersionError, migrationsInOrder, type BulkInsertWatch, type StateMigration, type StateTables } from './state-migrations';

export class StateDatabase {
  /** Set by markWhenClosedCleanly: the file is marked as left when it closes cleanly (clean-close-mark.ts). */
  private markOnClose = false;

  private constructor(
    /**
     * The connection every domain's tables are read and written through.
     * @internal only to the library's published types (tsconfig.lib.json), which carry no better-sqlite3 types.
     */
    readonly connection: Database.Database,
    /** The file held no schema before this opening (new, emptied or deleted): nothing it recorded survives. */
    readonly startedEmpty: boolean,
    private readonly bulkInsertWatches: readonly BulkInsertWatch[] = [],
  ) {}

  /** Opens (creating if needed) the database file and brings the tables of `tables` up to date. */
  static open(file: string, tables: readonly StateTables[]): StateDatabase {
    const migrations = migrationsInOrder(tables);
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    try {
      // One rule for every ledger, new or old: WAL with synchronous=NORMAL is durable against process crashes (the
      // case that matters here) and avoids an fsync per state change.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      // better-sqlite3 builds SQLite with a 16 MB page cache; a quarter of it keeps enqueueing a listing of
      // 100,000 files as fast, and leaves that memory to the listing (the operating system caches the file too).
      db.pragma('cache_size = -4000');
      // A campaign's queries and files go with it.
      db.pragma('foreign_keys = ON');
      const startedEmpty = migrate(db, migrations);
      for (const domain of tables) domain.keepDerived?.(db);
      return new StateDatabase(
        db,
        startedEmpty,
        tables.flatMap((domain) => domain.bulkInsertWatches ?? []),
      );
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Opens an existing database file to read only, beside the program that holds the state folder and writes it
   * (WAL lets readers read beside one writer). Nothing is created, migrated, checked for damage or marked, and
   * nothing is written: the file, its -wal and its clean-close mark stay the writer's. The writer brought the tables up to date
   * when it opened the file; a file at another schema version is refused, saying which way.
   */
  static openToRead(file: string, tables: readonly StateTables[]): StateDatabase {
    const migrations = migrationsInOrder(tables);
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      db.pragma('cache_size = -4000');
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version > migrations.length) throw newerLedger(version);
      if (version < migrations.length) {
        throw new LedgerVersionError(
          `The download ledger ${path.resolve(file)} is at an older version (schema ${version}) than this MLSO Downloader reads (${migrations.length}), and the program holding the state folder has not brought it up to date: close that program, then try again.`,
        );
      }
      return new StateDatabase(db, false);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * What is damaged in an existing database file (SQLite's words), or undefined when it is sound or absent.
   * It looks read-only, so that a damaged file and its -wal and -shm stay as they were (a writing
   * connection would checkpoint into the file and delete the -wal on closing). SQLite's quick check reads
   * every page (but does not match indexes against their tables), so its time grows with the ledger;
   * `readPages` false skips it for a file known to be as it was left sound (clean-close-mark.ts).
   * A file whose tables do not match its schema version (dropped or altered since) is damaged too.
   * Problems that are not damage (a lock held elsewhere, a file that cannot be opened) are thrown.
   */
  static findDamage(file: string, tables: readonly StateTables[], readPages = true): string | undefined {
    const migrations = migrationsInOrder(tables);
    if (!existsSync(file)) return undefined;
    let db: Database.Database | undefined;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
      if (readPages) {
        const rows = db.pragma('quick_check') as { quick_check: string }[];
        if (rows.length !== 1 || rows[0]!.quick_check !== 'ok') return 'it failed the integrity check';
      }
      return schemaProblem(db, migrations);
    } catch (error) {
      if (isDamagedDatabaseError(error)) return (error as Error).message;
      throw error;
    } finally {
      db?.close();
    }
  }

  /** The database's file, or undefined for a database in memory. */
  get location(): string | undefined {
    return this.connection.memory ? undefined : path.resolve(this.connection.name);
  }

  /** Opened by openToRead: beside the program that holds the state folder, which alone writes it. */
  get readOnly(): boolean {
    return this.connection.readonly;
  }

  get schemaVersion(): number {
    return this.connection.pragma('user_version', { simple: true }) as number;
  }

  transaction<T>(work: () => T): T {
    return this.connection.transaction(work)();
  }

  /**
   * Runs `insert`, which adds many rows to `table`, in one transaction with the domains' row triggers on it held
   * (BulkInsertWatch), and then has them do their work for the new rows at once. A table's new rows have rowids
   * above its largest before (SQLite gives the largest + 1), so they are told apart by that.
   */
  insertingMany<T>(table: string, insert: () => T): T {
    const watches = this.bulkInsertWatches.filter((watch) => watch.table === table);
    if (watches.length === 0) return insert();
    return this.transaction(() => {
      const after = this.connection.prepare<[], number>(`SELECT COALESCE(MAX(rowid), 0) FROM ${table}`).pluck().get()!;
      for (const watch of watches) watch.hold(this.connection);
      const inserted = insert();
      for (const watch of watches) watch.release(this.connection, after);
      return inserted;
    });
  }

  /** Marks the file when it closes cleanly (clean-close-mark.ts): for a ledger whose opening found it sound. */
  markWhenClosedCleanly(): void {
    this.markOnClose = true;
  }

  close(): void {
    const file = this.location;
    this.connection.close();
    if (this.markOnClose && file !== undefined) markCleanClose(file);
  }
}

/** A ledger written by a later release, whose schema this one cannot read. */
function newerLedger(version: number): LedgerVersionError {
  return new LedgerVersionError(`The download ledger was written by a newer version (schema ${version}); update MLSO Downloader.`);
}

/** Brings `db` up to date, one migration per transaction; true when it held no schema before (a new or emptied file). */
function migrate(db: Database.Database, migrations: readonly StateMigration[]): boolean {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > migrations.length) throw newerLedger(version);
  for (const migration of migrations.slice(version)) {
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
  return version === 0;
}
