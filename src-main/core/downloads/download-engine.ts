// The download engine: a queue over the ledger with a concurrency limit, pause/resume/cancel/retry and
// throttled progress, with one shared session. It orchestrates; the decisions live beside it: what a listing
// queues (listing-enqueuer), what a failed attempt leads to (failure-decision), what a start does with a crashed
// run's leftovers (crash-recovery), how jobs look to the front ends (job-views). Plain Node: the command line,
// the desktop app and web mode all drive this one class.
import { EventEmitter } from 'node:events';
import { stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { FileEntry } from '../../../src-shared/api/schemas';
import type { ErrorData } from '../../../src-shared/errors';
import type { MlsoClient } from '../api/mlso-client';
import { CancelledError, InvalidInputError, toErrorData } from '../errors';
import { recoverInterruptedJobs } from './crash-recovery';
import { freeSpaceOf, type FreeSpaceProbe } from './disk-space';
import { prepareDownloadFolder, type MakeFolder } from './download-folder';
import { downloadFile } from './download-file';
import type { DownloadLedger, Job, JobState } from './download-ledger';
import type { EngineEventMap, JobView, OverallProgress, ProgressUpdate } from '../../../src-shared/downloads/progress-types';
import type { ExistingFilePolicy } from './existing-files';
import { decideFailure } from './failure-decision';
import type { OpenFileSink } from './file-sink';
import type { ResumePoint } from './resume-file';
import { ListingEnqueuer, type EnqueueResult, type EnqueuerHost, type SubfolderOf } from './listing-enqueuer';
import type { ReuseBy } from './reuse-finder';
import { ProgressBoard } from './progress-board';
import { DEFAULT_BACKOFF, type BackoffSettings } from './retry-policy';
import { RunTally } from './run-tally';
import { SessionKeeper } from './session-keeper';
import { SpeedMeter } from './speed-meter';
import { SharedRateLimit } from '../network/shared-rate-limit';

import { CONCURRENCY_LIMITS, DEFAULT_MAX_ATTEMPTS } from './download-limits';
const QUEUE_PAUSED_SETTING = 'queue-paused';

export interface DownloadEngineOptions {
  client: MlsoClient;
  ledger: DownloadLedger;
  /** The registered e-mail used to sign in (read each time, so the app can change it). */
  username: () => string | undefined;
  concurrency?: number;
  maxAttempts?: number;
  stallTimeoutMs?: number;
  backoff?: BackoffSettings;
  existingFiles?: ExistingFilePolicy;
  /** How a file finished in another folder is reused instead of fetched: copied (the default) or hard-linked. */
  reuseBy?: ReuseBy;
  /** Limits the engine to the jobs of one batch (the command line's run); the app leaves it unset. */
  batchId?: string;
  progressIntervalMs?: number;
  /**
   * Whether progress updates describe files as they are queued (the app's list shows them; the default). The
   * command line's displays show a file once it starts, so it leaves them out: a million views for no one.
   */
  describeNewJobs?: boolean;
  freeSpace?: FreeSpaceProbe;
  openSink?: OpenFileSink;
  /** Bytes of a body held in memory before any is written to its resume file (resume-file-writer.ts). */
  heldBodyBytes?: number;
  /** The whole run's download rate cap in bytes per second, over all its connections (null or absent: none). */
  rateLimit?: number | null;
  /** Creates a download folder (and its parents); a port so tests can meet file systems they cannot mount. */
  makeFolder?: MakeFolder;
  random?: () => number;
}

export interface EnqueueOptions {
  existingFiles?: ExistingFilePolicy;
  /** Spreads the files over sub-folders of the download folder (a campaign's folder layout). */
  subfolderOf?: SubfolderOf;
}

export type { EnqueueResult };

export type SettleOutcome = 'finished' | 'paused';

interface RunningJob {
  job: Job;
  controller: AbortController;
  stopReason?: 'pause' | 'cancel' | 'shutdown';
  /** Where the beginning of the body is kept for resuming, as the attempt last said (null: nothing kept). */
  resume: ResumePoint | null;
  bytesReceived: number;
  bytesWritten: number;
  speed: SpeedMeter;
}

export class DownloadEngine extends EventEmitter<EngineEventMap> {
  private readonly ledger: DownloadLedger;
  private readonly client: MlsoClient;
  private readonly session: SessionKeeper;
  private concurrency: number;
  private maxAttempts: number;
  private existingFiles: ExistingFilePolicy;
  private reuseBy: ReuseBy;
  private readonly running = new Map<number, RunningJob>();
  private readonly renewedFor = new Set<number>();
  private readonly workers = new Set<Promise<void>>();
  /** Jobs still flushing or renaming after their worker moved on. */
  private readonly finishing = new Set<Promise<void>>();
  private workerCount = 0;
  private started = false;
  private closed = false;
  private closing: Promise<void> | undefined;
  /** Fires on close: the enqueuers' reads of files on disk (hashing a file to reuse) stop with it. */
  private readonly stopping = new AbortController();
  private queuePaused: boolean;
  /**
   * Only the app's queue (no batch) remembers a pause across restarts. A batch is one command-line run:
   * its pause ends with the run, and the next run re-checks the space and carries on.
   */
  private readonly persistsPause: boolean;
  private pauseReason: ErrorData | null = null;
  private wake: (() => void) | undefined;
  private progressTimer: NodeJS.Timeout | undefined;
  private settleWaiters: ((outcome: SettleOutcome) => void)[] = [];
  /** The work in progress now, as the status bar reports it (the progress figures are the whole list's). */
  private readonly currentRun = new RunTally();
  private readonly progress: ProgressBoard;
  /** One cap shared by every transfer, so the total holds whatever the concurrency. */
  private readonly pace: SharedRateLimit;

  constructor(private readonly options: DownloadEngineOptions) {
    super();
    this.ledger = options.ledger;
    this.client = options.client;
    this.session = new SessionKeeper(options.client, options.username);
    this.concurrency = clampConcurrency(options.concurrency ?? CONCURRENCY_LIMITS.default);
    this.maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
    this.existingFiles = options.existingFiles ?? 'skip';
    this.reuseBy = options.reuseBy ?? 'copy';
    this.pace = new SharedRateLimit(options.rateLimit ?? null);
    this.persistsPause = options.batchId === undefined;
    this.queuePaused = this.persistsPause && this.ledger.getSetting(QUEUE_PAUSED_SETTING) === 'true';
    this.progress = new ProgressBoard({
      ledger: this.ledger,
      batchId: options.batchId,
      running: this.running,
      currentRun: this.currentRun,
      pause: () => ({ queuePaused: this.queuePaused, pauseReason: this.pauseReason }),
    });
  }

  // ---- Lifecycle -------------------------------------------------------------------------------

  /** Recovers from an earlier crash, then starts the workers. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await recoverInterruptedJobs(this.ledger);
    // Files left queued by an earlier session are the first run's.
    const left = this.ledger.counts(this.options.batchId);
    if (left.queued + left.active > 0) this.currentRun.begin();
    this.progressTimer = setInterval(() => this.emitProgress(), this.options.progressIntervalMs ?? 100);
    this.progressTimer.unref();
    this.spawnWorkers();
  }

  /** Stops the workers; transfers in flight go back to the queue (nothing partial stays on disk). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      this.stopping.abort(new CancelledError('The download'));
      for (const run of this.running.values()) this.stop(run, 'shutdown');
      this.nudge();
      await Promise.all(this.workers);
      await Promise.all(this.finishing);
      clearInterval(this.progressTimer);
      this.emitProgress();
      this.resolveSettled('paused');
    })();
    return this.closing;
  }

  /** Signs in now (before any download), so a wrong e-mail is reported before anything is queued. */
  async signIn(): Promise<void> {
    await this.session.ready();
  }

  /** Resolves when nothing is running or runnable any more, or when the queue is paused and idle. */
  whenSettled(): Promise<SettleOutcome> {
    return new Promise((resolve) => {
      this.settleWaiters.push(resolve);
      this.checkSettled();
    });
  }

  // ---- Adding work -----------------------------------------------------------------------------

  /** Queues a listing's files for `folder`, after checking names, what is already there and free space. */
  async enqueue(entries: readonly FileEntry[], folder: string, options: EnqueueOptions = {}): Promise<EnqueueResult> {
    const enqueuer = await this.openEnqueuer(folder, options);
    await enqueuer.add(entries);
    return enqueuer.result;
  }

  /**
   * Takes a listing into the queue chunk by chunk as it arrives (`add` per chunk): each chunk's files can start
   * while later chunks are still on their way. The folder is created and checked here, before any chunk.
   */
  async openEnqueuer(folder: string, options: EnqueueOptions = {}): Promise<ListingEnqueuer> {
    const absolute = path.resolve(folder);
    await prepareDownloadFolder(absolute, this.options.makeFolder);
    const host: EnqueuerHost = {
      ledger: this.ledger,
      batchId: this.options.batchId ?? null,
      isRunning: (id) => this.running.has(id),
      addressProblem: (url) => this.client.downloadAddressRefusal(url)?.message,
      freeSpace: this.options.freeSpace ?? freeSpaceOf,
      reuseBy: this.reuseBy,
      signal: this.stopping.signal,
      onQueued: (jobs) => {
        this.progress.queued(jobs, this.options.describeNewJobs !== false);
        this.currentRun.joined(jobs.map((job) => job.id));
        this.nudge();
      },
    };
    return ListingEnqueuer.open(host, absolute, options.existingFiles ?? this.existingFiles, options.subfolderOf);
  }

  // ---- Controls --------------------------------------------------------------------------------

  setConcurrency(concurrency: number): void {
    this.concurrency = clampConcurrency(concurrency);
    if (this.started && !this.closed) this.spawnWorkers();
    this.nudge();
  }

  setMaxAttempts(maxAttempts: number): void {
    this.maxAttempts = Math.max(1, Math.round(maxAttempts));
  }

  setExistingFilePolicy(policy: ExistingFilePolicy): void {
    this.existingFiles = policy;
  }

  setReuseBy(reuseBy: ReuseBy): void {
    this.reuseBy = reuseBy;
  }

  /** A new speed cap in bytes per second (null: none), taken at once by transfers in flight too. */
  setRateLimit(bytesPerSecond: number | null): void {
    this.pace.setRate(bytesPerSecond);
  }

  get settings(): { concurrency: number; maxAttempts: number; existingFiles: ExistingFilePolicy } {
    return { concurrency: this.concurrency, maxAttempts: this.maxAttempts, existingFiles: this.existingFiles };
  }

  /**
   * Pauses the whole queue: nothing new starts, and transfers in flight stop as paused (shown and counted as
   * paused, keeping what they received to resume from); resumeAll sends them back to the queue.
   */
  pauseAll(reason: ErrorData | null = null): void {
    this.queuePaused = true;
    this.pauseReason = reason;
    if (this.persistsPause) this.ledger.setSetting(QUEUE_PAUSED_SETTING, 'true');
    for (const run of this.running.values()) this.stop(run, 'pause');
    this.emit('queue-paused', reason);
    this.nudge();
  }

  /** Resumes the queue and every individually paused job. */
  resumeAll(): void {
    this.queuePaused = false;
    this.pauseReason = null;
    if (this.persistsPause) this.ledger.setSetting(QUEUE_PAUSED_SETTING, undefined);
    const resumed = this.ledger.moveStates(['paused'], 'queued', this.options.batchId);
    for (const id of resumed) this.progress.touched(id);
    this.currentRun.joined(resumed);
    this.emit('queue-resumed');
    this.nudge();
  }

  pause(id: number): void {
    const run = this.running.get(id);
    if (run) this.stop(run, 'pause');
    else this.transition(id, ['queued'], 'paused');
  }

  resume(id: number): void {
    if (this.transition(id, ['paused'], 'queued')) this.currentRun.joined([id]);
  }

  cancel(id: number): void {
    const run = this.running.get(id);
    if (run) {
      this.stop(run, 'cancel');
      return;
    }
    const kept = this.ledger.get(id);
    const from = this.transition(id, ['queued', 'paused', 'failed'], 'cancelled');
    if (from && kept?.resume) void this.dropResumeFile(id, kept.folder, kept.resume);
    // A failed file cancelled is still the run's if it failed in it; an older one does not join the run.
    if (from === 'failed') this.currentRun.restated(id, 'cancelled');
    else if (from) this.currentRun.finishedAs(id, 'cancelled');
  }

  retry(id: number): void {
    const job = this.ledger.get(id);
    if (job && (job.state === 'failed' || job.state === 'cancelled')) {
      this.ledger.resetForRetry(id);
      this.renewedFor.delete(id);
      this.currentRun.joined([id]);
      this.touched(id);
    }
  }

  retryFailed(): number {
    const failed = this.ledger.list({ states: ['failed'], ...(this.options.batchId !== undefined ? { batchId: this.options.batchId } : {}) });
    for (const job of failed) this.retry(job.id);
    return failed.length;
  }

  moveToFront(id: number): void {
    const job = this.ledger.get(id);
    if (job && (job.state === 'queued' || job.state === 'paused')) {
      this.ledger.moveToFront(id);
      this.touched(id);
    }
  }

  clearFinished(): number {
    const cleared = this.ledger.clearFinished();
    this.emitProgress(true);
    return cleared;
  }

  /** Moves a job from one of `from` to `to`; returns the state it left, or undefined when it was in none of them. */
  private transition(id: number, from: readonly JobState[], to: JobState): JobState | undefined {
    const job = this.ledger.get(id);
    if (!job || !from.includes(job.state)) return undefined;
    this.ledger.setState(id, to);
    this.touched(id);
    return job.state;
  }

  private touched(id: number): void {
    this.progress.touched(id);
    this.nudge();
  }

  /** Deletes what a job kept of its body for resuming, and its record: the file will not be resumed. */
  private async dropResumeFile(id: number, folder: string, kept: ResumePoint | null): Promise<void> {
    if (!kept) return;
    // The record first: a crash between the two leaves a file no job records, which the next start removes.
    this.ledger.setResumePoint(id, null);
    await unlink(path.join(folder, kept.name)).catch(() => undefined);
  }

  private stop(run: RunningJob, reason: NonNullable<RunningJob['stopReason']>): void {
    run.stopReason ??= reason;
    run.controller.abort();
  }

  // ---- Views -----------------------------------------------------------------------------------

  jobs(): JobView[] {
    return this.ledger.list(this.options.batchId !== undefined ? { batchId: this.options.batchId } : {}).map((job) => this.progress.view(job));
  }

  /** The views of these jobs in this order, with the live figures of those in flight; ids not found are left out. */
  viewsOf(ids: readonly number[]): JobView[] {
    const jobs = new Map(this.ledger.getMany(ids).map((job) => [job.id, job]));
    return ids.flatMap((id) => {
      const job = jobs.get(id);
      return job ? [this.progress.view(job)] : [];
    });
  }

  /** The queue's figures as they are now. */
  overall(): OverallProgress {
    return this.progress.overall();
  }

  /**
   * The update due now, whatever the time since the last one: for a front end that stopped listening and draws the
   * end once (the command line's display), which then needs only what changed, not every job of a million.
   */
  progressNow(): ProgressUpdate {
    return this.progress.update(true);
  }

  private emitProgress(force = false): void {
    if (!force && !this.progress.hasNews()) return;
    // Nobody listens (a command-line run with --json): the views would be built for no one.
    if (this.listenerCount('progress') === 0) this.progress.discard();
    else this.emit('progress', this.progress.update(force));
  }

  // ---- Workers ---------------------------------------------------------------------------------

  private spawnWorkers(): void {
    while (this.workerCount < this.concurrency) {
      const index = this.workerCount;
      this.workerCount += 1;
      const worker = this.work(index).finally(() => {
        this.workerCount -= 1;
        this.workers.delete(worker);
      });
      this.workers.add(worker);
    }
  }

  private async work(index: number): Promise<void> {
    while (!this.closed && index < this.concurrency) {
      if (this.queuePaused) {
        this.checkSettled();
        await this.nap();
        continue;
      }
      const job = this.ledger.claimNext(Date.now(), this.options.batchId);
      if (!job) {
        const retryAt = this.ledger.nextRetryAt(this.options.batchId);
        // Nothing runnable, nothing waiting for a retry, nothing in flight: the run is over.
        if (retryAt === undefined && this.running.size === 0) this.currentRun.idle();
        this.checkSettled();
        await this.nap(retryAt !== undefined ? Math.max(0, retryAt - Date.now()) : undefined);
        continue;
      }
      await this.run(job);
    }
  }

  /** Sleeps until something changes (a nudge) or `ms` pass. */
  private nap(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const previous = this.wake;
      this.wake = () => {
        clearTimeout(timer);
        previous?.();
        resolve();
      };
      if (ms !== undefined) timer = setTimeout(() => this.nudge(), ms);
    });
  }

  private nudge(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /**
   * Runs one job. Resolves when the job no longer needs its connection (its body has arrived, or it
   * failed), so the worker can start the next file while this one is flushed and renamed.
   */
  private run(job: Job): Promise<void> {
    let releaseSlot!: () => void;
    const slotFree = new Promise<void>((resolve) => (releaseSlot = resolve));
    const transfer = this.transfer(job, releaseSlot).finally(() => {
      releaseSlot();
      this.finishing.delete(transfer);
    });
    this.finishing.add(transfer);
    return slotFree;
  }

  private async transfer(job: Job, releaseSlot: () => void): Promise<void> {
    const run: RunningJob = { job, controller: new AbortController(), resume: job.resume, bytesReceived: 0, bytesWritten: 0, speed: new SpeedMeter(3_000) };
    this.running.set(job.id, run);
    this.progress.touched(job.id);
    let generation = 0;
    try {
      generation = await this.session.ready();
      if (run.controller.signal.aborted) throw new CancelledError('The download');
      const result = await downloadFile(
        (url, request) => this.client.openDownload(url, request),
        { url: job.url, filename: job.filename, folder: job.folder, localName: path.basename(job.targetPath) },
        {
          signal: run.controller.signal,
          ...(this.options.stallTimeoutMs !== undefined ? { stallTimeoutMs: this.options.stallTimeoutMs } : {}),
          ...(this.options.openSink ? { openSink: this.options.openSink } : {}),
          ...(this.options.heldBodyBytes !== undefined ? { heldBodyBytes: this.options.heldBodyBytes } : {}),
          rateLimit: this.pace,
          onProgress: (progress) => {
            const received = progress.bytesReceived - run.bytesReceived;
            const written = progress.bytesWritten - run.bytesWritten;
            this.progress.moved(received, written);
            run.speed.add(received);
            this.currentRun.moved(received, written);
            run.bytesReceived = progress.bytesReceived;
            run.bytesWritten = progress.bytesWritten;
          },
          onTemporaryFile: (name) => this.ledger.recordTemporaryFile(job.id, name),
          ...(job.resume ? { resumeFrom: job.resume } : {}),
          onResumePoint: (point) => {
            // Nothing kept where nothing was: no commit (a body too small to keep says so once per attempt).
            if (point === null && run.resume === null) return;
            run.resume = point;
            this.ledger.setResumePoint(job.id, point);
          },
          onVerified: (verified) => this.ledger.recordVerified(job.id, verified.sha256, verified.bytesWritten),
          onBodyReceived: releaseSlot,
        },
      );
      this.ledger.markDone(job.id, result);
      this.currentRun.finishedAs(job.id, 'done');
    } catch (error) {
      await this.handleFailure(run, error, generation);
    } finally {
      this.running.delete(job.id);
      this.progress.touched(job.id);
      this.nudge();
      this.checkSettled();
    }
  }

  private async handleFailure(run: RunningJob, error: unknown, generation: number): Promise<void> {
    const { job } = run;
    if (run.stopReason) {
      // Stopped on purpose: the attempt does not count against the file. Paused or shut down, it resumes later
      // from what it kept; cancelled, what it kept goes.
      this.ledger.refundAttempt(job.id);
      if (run.stopReason === 'cancel') await this.dropResumeFile(job.id, job.folder, run.resume);
      else this.ledger.recordStop(job.id, run.bytesReceived, await keptBytesOf(job.folder, run.resume));
      const next: Record<NonNullable<RunningJob['stopReason']>, JobState> = { pause: 'paused', cancel: 'cancelled', shutdown: 'queued' };
      this.ledger.setState(job.id, next[run.stopReason]);
      if (run.stopReason === 'cancel') this.currentRun.finishedAs(job.id, 'cancelled');
      return;
    }
    const decision = decideFailure({
      error,
      attempts: job.attempts,
      maxAttempts: this.maxAttempts,
      renewedBefore: this.renewedFor.has(job.id),
      backoff: this.options.backoff ?? DEFAULT_BACKOFF,
      ...(this.options.random ? { random: this.options.random } : {}),
    });
    const { kind, message } = decision.error;
    if (decision.action === 'fail') await this.dropResumeFile(job.id, job.folder, run.resume);
    else this.ledger.recordStop(job.id, run.bytesReceived, await keptBytesOf(job.folder, run.resume));
    switch (decision.action) {
      case 'retry':
        // The attempt got past the session (it failed for another reason), so a later refusal of the session is
        // a new one and deserves its own sign-in: a long run may see the server restart more than once.
        this.renewedFor.delete(job.id);
        this.ledger.scheduleRetry(job.id, Date.now() + decision.delayMs, kind, message);
        return;
      case 'renew-session':
        this.renewedFor.add(job.id);
        this.ledger.refundAttempt(job.id);
        this.ledger.scheduleRetry(job.id, null, kind, message);
        try {
          await this.session.renew(generation);
        } catch (signInError) {
          this.pauseAll(toErrorData(signInError));
        }
        return;
      case 'pause-queue':
        this.ledger.refundAttempt(job.id);
        this.ledger.scheduleRetry(job.id, null, kind, message);
        this.pauseAll(decision.error);
        return;
      case 'fail':
        this.ledger.markFailed(job.id, kind, message);
        this.currentRun.finishedAs(job.id, 'failed');
    }
  }

  private checkSettled(): void {
    if (this.settleWaiters.length === 0 || this.running.size > 0) return;
    if (this.queuePaused) {
      this.resolveSettled('paused');
      return;
    }
    const counts = this.ledger.counts(this.options.batchId);
    if (counts.queued === 0 && counts.active === 0) {
      this.emit('settled');
      this.resolveSettled('finished');
    }
  }

  private resolveSettled(outcome: SettleOutcome): void {
    const waiters = this.settleWaiters;
    this.settleWaiters = [];
    for (const resolve of waiters) resolve(outcome);
  }
}

/**
 * The bytes a job's resume file holds on disk now (0 when none is kept), as the queue's row says it resumes from: read
 * from the file, as a write cut short (a full disk) keeps less than arrived.
 */
async function keptBytesOf(folder: string, kept: ResumePoint | null): Promise<number> {
  if (!kept) return 0;
  return stat(path.join(folder, kept.name)).then(
    (found) => (found.isFile() ? found.size : 0),
    () => 0,
  );
}

function clampConcurrency(n: number): number {
  if (!Number.isFinite(n)) throw new InvalidInputError(`Concurrency must be a whole number from ${CONCURRENCY_LIMITS.min} to ${CONCURRENCY_LIMITS.max}.`);
  return Math.min(CONCURRENCY_LIMITS.max, Math.max(CONCURRENCY_LIMITS.min, Math.round(n)));
}
