// A search's rows in SQLite, in a file of their own beside the state folder's database: a listing of a million files
// takes some 300 MB there instead of in memory. Throwaway by design: the file is emptied when opened, a new search
// drops the last one's table, and nothing is synced (a crash loses only results the next search replaces), so
// keeping them costs the download ledger neither size, backups nor write contention.
// An order's index is made on a thread of its own (index-builder.ts); the file is in WAL mode so that pages are read
// meanwhile, and the core's own writes (rows arriving, a table made or dropped) wait their turn after it.
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import type { FileEntry } from '../../../src-shared/api/schemas';
import type { ResultRow, ResultSort, ResultSortKey } from '../../../src-shared/search/result-page';
import { InvalidInputError } from '../errors';
import { IndexBuilder } from './index-builder';

/** Where each order's values are in a result table; 'listed' is the position itself. */
const COLUMN_OF: Record<ResultSortKey, string> = {
  listed: 'position',
  'date-obs': 'date_obs',
  filename: 'filename',
  filesize: 'filesize',
  'wave-region': 'wave_region',
  'obs-plan': 'obs_plan',
};

export class ResultDatabase {
  private tables = 0;
  private current: ResultTable | undefined;
  /** Writes waiting for their turn (an index being made is one): the file has one writer at a time. */
  private queued = 0;
  private lastTurn: Promise<void> = Promise.resolve();

  private constructor(
    readonly db: Database.Database,
    /** Null for a database in memory, which no other thread can open: its indexes are made on the core's thread. */
    private readonly builder: IndexBuilder | null,
  ) {}

  /** Opens `file` empty (':memory:' for a database in memory). */
  static open(file: string): ResultDatabase {
    const inMemory = file === ':memory:';
    if (!inMemory) for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    // The core's thread never waits for the file's lock: its writes take their turns after the index thread's (see
    // write), so a wait would be a mistake, better met by an error than by a core frozen for the wait.
    const db = new Database(file, { timeout: 0 });
    db.pragma(inMemory ? 'journal_mode = OFF' : 'journal_mode = WAL');
    db.pragma('synchronous = OFF');
    // A few MB of cache: paging reads an index and a few hundred rows; the rest is the operating system's to cache.
    db.pragma('cache_size = -4000');
    return new ResultDatabase(db, inMemory ? null : new IndexBuilder(file));
  }

  /** A new, empty table; the last one is dropped (its writer finds it closed). */
  newTable(): ResultTable {
    this.current?.drop();
    this.tables += 1;
    this.current = new ResultTable(this, `results_${this.tables}`);
    return this.current;
  }

  /** Whether no write waits for its turn: a write made now, before the next await, cannot meet the index thread's. */
  get writable(): boolean {
    return this.queued === 0;
  }

  /** Resolves when the writes waiting now are done (others may have joined them by then: check `writable`). */
  turnsDone(): Promise<void> {
    return this.lastTurn;
  }

  /** Makes the change now, or after the writes already waiting (it then fails only as the writes after it would). */
  write(change: () => void): void {
    if (this.writable) change();
    else this.inTurn(change).catch(() => {});
  }

  /** Runs `sql` (a CREATE INDEX) on the index thread in its turn, unless `stillWanted` says no by then. */
  async makeIndex(sql: string, stillWanted: () => boolean): Promise<void> {
    const builder = this.builder;
    if (builder === null) return void this.db.exec(sql);
    return this.inTurn(() => (stillWanted() ? builder.run(sql) : undefined));
  }

  close(): void {
    this.current?.drop();
    // An index still being made is let go: the file is emptied at the next start.
    void this.builder?.close();
    this.db.close();
  }

  private inTurn(step: () => void | Promise<void>): Promise<void> {
    this.queued += 1;
    const done = this.lastTurn.then(step).finally(() => (this.queued -= 1));
    this.lastTurn = done.catch(() => {});
    return done;
  }
}

/**
 * Rows inserted in one transaction: a few ms of the core's thread, so pages, downloads and the window's answers are
 * served between them, while each commit's cost (the WAL's frames) is shared by enough rows not to slow the listing.
 */
const APPEND_ROWS = 1000;

type InsertRow = Database.Statement<[number, string, string, number | null, string | null, string | null, string]>;

export class ResultTable {
  private rows = 0;
  private dropped = false;
  private insert: InsertRow | undefined;
  private readonly db: Database.Database;
  /** Each order's index, made or being made. */
  private readonly indexes = new Map<string, Promise<void>>();
  private readonly indexed = new Set<string>();

  constructor(
    private readonly database: ResultDatabase,
    private readonly name: string,
  ) {
    this.db = database.db;
    // No row is read before one is appended, which waits for the table, made in the file's next turn.
    database.write(() =>
      this.db.exec(
        `CREATE TABLE ${name} (position INTEGER PRIMARY KEY, date_obs TEXT NOT NULL, filename TEXT NOT NULL, filesize INTEGER, wave_region TEXT, obs_plan TEXT, entry TEXT NOT NULL)`,
      ),
    );
  }

  get count(): number {
    return this.rows;
  }

  /**
   * Appends entries after the rows kept, a transaction of APPEND_ROWS at a time with a turn of the event loop between
   * them, each once no index is being made; false when the table was dropped (a newer search replaced it). The rows
   * count (and are read) only once all are in: the reads leave out the positions past the count.
   */
  async append(entries: readonly FileEntry[]): Promise<boolean> {
    for (let start = 0; start < entries.length; start += APPEND_ROWS) {
      if (start > 0) await setImmediate();
      while (!this.database.writable) await this.database.turnsDone();
      if (this.dropped) return false;
      this.insertRows(this.rows + start, entries.slice(start, start + APPEND_ROWS));
    }
    this.rows += entries.length;
    return true;
  }

  private insertRows(first: number, entries: readonly FileEntry[]): void {
    const insert = (this.insert ??= this.db.prepare(`INSERT INTO ${this.name} VALUES (?, ?, ?, ?, ?, ?, ?)`));
    this.db.transaction(() => {
      for (const [offset, entry] of entries.entries()) {
        // An unknown size (0) sorts with the missing ones.
        const size = entry.filesize > 0 ? entry.filesize : null;
        insert.run(
          first + offset,
          entry['date-obs'],
          entry.filename,
          size,
          textOrNull(entry['wave-region']),
          textOrNull(entry['obs-plan']),
          JSON.stringify(entry),
        );
      }
    })();
  }

  /**
   * The rows from `offset` in `sort`'s order. Ties keep the listing's order, reversed with the rest when descending
   * (so a reversed order is exactly the list read backwards, and one index serves both). A page past the middle is
   * read from the other end, so the rows stepped over are the fewer.
   */
  page(offset: number, limit: number, sort: ResultSort): ResultRow[] {
    this.checkOpen();
    const take = Math.max(0, Math.min(limit, this.rows - offset));
    if (take === 0) return [];
    const column = COLUMN_OF[sort.key];
    // The listing's order is the positions themselves, 0 to count - 1: a page is a range of them, with nothing to step over.
    if (column === 'position')
      return sort.direction === 'ascending'
        ? this.range(offset, offset + take - 1, 'ASC')
        : this.range(this.rows - offset - take, this.rows - offset - 1, 'DESC');
    this.checkSorted(column);
    const fromEnd = offset > this.rows / 2;
    const descending = (sort.direction === 'descending') !== fromEnd;
    const direction = descending ? 'DESC' : 'ASC';
    const order = `${column} ${direction}, position ${direction}`;
    const skip = fromEnd ? this.rows - offset - take : offset;
    const rows = this.db
      .prepare<[number, number, number], { position: number; entry: string }>(
        `SELECT position, entry FROM ${this.inOrderOf(column)} ORDER BY ${order} LIMIT ? OFFSET ?`,
      )
      .all(this.rows, take, skip)
      .map((row) => ({ position: row.position, entry: JSON.parse(row.entry) as FileEntry }));
    return fromEnd ? rows.reverse() : rows;
  }

  /**
   * The positions of the rows numbered `first` to `last` (inclusive) in `sort`'s order, as `page` would list them;
   * read without their entries, so a range of a million rows is a list of numbers.
   */
  positionsIn(sort: ResultSort, first: number, last: number): number[] {
    this.checkOpen();
    if (!Number.isInteger(first) || !Number.isInteger(last) || first < 0 || last < first || last >= this.rows) {
      throw new InvalidInputError(`Rows ${first} to ${last} are not in those search results: search again, then download.`);
    }
    const column = COLUMN_OF[sort.key];
    const take = last - first + 1;
    const ascending = sort.direction === 'ascending';
    if (column === 'position') {
      const start = ascending ? first : this.rows - 1 - first;
      return Array.from({ length: take }, (_unused, index) => (ascending ? start + index : start - index));
    }
    this.checkSorted(column);
    const direction = ascending ? 'ASC' : 'DESC';
    return this.db
      .prepare<[number, number, number], number>(
        `SELECT position FROM ${this.inOrderOf(column)} ORDER BY ${column} ${direction}, position ${direction} LIMIT ? OFFSET ?`,
      )
      .pluck()
      .all(this.rows, take, first);
  }

  private range(first: number, last: number, direction: 'ASC' | 'DESC'): ResultRow[] {
    return this.db
      .prepare<[number, number], { position: number; entry: string }>(
        `SELECT position, entry FROM ${this.name} WHERE position BETWEEN ? AND ? ORDER BY position ${direction}`,
      )
      .all(first, last)
      .map((row) => ({ position: row.position, entry: JSON.parse(row.entry) as FileEntry }));
  }

  /** The entries at these positions, in listing order; throws with the first position not kept. */
  entriesAt(positions: readonly number[]): FileEntry[] {
    this.checkOpen();
    const wanted = [...new Set(positions)];
    const bad = wanted.find((position) => !Number.isInteger(position) || position < 0 || position >= this.rows);
    if (bad !== undefined) throw new InvalidInputError(`Row ${bad} is not in those search results: search again, then download.`);
    return this.db
      .prepare<[string], { entry: string }>(`SELECT entry FROM ${this.name} WHERE position IN (SELECT value FROM json_each(?)) ORDER BY position`)
      .all(JSON.stringify(wanted))
      .map((row) => JSON.parse(row.entry) as FileEntry);
  }

  /** Up to `limit` entries from `position` on, in listing order. */
  entriesFrom(position: number, limit: number): FileEntry[] {
    this.checkOpen();
    if (position >= this.rows) return [];
    return this.db
      .prepare<[number, number, number], { entry: string }>(`SELECT entry FROM ${this.name} WHERE position >= ? AND position < ? ORDER BY position LIMIT ?`)
      .all(position, this.rows, limit)
      .map((row) => JSON.parse(row.entry) as FileEntry);
  }

  /** The file names and date-obs of the rows at positions `first` to `last`, in listing order. */
  namesFrom(first: number, last: number): { filename: string; 'date-obs': string }[] {
    this.checkOpen();
    return this.db
      .prepare<[number, number], { filename: string; 'date-obs': string }>(
        `SELECT filename, date_obs AS "date-obs" FROM ${this.name} WHERE position BETWEEN ? AND ? ORDER BY position`,
      )
      .all(first, last);
  }

  /** The date-obs of the rows at positions `first` to `last`, in listing order. */
  dateObsFrom(first: number, last: number): string[] {
    this.checkOpen();
    return this.db
      .prepare<[number, number], string>(`SELECT date_obs FROM ${this.name} WHERE position BETWEEN ? AND ? ORDER BY position`)
      .pluck()
      .all(first, last);
  }

  drop(): void {
    if (this.dropped) return;
    this.dropped = true;
    this.database.write(() => this.db.exec(`DROP TABLE ${this.name}`));
  }

  /**
   * Resolves once pages in `sort`'s order can be read at once: its index made, the first time it is asked for, off
   * the core's thread (rows appended later join it). Rejects with why it could not be made.
   */
  sorted(sort: ResultSort): Promise<void> {
    this.checkOpen();
    const column = COLUMN_OF[sort.key];
    if (column === 'position' || this.indexed.has(column)) return Promise.resolve();
    let made = this.indexes.get(column);
    if (!made) {
      made = this.database
        .makeIndex(this.indexSql(column), () => !this.dropped)
        .then(
          () => void this.indexed.add(column),
          (error: unknown) => {
            this.indexes.delete(column);
            throw new Error(`The search results could not be sorted by ${sort.key} (${(error as Error).message}): sort again, or search again.`);
          },
        );
      this.indexes.set(column, made);
    }
    return made;
  }

  /** Pages in an order are read through its index, which `sorted` makes: a read before it is a mistake of the caller's. */
  private checkSorted(column: string): void {
    if (!this.indexed.has(column)) throw new Error(`The search results were read by ${column} before they were sorted by it.`);
  }

  /**
   * The rows counted, read through `column`'s index (a condition on the position alone would have SQLite read them
   * in the listing's order and sort them all); its one parameter is the count.
   */
  private inOrderOf(column: string): string {
    return `${this.name} INDEXED BY ${this.name}_${column} WHERE position < ?`;
  }

  private indexSql(column: string): string {
    return `CREATE INDEX ${this.name}_${column} ON ${this.name} (${column}, position)`;
  }

  private checkOpen(): void {
    if (this.dropped) throw new ReplacedSearchError();
  }
}

/** The search was replaced by a newer one (or the core closed): its rows are gone. */
export class ReplacedSearchError extends InvalidInputError {
  constructor() {
    super('Those search results were replaced by a newer search: search again.');
  }
}

const textOrNull = (value: unknown): string | null => (value === undefined || value === null || value === '' ? null : String(value));
