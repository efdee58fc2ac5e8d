// A sync's look at every finished file of its campaign (the quick check, downloads/quick-check.ts), made while its
// listings are read: a settled window saves its listing, never the look at the disk. Threads of their own read the
// finished files from the state database (read-only connections beside the sync's: WAL lets them read while the
// sync writes), each a range of the set, look at each on disk, and answer a page at a time with only the files that
// fail the check and the first looks to record: at a million files the reading and the looking take seconds of CPU,
// none of them on the thread that reads the listings, and a cold disk answers several looks at once. The threads run
// the check's own functions, sent as source (as file-hashing.ts sends its worker). Should a thread fail to load
// better-sqlite3 (it resolves the module on its own, from the path this process loaded), the main thread reads and
// looks, a page at a time, so the check never depends on threads.
import { createRequire } from 'node:module';
import { lstatSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { StateDatabase } from '../state/state-database';
import { lookWith, quickVerdict } from '../downloads/quick-check';
import { noLongerListedSql } from './file-standing';

/** A finished file the check found gone or changed (`verdict`), as the page it was read in had it. */
interface QuickCheckFailure {
  jobId: number;
  relativePath: string;
  targetPath: string;
  verdict: 'missing' | 'changed';
}

export interface QuickCheckResult {
  /** Finished files looked at. */
  looked: number;
  failed: QuickCheckFailure[];
  /** Files whose time was never recorded, with the time found: their first look (DownloadLedger.recordWrittenTimes). */
  firstLooks: { id: number; mtimeMs: number }[];
}

/**
 * A finished file as a page gives it: its job's id, relative path, target path, size written, times in whole seconds
 * (null: none), and its row's place in the set (where the next page begins).
 */
type Row = [number, string, string, number, number | null, number | null, number];

/** What looking at a page found: failures, and [id, mtimeMs] pairs of first looks. */
interface PageFindings {
  looked: number;
  failed: QuickCheckFailure[];
  firstLooks: number[];
}

/** Files a page: a few milliseconds of SQLite at a time. */
const PAGE = 4000;
/** Threads at most, one a core beside the main thread's; a set smaller than THREAD_FILES a thread has fewer. */
const MOST_THREADS = 4;
const THREAD_FILES = 50_000;

/** A range of the set by row: after `after`, up to `upTo` (the end when null). */
interface Range {
  after: number;
  upTo: number | null;
}

/**
 * Pages in the order the set's rows are stored (NOT INDEXED: by rowid, the table read in order) rather than through
 * the key by relative path, which would look each row up again: the order does not matter to the check.
 */
const PAGE_SQL = `SELECT j.id, f.relative_path, j.target_path, j.bytes_written,
    CAST(j.written_mtime_ms / 1000 AS INTEGER), CAST(j.checked_mtime_ms / 1000 AS INTEGER), f.rowid
  FROM campaign_files f NOT INDEXED JOIN jobs j ON j.target_path = f.target_path
  WHERE f.rowid > @after AND (@upTo IS NULL OR f.rowid <= @upTo) AND f.campaign_id = @campaignId AND j.state = 'done'
    AND ${noLongerListedSql('(SELECT c.listed_whole_at FROM campaigns c WHERE c.id = @campaignId)')} = 0
  ORDER BY f.rowid LIMIT @pageSize`;

/** The check's functions, handed to lookAtPage: the thread defines its own from their source. */
interface Check {
  look: (file: string) => { size: number; mtimeMs: number };
  verdict: typeof quickVerdict;
}

/** Looks at each file of a page. Self-contained (the check comes as an argument): the thread runs its source too. */
function lookAtPage(rows: readonly Row[], { look, verdict: verdictOf }: Check): PageFindings {
  const failed: QuickCheckFailure[] = [];
  const firstLooks: number[] = [];
  for (const [jobId, relativePath, targetPath, bytesWritten, writtenS, checkedS] of rows) {
    const found = look(targetPath);
    const verdict = verdictOf(found.size, found.mtimeMs, bytesWritten, writtenS ?? -1, checkedS ?? -1);
    if (verdict === 'missing' || verdict === 'changed') failed.push({ jobId, relativePath, targetPath, verdict });
    else if (verdict === 'first-look') firstLooks.push(jobId, found.mtimeMs);
  }
  return { looked: rows.length, failed, firstLooks };
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { lstatSync } = require('node:fs');
const quickVerdict = (${quickVerdict.toString()});
const lookWith = (${lookWith.toString()});
const lookAtPage = (${lookAtPage.toString()});
const { sqlite, file, campaignId, range, sql, pageSize } = workerData;
let db;
try {
  const Database = require(sqlite);
  db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
} catch (error) {
  parentPort.postMessage({ cannotRead: String(error && error.message) });
}
if (db) {
  const page = db.prepare(sql).raw();
  const check = { look: (target) => lookWith(lstatSync, target), verdict: quickVerdict };
  for (let after = range.after; ; ) {
    const rows = page.all({ campaignId, after, upTo: range.upTo, pageSize });
    if (rows.length === 0) break;
    after = rows[rows.length - 1][6];
    parentPort.postMessage(lookAtPage(rows, check));
  }
  db.close();
  parentPort.postMessage({ done: true });
}
`;

type Answer = PageFindings | { cannotRead: string } | { done: true };

export interface QuickCheckOptions {
  signal?: AbortSignal;
  /** The better-sqlite3 module the threads load (this process's own unless told). */
  sqliteModule?: string;
  /** Threads at most (one a core beside the main thread's, up to MOST_THREADS, unless told). */
  threads?: number;
}

/**
 * The check of a campaign's finished files, begun at once; `finish` waits for it. Stopped by `signal` (finish then
 * rejects with its reason) and by `close`, which every caller calls.
 */
export class QuickCheckPass {
  private readonly result: QuickCheckResult = { looked: 0, failed: [], firstLooks: [] };
  private readonly checked: Promise<void>;
  private readonly workers: Worker[] = [];
  private closed = false;
  private stopped: ((error: Error) => void) | undefined;
  private readonly signal: AbortSignal | undefined;
  private readonly stop = (): void => this.stopped?.(this.signal?.reason instanceof Error ? this.signal.reason : new Error('The sync was cancelled.'));

  constructor(
    private readonly state: StateDatabase,
    private readonly campaignId: number,
    private readonly options: QuickCheckOptions = {},
  ) {
    const { signal } = options;
    this.signal = signal;
    this.checked = new Promise<void>((resolve, reject) => {
      this.stopped = reject;
      signal?.addEventListener('abort', this.stop, { once: true });
      if (signal?.aborted) this.stop();
      else if (!this.anyFinished()) resolve();
      else this.inThread(resolve, reject);
    });
    // Its failure is met by finish(); until then it must not count as unhandled.
    this.checked.catch(() => undefined);
  }

  /** Every finished file looked at; the first failure (of the reading, or the cancel) otherwise. */
  async finish(): Promise<QuickCheckResult> {
    await this.checked;
    return this.result;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.signal?.removeEventListener('abort', this.stop);
    this.stopped?.(new Error('The quick check was closed.'));
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  /** A first sync's set has none: no thread is started for it. */
  private anyFinished(): boolean {
    const sql = `SELECT EXISTS (SELECT 1 FROM campaign_files f JOIN jobs j ON j.target_path = f.target_path WHERE f.campaign_id = ? AND j.state = 'done')`;
    return this.state.connection.prepare<[number], number>(sql).pluck().get(this.campaignId) === 1;
  }

  /** A thread a range; done when all are, or on the main thread when they cannot read the state database. */
  private inThread(resolve: () => void, reject: (error: Error) => void): void {
    const ranges = this.ranges();
    let running = ranges.length;
    /** The threads could not read the state database: the main thread reads the whole set, and they are let go. */
    let onMainThread = false;
    for (const range of ranges) {
      const workerData = {
        sqlite: this.options.sqliteModule ?? betterSqlitePath(),
        file: this.state.connection.name,
        campaignId: this.campaignId,
        range,
        sql: PAGE_SQL,
        pageSize: PAGE,
      };
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
      this.workers.push(worker);
      /** The thread said it has looked at every file of its range. */
      let done = false;
      worker.on('error', reject);
      worker.on('exit', () => {
        if (!done && !onMainThread) reject(new Error('The quick check stopped before its end.'));
      });
      worker.on('message', (answer: Answer) => {
        if (onMainThread) return;
        if ('cannotRead' in answer) {
          onMainThread = true;
          this.result.looked = 0;
          this.result.failed.length = 0;
          this.result.firstLooks.length = 0;
          for (const other of this.workers) void other.terminate();
          this.onMainThread().then(resolve, reject);
        } else if ('done' in answer) {
          done = true;
          running -= 1;
          if (running === 0) resolve();
        } else this.take(answer);
      });
    }
  }

  /** The set in ranges of about equal numbers of files, one a thread. */
  private ranges(): Range[] {
    const most = this.options.threads ?? Math.min(availableParallelism() - 1, MOST_THREADS);
    if (most <= 1) return [{ after: 0, upTo: null }];
    const db = this.state.connection;
    const files = db.prepare<[number], number>('SELECT COUNT(*) FROM campaign_files WHERE campaign_id = ?').pluck().get(this.campaignId) ?? 0;
    const threads = Math.max(1, Math.min(most, this.options.threads === undefined ? Math.ceil(files / THREAD_FILES) : files));
    const edge = db
      .prepare<[number, number], number>('SELECT rowid FROM campaign_files NOT INDEXED WHERE campaign_id = ? ORDER BY rowid LIMIT 1 OFFSET ?')
      .pluck();
    const edges = Array.from({ length: threads - 1 }, (_, index) => edge.get(this.campaignId, Math.floor(((index + 1) * files) / threads) - 1)!);
    return [...edges, null].map((upTo, index) => ({ after: index === 0 ? 0 : edges[index - 1]!, upTo }));
  }

  /** The same pages read and looked at here, the event loop let go between them. */
  private async onMainThread(): Promise<void> {
    const page = this.state.connection.prepare<[{ campaignId: number; after: number; upTo: null; pageSize: number }], Row>(PAGE_SQL).raw();
    const check: Check = { look: (target) => lookWith(lstatSync, target), verdict: quickVerdict };
    for (let after = 0; !this.closed;) {
      this.signal?.throwIfAborted();
      const rows = page.all({ campaignId: this.campaignId, after, upTo: null, pageSize: PAGE });
      if (rows.length === 0) return;
      after = rows.at(-1)![6];
      this.take(lookAtPage(rows, check));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private take(findings: PageFindings): void {
    this.result.looked += findings.looked;
    for (const failure of findings.failed) this.result.failed.push(failure);
    for (let at = 0; at < findings.firstLooks.length; at += 2) {
      this.result.firstLooks.push({ id: findings.firstLooks[at]!, mtimeMs: findings.firstLooks[at + 1]! });
    }
  }
}

/** Where this process loads better-sqlite3 from, for the thread to load the same. */
function betterSqlitePath(): string {
  return createRequire(import.meta.url).resolve('better-sqlite3');
}
