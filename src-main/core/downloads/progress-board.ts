// What the engine reports of its progress: which jobs changed since the last update, the bytes moved, the
// queue's figures. It gathers between updates and builds each one; the engine decides when one is due.
import type { ErrorData } from '../../../src-shared/errors';
import type { JobView, OverallProgress, ProgressUpdate } from '../../../src-shared/downloads/progress-types';
import { CostBoundedValue } from './cost-bounded-value';
import type { DownloadLedger, ViewedJob } from './download-ledger';
import { estimateSecondsLeft, jobView, queuedView } from './job-views';
import type { QueuedJob } from './listing-enqueuer';
import type { RunTally } from './run-tally';
import { SpeedMeter } from './speed-meter';

/**
 * The most newly queued jobs one update describes: a listing of a million files is queued faster than any front end
 * could take its views, so the rest follow in later updates (read back from the ledger then), a bounded number each.
 */
export const MAX_NEW_VIEWS = 1_000;

/** A transfer in flight as the board reads it. */
export interface TransferCounters {
  bytesReceived: number;
  bytesWritten: number;
  speed: SpeedMeter;
}

export interface ProgressBoardSource {
  ledger: DownloadLedger;
  /** The batch the engine is limited to, if any. */
  batchId: string | undefined;
  /** Transfers in flight, by job id (the engine's own map: read, never changed here). */
  running: ReadonlyMap<number, TransferCounters>;
  currentRun: RunTally;
  /** The queue's pause, as the engine holds it now. */
  pause(): { queuePaused: boolean; pauseReason: ErrorData | null };
}

export class ProgressBoard {
  private readonly changed = new Set<number>();
  /** Jobs queued since the last update and not changed since: their views need no reading back. At most MAX_NEW_VIEWS. */
  private readonly newlyQueued = new Map<number, QueuedJob>();
  /** Newly queued jobs beyond those, not described yet: later updates read them back from the ledger. */
  private readonly backlog = new IdRuns();
  private readonly speed = new SpeedMeter();
  private bytesReceived = 0;
  private bytesWritten = 0;
  private readonly counts: CostBoundedValue<ReturnType<DownloadLedger['counts']>>;
  private readonly pendingSizes: CostBoundedValue<ReturnType<DownloadLedger['pendingSizes']>>;
  /** The last update carried figures from an earlier reading: another one is due. */
  private owed = false;

  constructor(private readonly source: ProgressBoardSource) {
    this.counts = new CostBoundedValue(() => source.ledger.counts(source.batchId));
    this.pendingSizes = new CostBoundedValue(() => source.ledger.pendingSizes(source.batchId));
  }

  /** The job's state or figures changed: the next update carries its view. */
  touched(id: number): void {
    this.changed.add(id);
  }

  /** Jobs newly queued: the next updates describe them (`describe`), or only count them. */
  queued(jobs: readonly QueuedJob[], describe = true): void {
    if (!describe) {
      // The queue's figures changed all the same.
      this.owed = true;
      return;
    }
    for (const job of jobs) {
      if (this.newlyQueued.size < MAX_NEW_VIEWS && this.backlog.isEmpty()) this.newlyQueued.set(job.id, job);
      else this.backlog.add(job.id);
    }
  }

  /** Bytes a transfer moved since its last report. */
  moved(received: number, written: number): void {
    this.speed.add(received);
    this.bytesReceived += received;
    this.bytesWritten += written;
  }

  /** Something happened since the last update (a transfer in flight always has news). */
  hasNews(): boolean {
    return this.changed.size > 0 || this.newlyQueued.size > 0 || !this.backlog.isEmpty() || this.source.running.size > 0 || this.owed;
  }

  /** Forgets what gathered, for when nobody listens (a command-line run with --json): no views are built for no one. */
  discard(): void {
    this.changed.clear();
    this.newlyQueued.clear();
    this.backlog.clear();
    this.owed = false;
  }

  /** The update due now; `force` reads the ledger's counts afresh whatever their cost. */
  update(force: boolean): ProgressUpdate {
    for (const id of this.source.running.keys()) this.changed.add(id);
    // Changed jobs are read back in one query; a chunk of a long listing makes thousands of jobs new at once,
    // and those untouched since are described from what the enqueuer queued.
    const jobs = this.source.ledger.getMany([...this.changed]).map((job) => this.view(job));
    for (const [id, queued] of this.newlyQueued) if (!this.changed.has(id)) jobs.push(queuedView(queued));
    const room = MAX_NEW_VIEWS - this.newlyQueued.size;
    if (room > 0 && !this.backlog.isEmpty()) {
      // Read a run of ids at a time, only what the views show: a million-entry listing is described this way.
      for (const [first, last] of this.backlog.take(room)) {
        for (const job of this.source.ledger.viewedBetween(first, last)) if (!this.changed.has(job.id)) jobs.push(this.view(job));
      }
    }
    this.changed.clear();
    this.newlyQueued.clear();
    const { overall, stale } = this.figures(!force);
    // Figures from an earlier reading are followed by fresh ones as soon as the budget allows, even if nothing changes.
    this.owed = stale;
    return { jobs, overall };
  }

  /** The queue's figures as they are now. */
  overall(): OverallProgress {
    return this.figures(false).overall;
  }

  view(job: ViewedJob): JobView {
    const run = this.source.running.get(job.id);
    return jobView(job, run && { bytesReceived: run.bytesReceived, bytesWritten: run.bytesWritten, speed: run.speed.bytesPerSecond() });
  }

  /**
   * The overall figures. For progress updates (`bounded`) the ledger's counts may be an earlier reading (`stale`),
   * so that counting a queue of 100,000 jobs ten times a second does not take the time the downloads need.
   */
  private figures(bounded: boolean): { overall: OverallProgress; stale: boolean } {
    const counts = this.counts.reading(bounded);
    const speed = this.speed.bytesPerSecond();
    let stale = counts.stale;
    let etaSeconds: number | null = null;
    if (speed > 0) {
      const pending = this.pendingSizes.reading(bounded);
      stale ||= pending.stale;
      let inFlight = 0;
      for (const run of this.source.running.values()) inFlight += run.bytesReceived;
      etaSeconds = estimateSecondsLeft(speed, pending.value, inFlight);
    }
    const total = Object.values(counts.value).reduce((sum, n) => sum + n, 0);
    const overall: OverallProgress = {
      total,
      ...counts.value,
      bytesReceived: this.bytesReceived,
      bytesWritten: this.bytesWritten,
      speed,
      etaSeconds,
      ...this.source.pause(),
      run: this.source.currentRun.figures(counts.value),
    };
    return { overall, stale };
  }
}

/** Job ids in the order they came, kept as runs of consecutive ids (the enqueuer's new jobs come in runs): a million in a few numbers. */
class IdRuns {
  /** First and last id of each run, from `head` on; those before `head` were taken. */
  private runs: number[] = [];
  private head = 0;

  isEmpty(): boolean {
    return this.head === this.runs.length;
  }

  add(id: number): void {
    const last = this.runs.length - 1;
    if (!this.isEmpty() && this.runs[last] === id - 1) this.runs[last] = id;
    else this.runs.push(id, id);
  }

  /** Up to `limit` ids from the front, as runs: the first and last id of each. */
  take(limit: number): [number, number][] {
    const taken: [number, number][] = [];
    let count = 0;
    while (count < limit && !this.isEmpty()) {
      const first = this.runs[this.head]!;
      const last = Math.min(this.runs[this.head + 1]!, first + (limit - count) - 1);
      taken.push([first, last]);
      count += last - first + 1;
      if (last === this.runs[this.head + 1]) this.head += 2;
      else this.runs[this.head] = last + 1;
    }
    if (this.isEmpty()) this.clear();
    return taken;
  }

  clear(): void {
    this.runs = [];
    this.head = 0;
  }
}
