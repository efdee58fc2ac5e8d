// The download ledger: SQLite (better-sqlite3, WAL) with one row per file. It is the engine's memory
// across crashes: what is queued, what finished (with the SHA-256 of the written file), what failed
// and why, which temporary file a job was writing.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { MlsoError } from '../errors';
import { LEDGER_MIGRATIONS } from './ledger-migrations';
import { schemaProblem } from './ledger-schema';
import { isDamagedDatabaseError } from '../state/sqlite-errors';

import { JOB_STATES, type JobState } from '../../../src-shared/downloads/job-state';

export { JOB_STATES, type JobState };

export interface Job {
  id: number;
  url: string;
  instrument: string;
  product: string;
  dateObs: string | null;
  filename: string;
  folder: string;
  targetPath: string;
  state: JobState;
  priority: number;
  attempts: number;
  lastError: string | null;
  lastErrorKind: string | null;
  /** The listing's `filesize` (compressed bytes; 0 when the service did not know it). */
  expectedSize: number;
  bytesReceived: number;
  bytesWritten: number;
  sha256: string | null;
  tempName: string | null;
  batchId: string | null;
  cleared: boolean;
  nextAttemptAt: number | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface NewJob {
  url: string;
  instrument: string;
  product: string;
  dateObs: string | null;
  filename: string;
  folder: string;
  targetPath: string;
  expectedSize: number;
  batchId: string | null;
  state?: JobState;
}

export type StateCounts = Record<JobState, number>;

/** Listing sizes of the jobs still to do: how many, how many with a known size, and the sum of those. */
export interface PendingSizes {
  count: number;
  knownCount: number;
  knownBytes: number;
}

interface JobRow {
  id: number;
  url: string;
  instrument: string;
  product: string;
  date_obs: string | null;
  filename: string;
  folder: string;
  target_path: string;
  state: JobState;
  priority: number;
  attempts: number;
  last_error: string | null;
  last_error_kind: string | null;
  expected_size: number;
  bytes_received: number;
  bytes_written: number;
  sha256: string | null;
  temp_name: string | null;
  batch_id: string | null;
  cleared: number;
  next_attempt_at: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

function toJob(row: JobRow): Job {
  return {
    id: row.id,
    url: row.url,
    instrument: row.instrument,
    product: row.product,
    dateObs: row.date_obs,
    filename: row.filename,
    folder: row.folder,
    targetPath: row.target_path,
    state: row.state,
    priority: row.priority,
    attempts: row.attempts,
    lastError: row.last_error,
    lastErrorKind: row.last_error_kind,
    expectedSize: row.expected_size,
    bytesReceived: row.bytes_received,
    bytesWritten: row.bytes_written,
    sha256: row.sha256,
    tempName: row.temp_name,
    batchId: row.batch_id,
    cleared: row.cleared === 1,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

const now = (): string => new Date().toISOString();

/** The ledger comes from a later release, whose schema this one cannot read. */
export class LedgerVersionError extends MlsoError {
  readonly kind = 'unsupported' as const;
}

export interface LedgerOpenOptions {
  /** better-sqlite3's native module built for another runtime (Electron in development). */
  nativeBinding?: string;
}

export class DownloadLedger {
  /** Prepared statements by SQL text: compiling SQL on every call would cost more than running it. */
  private readonly statements = new Map<string, Database.Statement>();
  /** The file held no ledger before this opening (new, emptied or deleted): nothing it recorded survives. */
  private startedEmptyFlag = false;

  private constructor(private readonly db: Database.Database) {}

  private sql<P extends unknown[] = unknown[], R = unknown>(text: string): Database.Statement<P, R> {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement as unknown as Database.Statement<P, R>;
  }

  /**
   * Opens (creating if needed) the ledger file and brings its schema up to date. `nativeBinding` points
   * better-sqlite3 at a copy of its native module built for another runtime (Electron in development).
   */
  static open(file: string, options: LedgerOpenOptions = {}): DownloadLedger {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    try {
      db.pragma('journal_mode = WAL');
      // WAL with synchronous=NORMAL is durable against process crashes (the case that matters here) and
      // avoids an fsync per state change.
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      // better-sqlite3 builds SQLite with a 16 MB page cache; a quarter of it keeps enqueueing a listing of
      // 100,000 files as fast, and leaves that memory to the listing (the operating system caches the file too).
      db.pragma('cache_size = -4000');
      // A campaign's queries and files go with it.
      db.pragma('foreign_keys = ON');
      const ledger = new DownloadLedger(db);
      ledger.migrate();
      return ledger;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * What is damaged in an existing ledger file (SQLite's words), or undefined when it is sound or absent.
   * It looks read-only, so that a damaged file and its -wal and -shm stay as they were (a writing
   * connection would checkpoint into the file and delete the -wal on closing). SQLite's quick check reads
   * every page (but does not match indexes against their tables): 75-110 ms on a ledger of 100,000 jobs (61 MB).
   * A file whose tables do not match its schema version (dropped or altered since) is damaged too.
   * Problems that are not damage (a lock held elsewhere, a file that cannot be opened) are thrown.
   */
  static findDamage(file: string, options: LedgerOpenOptions = {}): string | undefined {
    if (!existsSync(file)) return undefined;
    let db: Database.Database | undefined;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
      const rows = db.pragma('quick_check') as { quick_check: string }[];
      if (rows.length !== 1 || rows[0]!.quick_check !== 'ok') return 'it failed the integrity check';
      return schemaProblem(db, options);
    } catch (error) {
      if (isDamagedDatabaseError(error)) return (error as Error).message;
      throw error;
    } finally {
      db?.close();
    }
  }

  /**
   * The ledger's database, for the campaigns kept in the same file (their files join the jobs by target path).
   * @internal
   */
  get database(): Database.Database {
    return this.db;
  }

  /** The ledger's file, or undefined for a ledger in memory. */
  get location(): string | undefined {
    return this.db.memory ? undefined : path.resolve(this.db.name);
  }

  /** True when this opening created the schema: the file held no ledger before (a new one, or one deleted since). */
  get startedEmpty(): boolean {
    return this.startedEmptyFlag;
  }

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  private migrate(): void {
    const version = this.schemaVersion;
    this.startedEmptyFlag = version === 0;
    if (version > LEDGER_MIGRATIONS.length) {
      throw new LedgerVersionError(`The download ledger was written by a newer version (schema ${version}); update MLSO Downloader.`);
    }
    for (let step = version; step < LEDGER_MIGRATIONS.length; step += 1) {
      this.db.transaction(() => {
        this.db.exec(LEDGER_MIGRATIONS[step]!);
        this.db.pragma(`user_version = ${step + 1}`);
      })();
    }
  }

  close(): void {
    this.db.close();
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  get(id: number): Job | undefined {
    const row = this.sql<[number], JobRow>('SELECT * FROM jobs WHERE id = ?').get(id);
    return row && toJob(row);
  }

  /** Several jobs by id in one query (a progress update can name thousands); ids not found are left out. */
  getMany(ids: readonly number[]): Job[] {
    if (ids.length === 0) return [];
    return this
      .sql<[string], JobRow>('SELECT * FROM jobs WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(ids))
      .map(toJob);
  }

  findByTarget(targetPath: string): Job | undefined {
    const row = this.sql<[string], JobRow>('SELECT * FROM jobs WHERE target_path = ?').get(targetPath);
    return row && toJob(row);
  }

  /** The jobs of several target paths in one query, by target path (a piece of a listing is looked up at once). */
  findByTargets(targetPaths: readonly string[]): Map<string, Job> {
    const found = new Map<string, Job>();
    if (targetPaths.length === 0) return found;
    const rows = this.sql<[string], JobRow>('SELECT * FROM jobs WHERE target_path IN (SELECT value FROM json_each(?))').all(JSON.stringify(targetPaths));
    for (const row of rows) found.set(row.target_path, toJob(row));
    return found;
  }

  insert(job: NewJob): Job {
    return this.get(this.insertMany([job])[0]!)!;
  }

  /**
   * Inserts jobs in one transaction and returns their ids, without reading the rows back: a listing of 100,000
   * files comes through here, so the statement takes positional values and the time is read once.
   */
  insertMany(jobs: readonly NewJob[]): number[] {
    const insert = this.sql<(string | number | null)[]>(
      `INSERT INTO jobs (url, instrument, product, date_obs, filename, folder, target_path, state, expected_size, batch_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    return this.transaction(() => {
      const stamp = now();
      return jobs.map((job) =>
        Number(
          insert.run(job.url, job.instrument, job.product, job.dateObs, job.filename, job.folder, job.targetPath, job.state ?? 'queued', job.expectedSize, job.batchId, stamp, stamp)
            .lastInsertRowid,
        ),
      );
    });
  }

  /** Puts a known job back in the queue for a new request (re-running a command resumes it). */
  requeueForBatch(id: number, url: string, expectedSize: number, batchId: string | null): void {
    this
      .sql(
        `UPDATE jobs SET state = 'queued', url = ?, expected_size = ?, batch_id = ?, attempts = 0, last_error = NULL,
           last_error_kind = NULL, next_attempt_at = NULL, sha256 = NULL, temp_name = NULL, cleared = 0,
           bytes_received = 0, bytes_written = 0, updated_at = ? WHERE id = ?`,
      )
      .run(url, expectedSize, batchId, now(), id);
  }

  /** Tags an already finished job with the current batch, so the batch's summary counts it. */
  adoptIntoBatch(id: number, batchId: string | null): void {
    this.sql('UPDATE jobs SET batch_id = ?, cleared = 0, updated_at = ? WHERE id = ?').run(batchId, now(), id);
  }

  list(filter: { states?: readonly JobState[]; batchId?: string; includeCleared?: boolean } = {}): Job[] {
    const clauses: string[] = [];
    const values: (string | number)[] = [];
    if (filter.states) {
      clauses.push(`state IN (${filter.states.map(() => '?').join(', ')})`);
      for (const state of filter.states) values.push(state);
    }
    if (filter.batchId !== undefined) {
      clauses.push('batch_id = ?');
      values.push(filter.batchId);
    }
    if (!filter.includeCleared) clauses.push('cleared = 0');
    const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
    return this
      .sql<(string | number)[], JobRow>(`SELECT * FROM jobs ${where} ORDER BY priority, id`)
      .all(...values)
      .map(toJob);
  }

  counts(batchId?: string): StateCounts {
    const rows = this
      .sql<(string | number)[], { state: JobState; n: number }>(
        `SELECT state, COUNT(*) AS n FROM jobs WHERE cleared = 0 ${batchId !== undefined ? 'AND batch_id = ?' : ''} GROUP BY state`,
      )
      .all(...(batchId !== undefined ? [batchId] : []));
    const counts = Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as StateCounts;
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  /** Listing sizes of the jobs still to do (queued or active): how many, how many with a known size, their sum. */
  pendingSizes(batchId?: string): PendingSizes {
    const row = this
      .sql<(string | number)[], { count: number; knownCount: number | null; knownBytes: number | null }>(
        `SELECT COUNT(*) AS count, SUM(expected_size > 0) AS knownCount, SUM(expected_size) AS knownBytes FROM jobs
         WHERE state IN ('queued', 'active') AND cleared = 0 ${batchId !== undefined ? 'AND batch_id = ?' : ''}`,
      )
      .get(...(batchId !== undefined ? [batchId] : []));
    return { count: row?.count ?? 0, knownCount: row?.knownCount ?? 0, knownBytes: row?.knownBytes ?? 0 };
  }

  /**
   * Takes the next runnable job (queued, its retry time reached) and marks it active in one step, so
   * two workers never take the same job.
   */
  claimNext(nowMs: number, batchId?: string): Job | undefined {
    return this.transaction(() => {
      const row = this
        .sql<(string | number)[], JobRow>(
          `SELECT * FROM jobs WHERE state = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
           ${batchId !== undefined ? 'AND batch_id = ?' : ''} ORDER BY priority, id LIMIT 1`,
        )
        .get(...(batchId !== undefined ? [nowMs, batchId] : [nowMs]));
      if (!row) return undefined;
      const stamp = now();
      this.sql(
          `UPDATE jobs SET state = 'active', attempts = attempts + 1, started_at = ?, updated_at = ?, bytes_received = 0,
             bytes_written = 0, sha256 = NULL, temp_name = NULL WHERE id = ?`,
      ).run(stamp, stamp, row.id);
      return this.get(row.id);
    });
  }

  /** When the earliest waiting retry becomes runnable (ms since epoch), if any job waits. */
  nextRetryAt(batchId?: string): number | undefined {
    const row = this
      .sql<(string | number)[], { at: number | null }>(
        `SELECT MIN(next_attempt_at) AS at FROM jobs WHERE state = 'queued' AND next_attempt_at IS NOT NULL
         ${batchId !== undefined ? 'AND batch_id = ?' : ''}`,
      )
      .get(...(batchId !== undefined ? [batchId] : []));
    return row?.at ?? undefined;
  }

  recordTemporaryFile(id: number, tempName: string): void {
    this.sql('UPDATE jobs SET temp_name = ?, updated_at = ? WHERE id = ?').run(tempName, now(), id);
  }

  /** The file is complete and checked in its temporary name; the rename into place comes next. */
  recordVerified(id: number, sha256: string, bytesWritten: number): void {
    this.sql('UPDATE jobs SET sha256 = ?, bytes_written = ?, updated_at = ? WHERE id = ?').run(sha256, bytesWritten, now(), id);
  }

  markDone(id: number, result: { sha256: string; bytesReceived: number; bytesWritten: number }): void {
    const stamp = now();
    this
      .sql(
        `UPDATE jobs SET state = 'done', sha256 = ?, bytes_received = ?, bytes_written = ?, temp_name = NULL, last_error = NULL,
           last_error_kind = NULL, next_attempt_at = NULL, finished_at = ?, updated_at = ? WHERE id = ?`,
      )
      .run(result.sha256, result.bytesReceived, result.bytesWritten, stamp, stamp, id);
  }

  markFailed(id: number, kind: string, message: string): void {
    const stamp = now();
    this
      .sql(
        `UPDATE jobs SET state = 'failed', last_error_kind = ?, last_error = ?, temp_name = NULL, next_attempt_at = NULL,
           finished_at = ?, updated_at = ? WHERE id = ?`,
      )
      .run(kind, message, stamp, stamp, id);
  }

  /** Back to the queue after a failed attempt, not before `nextAttemptAt`. */
  scheduleRetry(id: number, nextAttemptAt: number | null, kind: string | null, message: string | null): void {
    this
      .sql(
        `UPDATE jobs SET state = 'queued', next_attempt_at = ?, last_error_kind = ?, last_error = ?, temp_name = NULL,
           sha256 = NULL, updated_at = ? WHERE id = ?`,
      )
      .run(nextAttemptAt, kind, message, now(), id);
  }

  /** An attempt that ended for reasons of our own (pause, shutdown, a full disk) does not count. */
  refundAttempt(id: number): void {
    this.sql('UPDATE jobs SET attempts = MAX(attempts - 1, 0) WHERE id = ?').run(id);
  }

  setState(id: number, state: JobState): void {
    this.sql('UPDATE jobs SET state = ?, temp_name = NULL, updated_at = ? WHERE id = ?').run(state, now(), id);
  }

  /** Moves states in bulk, e.g. every paused job back to queued. Returns the ids moved. */
  moveStates(from: readonly JobState[], to: JobState, batchId?: string): number[] {
    return this.transaction(() => {
      const jobs = this.list({ states: from, ...(batchId !== undefined ? { batchId } : {}) });
      const update = this.sql('UPDATE jobs SET state = ?, updated_at = ? WHERE id = ?');
      const stamp = now();
      for (const job of jobs) update.run(to, stamp, job.id);
      return jobs.map((job) => job.id);
    });
  }

  /** A failed or cancelled job gets a fresh set of attempts. */
  resetForRetry(id: number): void {
    this
      .sql(
        `UPDATE jobs SET state = 'queued', attempts = 0, last_error = NULL, last_error_kind = NULL, next_attempt_at = NULL,
           finished_at = NULL, updated_at = ? WHERE id = ?`,
      )
      .run(now(), id);
  }

  moveToFront(id: number): void {
    this.transaction(() => {
      const row = this.sql<[], { lowest: number | null }>('SELECT MIN(priority) AS lowest FROM jobs').get();
      this.sql('UPDATE jobs SET priority = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ?').run((row?.lowest ?? 0) - 1, now(), id);
    });
  }

  /** Hides finished jobs from the queue view; their rows stay, so finished files are still never fetched again. */
  clearFinished(): number {
    return this.sql(`UPDATE jobs SET cleared = 1, updated_at = ? WHERE state IN ('done', 'cancelled') AND cleared = 0`).run(now()).changes;
  }

  /** Distinct folders of every job, for cleaning up after a crash. */
  folders(): string[] {
    return this
      .sql<[], { folder: string }>('SELECT DISTINCT folder FROM jobs')
      .all()
      .map((row) => row.folder);
  }

  getSetting(key: string): string | undefined {
    return this.sql<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key)?.value;
  }

  setSetting(key: string, value: string | undefined): void {
    if (value === undefined) this.sql('DELETE FROM settings WHERE key = ?').run(key);
    else this.sql('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }
}
