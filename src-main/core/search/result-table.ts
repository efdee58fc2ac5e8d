// A search's rows in SQLite, in a file of their own beside the state folder's database: a listing of a million files
// takes some 300 MB there instead of in memory. Throwaway by design: the file is emptied when opened, a new search
// drops the last one's table, and no journal is kept (a crash loses only results the next search replaces), so
// keeping them costs the download ledger neither size, backups nor write contention.
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import type { FileEntry } from '../../../src-shared/api/schemas';
import type { ResultRow, ResultSort, ResultSortKey } from '../../../src-shared/search/result-page';
import { InvalidInputError } from '../errors';

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

  private constructor(private readonly db: Database.Database) {}

  /** Opens `file` empty (':memory:' for a database in memory). */
  static open(file: string): ResultDatabase {
    if (file !== ':memory:') for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    const db = new Database(file);
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    // A few MB of cache: paging reads an index and a few hundred rows; the rest is the operating system's to cache.
    db.pragma('cache_size = -4000');
    return new ResultDatabase(db);
  }

  /** A new, empty table; the last one is dropped (its writer finds it closed). */
  newTable(): ResultTable {
    this.current?.drop();
    this.tables += 1;
    this.current = new ResultTable(this.db, `results_${this.tables}`);
    return this.current;
  }

  close(): void {
    this.current?.drop();
    this.db.close();
  }
}

export class ResultTable {
  private rows = 0;
  private dropped = false;
  private readonly insert: Database.Statement<[number, string, string, number | null, string | null, string | null, string]>;
  private readonly indexed = new Set<string>();

  constructor(
    private readonly db: Database.Database,
    private readonly name: string,
  ) {
    db.exec(
      `CREATE TABLE ${name} (position INTEGER PRIMARY KEY, date_obs TEXT NOT NULL, filename TEXT NOT NULL, filesize INTEGER, wave_region TEXT, obs_plan TEXT, entry TEXT NOT NULL)`,
    );
    this.insert = db.prepare(`INSERT INTO ${name} VALUES (?, ?, ?, ?, ?, ?, ?)`);
  }

  get count(): number {
    return this.rows;
  }

  /** Appends entries after the rows kept; false when the table was dropped (a newer search replaced it). */
  append(entries: readonly FileEntry[]): boolean {
    if (this.dropped) return false;
    this.db.transaction(() => {
      for (const entry of entries) {
        // An unknown size (0) sorts with the missing ones.
        const size = entry.filesize > 0 ? entry.filesize : null;
        this.insert.run(
          this.rows,
          entry['date-obs'],
          entry.filename,
          size,
          textOrNull(entry['wave-region']),
          textOrNull(entry['obs-plan']),
          JSON.stringify(entry),
        );
        this.rows += 1;
      }
    })();
    return true;
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
    this.ensureIndex(column);
    const fromEnd = offset > this.rows / 2;
    const descending = (sort.direction === 'descending') !== fromEnd;
    const direction = descending ? 'DESC' : 'ASC';
    const order = `${column} ${direction}, position ${direction}`;
    const skip = fromEnd ? this.rows - offset - take : offset;
    const rows = this.db
      .prepare<[number, number], { position: number; entry: string }>(`SELECT position, entry FROM ${this.name} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(take, skip)
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
    this.ensureIndex(column);
    const direction = ascending ? 'ASC' : 'DESC';
    return this.db
      .prepare<[number, number], number>(`SELECT position FROM ${this.name} ORDER BY ${column} ${direction}, position ${direction} LIMIT ? OFFSET ?`)
      .pluck()
      .all(take, first);
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
    return this.db
      .prepare<[number, number], { entry: string }>(`SELECT entry FROM ${this.name} WHERE position >= ? ORDER BY position LIMIT ?`)
      .all(position, limit)
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
    this.db.exec(`DROP TABLE ${this.name}`);
  }

  /** An order's index, made the first time it is asked for (rows appended later join it). */
  private ensureIndex(column: string): void {
    if (this.indexed.has(column)) return;
    this.db.exec(`CREATE INDEX ${this.name}_${column} ON ${this.name} (${column}, position)`);
    this.indexed.add(column);
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
