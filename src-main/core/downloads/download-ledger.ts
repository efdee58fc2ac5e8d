// The download ledger: SQLite (better-sqlite3, WAL) with one row per file. It is the engine's memory
// across crashes: what is queued, what finished (with the SHA-256 of the written file), what failed
// and why, which temporary file a job was writing.
import type Database from 'better-sqlite3';
import type { StateDatabase } from '../state/state-database';
import type { ResumePoint } from './resume-file';

import { JOB_STATES, type JobState } from '../../../src-shared/downloads/job-state';
import { insertManyRows, insertOfRows, type SqlValue } from '../state/rows-per-insert';

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
  /** Where the beginning of the body is kept for resuming (resume-file.ts), and the file's version it belongs to. */
  resume: ResumePoint | null;
  /** Bytes of the body kept when the last attempt stopped (0 when nothing is kept). */
  resumeBytes: number;
  batchId: string | null;
  cleared: boolean;
  nextAttemptAt: number | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** A finished file's modification time when it was put in place (null: not recorded; see quick-check.ts). */
  writtenMtimeMs: number | null;
  /** A finished file's modification time when a verify last hashed it and found it intact (null: never). */
  checkedMtimeMs: number | null;
  /** The folder its file was copied or linked from instead of fetched (markReused); null otherwise. */
  reusedFrom: string | null;
}

/** What a job's view shows of it (job-views.ts): what the queue's progress reads back of jobs it describes. */
export type ViewedJob = Pick<
  Job,
  | 'id'
  | 'filename'
  | 'targetPath'
  | 'folder'
  | 'instrument'
  | 'product'
  | 'dateObs'
  | 'state'
  | 'attempts'
  | 'bytesReceived'
  | 'bytesWritten'
  | 'expectedSize'
  | 'lastError'
  | 'lastErrorKind'
  | 'nextAttemptAt'
  | 'sha256'
  | 'resumeBytes'
  | 'finishedAt'
  | 'updatedAt'
  | 'reusedFrom'
>;

type ViewedJobRow = Pick<
  JobRow,
  | 'id'
  | 'filename'
  | 'target_path'
  | 'folder'
  | 'instrument'
  | 'product'
  | 'date_obs'
  | 'state'
  | 'attempts'
  | 'bytes_received'
  | 'bytes_written'
  | 'expected_size'
  | 'last_error'
  | 'last_error_kind'
  | 'next_attempt_at'
  | 'sha256'
  | 'resume_bytes'
  | 'finished_at'
  | 'updated_at'
  | 'reused_from'
>;

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

/** A finished or failed job as a run's summary reads it (DownloadLedger.endedInBatch). */
export type EndedJob = Pick<Job, 'id' | 'filename' | 'targetPath' | 'bytesWritten' | 'sha256' | 'lastError'> & { state: 'done' | 'failed' };

type EndedJobRow = Pick<JobRow, 'id' | 'filename' | 'target_path' | 'bytes_written' | 'sha256' | 'last_error'> & { state: 'done' | 'failed' };

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
  resume_name: string | null;
  resume_validator: string | null;
  resume_bytes: number;
  batch_id: string | null;
  cleared: number;
  next_attempt_at: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  written_mtime_ms: number | null;
  checked_mtime_ms: number | null;
  reused_from: string | null;
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
    resume: row.resume_name !== null && row.resume_validator !== null ? { name: row.resume_name, validator: row.resume_validator } : null,
    resumeBytes: row.resume_bytes,
    batchId: row.batch_id,
    cleared: row.cleared === 1,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    writtenMtimeMs: row.written_mtime_ms,
    checkedMtimeMs: row.checked_mtime_ms,
    reusedFrom: row.reused_from,
  };
}

const now = (): string => new Date().toISOString();

/**
 * The first and last of `texts` as SQLite orders them (BINARY: by their UTF-8 bytes), or undefined when there are
 * none or JavaScript's order (by UTF-16 units) may differ: only for a text with a unit from U+D800 up (a surrogate
 * sorts below U+E000-U+FFFF in UTF-16, above in UTF-8). A listing comes in order, so a chunk's places lie past every
 * job queued before it: a look into the index between its first and last answers "none of them" at once.
 */
export function textSpan(texts: readonly string[]): [string, string] | undefined {
  let low = texts[0];
  let high = low;
  if (low === undefined || high === undefined) return undefined;
  for (const text of texts) {
    if (HIGH_UNITS.test(text)) return undefined;
    if (text < low) low = text;
    else if (text > high) high = text;
  }
  return [low, high];
}

const HIGH_UNITS = /[\uD800-\uFFFF]/;

const INSERT_JOBS =
  'INSERT INTO jobs (url, instrument, product, date_obs, filename, folder, target_path, state, expected_size, batch_id, created_at, updated_at) VALUES';
const JOB_VALUES = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

function pushJobValues(values: SqlValue[], job: NewJob, stamp: string): void {
  values.push(
    job.url,
    job.instrument,
    job.product,
    job.dateObs,
    job.filename,
    job.folder,
    job.targetPath,
    job.state ?? 'queued',
    job.expectedSize,
    job.batchId,
    stamp,
    stamp,
  );
}

/** The jobs and settings tables (ledger-migrations.ts) of the state folder's database. */
/**
 * A prepared read, as far as its callers use it: its own type rather than better-sqlite3's, so the library's
 * declarations (dist/lib/types) name no package its users may not have types for.
 */
export interface LedgerRead<P extends unknown[], R> {
  all(...params: P): R[];
  get(...params: P): R | undefined;
}

export class DownloadLedger {
  /** Prepared statements by SQL text: compiling SQL on every call would cost more than running it. */
  private readonly statements = new Map<string, Database.Statement>();
  private readonly db: Database.Database;

  /** The ledger in a state folder's database opened with the downloads' tables (state/open-state-folder.ts). */
  constructor(private readonly state: StateDatabase) {
    this.db = state.connection;
  }

  private sql<P extends unknown[] = unknown[], R = unknown>(text: string): Database.Statement<P, R> {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement as unknown as Database.Statement<P, R>;
  }

  /** A read of the jobs table, prepared once: the Downloads screen's pages and counts are built in SQL (job-pages.ts). */
  read<P extends unknown[] = unknown[], R = unknown>(text: string): LedgerRead<P, R> {
    return this.sql<P, R>(text);
  }

  /** Closes the database under it. */
  close(): void {
    this.state.close();
  }

  transaction<T>(work: () => T): T {
    return this.state.transaction(work);
  }

  get(id: number): Job | undefined {
    const row = this.sql<[number], JobRow>('SELECT * FROM jobs WHERE id = ?').get(id);
    return row && toJob(row);
  }

  /** Several jobs by id in one query (a progress update can name thousands); ids not found are left out. */
  getMany(ids: readonly number[]): Job[] {
    if (ids.length === 0) return [];
    return this.sql<[string], JobRow>('SELECT * FROM jobs WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)).map(toJob);
  }

  /**
   * What the views of the jobs with ids from `first` to `last` show, by id: newly queued jobs are described a
   * thousand at a time, and their ids come in runs (a chunk's jobs are inserted together).
   */
  viewedBetween(first: number, last: number): ViewedJob[] {
    return this.sql<[number, number], ViewedJobRow>(
      `SELECT id, filename, target_path, folder, instrument, product, date_obs, state, attempts, bytes_received, bytes_written,
              expected_size, last_error, last_error_kind, next_attempt_at, sha256, resume_bytes, finished_at, updated_at, reused_from
         FROM jobs WHERE id BETWEEN ? AND ? ORDER BY id`,
    )
      .all(first, last)
      .map((row) => ({
        id: row.id,
        filename: row.filename,
        targetPath: row.target_path,
        folder: row.folder,
        instrument: row.instrument,
        product: row.product,
        dateObs: row.date_obs,
        state: row.state,
        attempts: row.attempts,
        bytesReceived: row.bytes_received,
        bytesWritten: row.bytes_written,
        expectedSize: row.expected_size,
        lastError: row.last_error,
        lastErrorKind: row.last_error_kind,
        nextAttemptAt: row.next_attempt_at,
        sha256: row.sha256,
        resumeBytes: row.resume_bytes,
        finishedAt: row.finished_at,
        updatedAt: row.updated_at,
        reusedFrom: row.reused_from,
      }));
  }

  findByTarget(targetPath: string): Job | undefined {
    const row = this.sql<[string], JobRow>('SELECT * FROM jobs WHERE target_path = ?').get(targetPath);
    return row && toJob(row);
  }

  /**
   * The jobs of several target paths in one query, by target path (a chunk of a listing is looked up at once), after
   * one look between the first and last of them (textSpan) that usually finds none.
   */
  findByTargets(targetPaths: readonly string[]): Map<string, Job> {
    const found = new Map<string, Job>();
    if (targetPaths.length === 0) return found;
    const span = textSpan(targetPaths);
    if (
      span &&
      !this.sql<[string, string], { near: number }>('SELECT EXISTS (SELECT 1 FROM jobs WHERE target_path BETWEEN ? AND ?) AS near').get(...span)?.near
    ) {
      return found;
    }
    const rows = this.sql<[string], JobRow>('SELECT * FROM jobs WHERE target_path IN (SELECT value FROM json_each(?))').all(JSON.stringify(targetPaths));
    for (const row of rows) found.set(row.target_path, toJob(row));
    return found;
  }

  /**
   * Finished jobs with a recorded SHA-256 whose address is one of `urls` or whose name is one of `filenames`: where a
   * chunk of a listing may find its files already downloaded elsewhere (reuse-finder.ts), in one query per chunk.
   */
  findFinishedCopies(urls: readonly string[], filenames: readonly string[]): Job[] {
    if (urls.length === 0 && filenames.length === 0) return [];
    // As in findByTargets: none finished between the chunk's first and last address, nor its first and last name (a
    // first listing into an empty ledger), and none of them is looked up.
    const byUrl = textSpan(urls);
    const byName = textSpan(filenames);
    if (
      byUrl &&
      byName &&
      !this.sql<string[], { near: number }>(
        `SELECT EXISTS (SELECT 1 FROM jobs WHERE state = 'done' AND url BETWEEN ? AND ?)
             OR EXISTS (SELECT 1 FROM jobs WHERE state = 'done' AND filename BETWEEN ? AND ?) AS near`,
      ).get(...byUrl, ...byName)?.near
    ) {
      return [];
    }
    return this.sql<[string, string], JobRow>(
      `SELECT * FROM jobs WHERE state = 'done' AND sha256 IS NOT NULL AND url IN (SELECT value FROM json_each(?))
       UNION
       SELECT * FROM jobs WHERE state = 'done' AND sha256 IS NOT NULL AND filename IN (SELECT value FROM json_each(?))
       ORDER BY id`,
    )
      .all(JSON.stringify(urls), JSON.stringify(filenames))
      .map(toJob);
  }

  insert(job: NewJob): Job {
    return this.get(this.insertMany([job])[0]!)!;
  }

  /**
   * Inserts jobs in one transaction and returns their ids, without reading the rows back: a listing of a million
   * files comes through here, so the rows go in many to a statement (rows-per-insert.ts: one call into SQLite per
   * 128 rows, not per row) and the time is read once.
   */
  insertMany(jobs: readonly NewJob[]): number[] {
    // Other domains' row triggers on jobs (a campaign's counts) do their work once for the lot.
    return this.state.insertingMany('jobs', () => {
      const stamp = now();
      const ids: number[] = [];
      insertManyRows(
        jobs,
        (rows) => this.sql<[SqlValue[]]>(insertOfRows(INSERT_JOBS, JOB_VALUES, rows)),
        (values, job) => pushJobValues(values, job, stamp),
        (result, _start, rows) => {
          // The table's rowid is its INTEGER PRIMARY KEY (no AUTOINCREMENT): each new row gets the largest id + 1, in
          // the order of the VALUES, so the statement's rows have the ids up to its last one.
          const last = Number(result.lastInsertRowid);
          for (let id = last - rows + 1; id <= last; id += 1) ids.push(id);
        },
      );
      return ids;
    });
  }

  /** Puts a known job back in the queue for a new request (re-running a command resumes it). */
  requeueForBatch(id: number, url: string, expectedSize: number, batchId: string | null): void {
    this.sql(
      `UPDATE jobs SET state = 'queued', url = ?, expected_size = ?, batch_id = ?, attempts = 0, last_error = NULL,
           last_error_kind = NULL, next_attempt_at = NULL, sha256 = NULL, temp_name = NULL, cleared = 0,
           bytes_received = 0, bytes_written = 0, reused_from = NULL, updated_at = ? WHERE id = ?`,
    ).run(url, expectedSize, batchId, now(), id);
    // The kept beginning of a body stays: it is resumed only if the server still has that version (If-Range).
  }

  /** Tags already finished jobs with the current batch, so the batch's summary counts them (a chunk's in one statement). */
  adoptIntoBatch(ids: readonly number[], batchId: string | null): void {
    if (ids.length === 0) return;
    const list = JSON.stringify(ids);
    // Each column set only where it changes: an update that names `cleared` rewrites every job's entries in the
    // indexes over it (the Downloads order's), which for a relisted month of finished jobs was most of the work.
    this.transaction(() => {
      this.sql('UPDATE jobs SET batch_id = ? WHERE id IN (SELECT value FROM json_each(?)) AND batch_id IS NOT ?').run(batchId, list, batchId);
      this.sql('UPDATE jobs SET cleared = 0, updated_at = ? WHERE id IN (SELECT value FROM json_each(?)) AND cleared = 1').run(now(), list);
    });
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
    return this.sql<(string | number)[], JobRow>(`SELECT * FROM jobs ${where} ORDER BY priority, id`)
      .all(...values)
      .map(toJob);
  }

  /**
   * The batch's finished and failed jobs, cleared or not, one row at a time and only what a run's summary says of
   * them: the summary of a million files without a million Job objects at once.
   */
  *endedInBatch(batchId: string): IterableIterator<EndedJob> {
    const rows = this.sql<[string], EndedJobRow>(
      `SELECT id, filename, target_path, state, bytes_written, sha256, last_error FROM jobs
         WHERE batch_id = ? AND state IN ('done', 'failed') ORDER BY priority, id`,
    ).iterate(batchId);
    for (const row of rows) {
      yield {
        id: row.id,
        filename: row.filename,
        targetPath: row.target_path,
        state: row.state,
        bytesWritten: row.bytes_written,
        sha256: row.sha256,
        lastError: row.last_error,
      };
    }
  }

  counts(batchId?: string): StateCounts {
    // The whole list: every job by state less the cleared ones, each from an index (migration 8 indexes the cleared
    // rows), since cleared is in no index of every row and reading it means reading the whole table.
    const rows =
      batchId === undefined
        ? this.sql<[], { state: JobState; n: number }>(
            `SELECT state, COUNT(*) - (SELECT COUNT(*) FROM jobs AS gone WHERE gone.cleared = 1 AND gone.state = jobs.state) AS n
               FROM jobs GROUP BY state`,
          ).all()
        : this.sql<[string], { state: JobState; n: number }>(`SELECT state, COUNT(*) AS n FROM jobs WHERE cleared = 0 AND batch_id = ? GROUP BY state`).all(
            batchId,
          );
    const counts = Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as StateCounts;
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  /** Listing sizes of the jobs still to do (queued or active): how many, how many with a known size, their sum. */
  pendingSizes(batchId?: string): PendingSizes {
    const row = this.sql<(string | number)[], { count: number; knownCount: number | null; knownBytes: number | null }>(
      `SELECT COUNT(*) AS count, SUM(expected_size > 0) AS knownCount, SUM(expected_size) AS knownBytes FROM jobs
         WHERE state IN ('queued', 'active') AND cleared = 0 ${batchId !== undefined ? 'AND batch_id = ?' : ''}`,
    ).get(...(batchId !== undefined ? [batchId] : []));
    return { count: row?.count ?? 0, knownCount: row?.knownCount ?? 0, knownBytes: row?.knownBytes ?? 0 };
  }

  /**
   * Takes the next runnable job (queued, its retry time reached) and marks it active in one step, so
   * two workers never take the same job.
   */
  claimNext(nowMs: number, batchId?: string): Job | undefined {
    return this.transaction(() => {
      const row = this.sql<(string | number)[], JobRow>(
        `SELECT * FROM jobs WHERE state = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
           ${batchId !== undefined ? 'AND batch_id = ?' : ''} ORDER BY priority, id LIMIT 1`,
      ).get(...(batchId !== undefined ? [nowMs, batchId] : [nowMs]));
      if (!row) return undefined;
      const stamp = now();
      this.sql(
        `UPDATE jobs SET state = 'active', attempts = attempts + 1, started_at = ?, updated_at = ?, bytes_received = 0,
             bytes_written = 0, sha256 = NULL, temp_name = NULL, reused_from = NULL WHERE id = ?`,
      ).run(stamp, stamp, row.id);
      return this.get(row.id);
    });
  }

  /** When the earliest waiting retry becomes runnable (ms since epoch), if any job waits. */
  nextRetryAt(batchId?: string): number | undefined {
    const row = this.sql<(string | number)[], { at: number | null }>(
      `SELECT MIN(next_attempt_at) AS at FROM jobs WHERE state = 'queued' AND next_attempt_at IS NOT NULL
         ${batchId !== undefined ? 'AND batch_id = ?' : ''}`,
    ).get(...(batchId !== undefined ? [batchId] : []));
    return row?.at ?? undefined;
  }

  /** Where the job keeps the beginning of its body now (null: nothing kept); the bytes are set when an attempt stops. */
  setResumePoint(id: number, point: ResumePoint | null): void {
    this.sql('UPDATE jobs SET resume_name = ?, resume_validator = ?, resume_bytes = 0, updated_at = ? WHERE id = ?').run(
      point?.name ?? null,
      point?.validator ?? null,
      now(),
      id,
    );
  }

  /**
   * What an attempt that stopped part-way had received, and how much of the body is kept on disk to resume from (none
   * when no resume file is recorded): the queue's row says whether the file resumes or starts again.
   */
  recordStop(id: number, bytesReceived: number, keptBytes: number): void {
    this.sql('UPDATE jobs SET bytes_received = ?, resume_bytes = CASE WHEN resume_name IS NULL THEN 0 ELSE ? END WHERE id = ?').run(
      bytesReceived,
      keptBytes,
      id,
    );
  }

  /** The resume files recorded in a folder (their names), so a start can tell them from ones nobody will resume. */
  resumeNamesIn(folder: string): Set<string> {
    const rows = this.sql<[string], { name: string }>('SELECT resume_name AS name FROM jobs WHERE folder = ? AND resume_name IS NOT NULL').all(folder);
    return new Set(rows.map((row) => row.name));
  }

  recordTemporaryFile(id: number, tempName: string): void {
    this.sql('UPDATE jobs SET temp_name = ?, updated_at = ? WHERE id = ?').run(tempName, now(), id);
  }

  /** The file is complete and checked in its temporary name; the rename into place comes next. */
  recordVerified(id: number, sha256: string, bytesWritten: number): void {
    this.sql('UPDATE jobs SET sha256 = ?, bytes_written = ?, updated_at = ? WHERE id = ?').run(sha256, bytesWritten, now(), id);
  }

  /** `mtimeMs`: the file's modification time once in place (quick-check.ts), when it was read. */
  markDone(id: number, result: { sha256: string; bytesReceived: number; bytesWritten: number; mtimeMs?: number }): void {
    const stamp = now();
    this.sql(
      `UPDATE jobs SET state = 'done', sha256 = ?, bytes_received = ?, bytes_written = ?, temp_name = NULL, last_error = NULL,
           last_error_kind = NULL, next_attempt_at = NULL, resume_name = NULL, resume_validator = NULL, resume_bytes = 0,
           checked_mtime_ms = NULL, written_mtime_ms = ?, reused_from = NULL, finished_at = ?, updated_at = ? WHERE id = ?`,
    ).run(result.sha256, result.bytesReceived, result.bytesWritten, result.mtimeMs ?? null, stamp, stamp, id);
  }

  /**
   * The modification times a quick check found of finished files whose time was not recorded (its first look at
   * them, quick-check.ts): compared from then on.
   */
  recordWrittenTimes(files: readonly { id: number; mtimeMs: number }[]): void {
    if (files.length === 0) return;
    const record = this.sql('UPDATE jobs SET written_mtime_ms = ? WHERE id = ? AND written_mtime_ms IS NULL');
    this.transaction(() => {
      for (const file of files) record.run(file.mtimeMs, file.id);
    });
  }

  /**
   * Finished files a check found gone or changed on disk (`kind`: MISSING_ON_DISK or CHANGED_ON_DISK, with why):
   * failed with that kind, so that a campaign's counts say so until they are fetched again. Only a job still
   * finished at the path that was looked at is marked (a sync may have moved it meanwhile); returns those marked.
   */
  failFinished(files: readonly { id: number; targetPath: string; kind: string; message: string }[]): number[] {
    const fail = this.sql(
      `UPDATE jobs SET state = 'failed', last_error_kind = ?, last_error = ?, temp_name = NULL, next_attempt_at = NULL,
           finished_at = ?, updated_at = ? WHERE id = ? AND target_path = ? AND state = 'done'`,
    );
    return this.transaction(() => {
      const stamp = now();
      return files.filter((file) => fail.run(file.kind, file.message, stamp, stamp, file.id, file.targetPath).changes > 0).map((file) => file.id);
    });
  }

  /** Finished files hashed and found intact, with the modification time each had then (for a quick verify). */
  recordChecked(checked: readonly { id: number; mtimeMs: number }[]): void {
    const record = this.sql('UPDATE jobs SET checked_mtime_ms = ? WHERE id = ?');
    this.transaction(() => {
      for (const file of checked) record.run(file.mtimeMs, file.id);
    });
  }

  /**
   * The file was put in place from a finished download in the folder `from` (reuse-finder.ts): done now, with that
   * file's SHA-256 and size, started now too (a campaign counts it among the files its sync brought), and marked
   * reused from there, so that no count or row calls it downloaded.
   */
  markReused(id: number, result: { sha256: string; bytesWritten: number; from: string; mtimeMs?: number }): void {
    const stamp = now();
    this.sql(
      `UPDATE jobs SET state = 'done', sha256 = ?, bytes_received = 0, bytes_written = ?, temp_name = NULL, last_error = NULL,
           last_error_kind = NULL, next_attempt_at = NULL, resume_name = NULL, resume_validator = NULL, resume_bytes = 0,
           checked_mtime_ms = NULL, written_mtime_ms = ?, reused_from = ?, started_at = ?, finished_at = ?, updated_at = ? WHERE id = ?`,
    ).run(result.sha256, result.bytesWritten, result.mtimeMs ?? null, result.from, stamp, stamp, stamp, id);
  }

  markFailed(id: number, kind: string, message: string): void {
    const stamp = now();
    this.sql(
      `UPDATE jobs SET state = 'failed', last_error_kind = ?, last_error = ?, temp_name = NULL, next_attempt_at = NULL,
           finished_at = ?, updated_at = ? WHERE id = ?`,
    ).run(kind, message, stamp, stamp, id);
  }

  /** Back to the queue after a failed attempt, not before `nextAttemptAt`. */
  scheduleRetry(id: number, nextAttemptAt: number | null, kind: string | null, message: string | null): void {
    this.sql(
      `UPDATE jobs SET state = 'queued', next_attempt_at = ?, last_error_kind = ?, last_error = ?, temp_name = NULL,
           sha256 = NULL, updated_at = ? WHERE id = ?`,
    ).run(nextAttemptAt, kind, message, now(), id);
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
    this.sql(
      `UPDATE jobs SET state = 'queued', attempts = 0, last_error = NULL, last_error_kind = NULL, next_attempt_at = NULL,
           finished_at = NULL, updated_at = ? WHERE id = ?`,
    ).run(now(), id);
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
    return this.sql<[], { folder: string }>('SELECT DISTINCT folder FROM jobs')
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
