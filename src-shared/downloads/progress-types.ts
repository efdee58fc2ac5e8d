// What the download engine tells its front ends. Progress arrives at most every `progressIntervalMs`
// (100 ms, so at most 10 a second) and carries only the jobs that changed since the last one.
import type { ErrorData } from '../errors';
import type { JobState } from './job-state';

export interface JobView {
  id: number;
  filename: string;
  /** Name on disk (differs from `filename` for a "keep both" copy). */
  localName: string;
  folder: string;
  instrument: string;
  product: string;
  dateObs: string | null;
  state: JobState;
  attempts: number;
  /** Compressed bytes received in the current attempt (or the final one). */
  bytesReceived: number;
  /** Decompressed bytes written. */
  bytesWritten: number;
  /** Bytes per second of this transfer over the last few seconds (0 unless active). */
  speed: number;
  /** The listing's size (compressed); 0 when unknown. */
  expectedSize: number;
  lastError: string | null;
  lastErrorKind: string | null;
  /** When a waiting retry may start (ms since epoch). */
  nextAttemptAt: number | null;
  sha256: string | null;
  /** Bytes of the body kept from a stopped attempt, which the next one does not fetch again (0: it starts again). */
  resumeBytes: number;
  /** When the file ended (done, failed or cancelled), ISO 8601 UT; null while it is still to do. */
  finishedAt: string | null;
  /** The folder a finished file was copied or linked from instead of downloaded; null for one downloaded (or not done). */
  reusedFrom: string | null;
}

/** How many files are in each state (with their total), over the whole list or over one run. */
export interface JobCounts {
  total: number;
  queued: number;
  active: number;
  paused: number;
  done: number;
  failed: number;
  cancelled: number;
}

export interface OverallProgress extends JobCounts {
  /** Compressed bytes received since the engine started (retries included). */
  bytesReceived: number;
  /** Decompressed bytes written since the engine started. */
  bytesWritten: number;
  /** Bytes per second over the last few seconds. */
  speed: number;
  /** Seconds left at the current speed; null when it cannot be told. */
  etaSeconds: number | null;
  queuePaused: boolean;
  /** Why the queue stopped by itself (a full disk, a refused sign-in). */
  pauseReason: ErrorData | null;
  /** The work in progress now (or the last run's result, once idle); the counts above are the whole list's. */
  run: RunProgress;
}

/**
 * A run: the files queued, resumed or retried since the queue was last idle. It ends when nothing is queued or
 * active, and its figures stay as they were until new work starts the next one.
 */
export interface RunProgress extends JobCounts {
  /** 1 for the first run since the engine started, then one more for each; 0 before any. */
  number: number;
  /** False once the run has ended (nothing queued or active). */
  inProgress: boolean;
  // total counts every file of the run, cancelled ones included; queued, active and paused are the list's files
  // still to do (all of them are the run's); done, failed and cancelled, the files that ended in this run.
  /** Compressed bytes received in this run (retries included). */
  bytesReceived: number;
  /** Decompressed bytes written in this run. */
  bytesWritten: number;
}

export interface ProgressUpdate {
  jobs: JobView[];
  overall: OverallProgress;
}

export interface EngineEventMap {
  progress: [ProgressUpdate];
  /** The queue stopped by itself or was paused; the reason is null for a pause by the user. */
  'queue-paused': [ErrorData | null];
  'queue-resumed': [];
  /** Nothing is running or waiting any more (in the engine's batch). */
  settled: [];
}
