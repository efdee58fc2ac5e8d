// How the queue looks to the front ends: each job's view (with the live figures of a transfer in flight)
// and the estimate of the time left. Pure: the engine hands in what it knows.
import path from 'node:path';
import type { JobView } from '../../../src-shared/downloads/progress-types';
import type { PendingSizes, ViewedJob } from './download-ledger';
import type { QueuedJob } from './listing-enqueuer';

/** What a transfer in flight knows better than the ledger, which is written only when the attempt ends. */
export interface LiveTransfer {
  bytesReceived: number;
  bytesWritten: number;
  /** Bytes per second of this transfer now. */
  speed: number;
}

export function jobView(job: ViewedJob, live: LiveTransfer | undefined): JobView {
  return viewOf(job, {
    state: job.state,
    attempts: job.attempts,
    bytesReceived: live ? live.bytesReceived : job.bytesReceived,
    bytesWritten: live ? live.bytesWritten : job.bytesWritten,
    speed: live ? live.speed : 0,
    expectedSize: job.expectedSize,
    lastError: job.lastError,
    lastErrorKind: job.lastErrorKind,
    nextAttemptAt: job.nextAttemptAt,
    sha256: job.sha256,
    resumeBytes: live ? 0 : job.resumeBytes,
    finishedAt: finishedAtOf(job),
    reusedFrom: job.state === 'done' ? job.reusedFrom : null,
  });
}

/** The view of a job just queued: the enqueuer's fields and a fresh queue state (a resumed job's is reset too). */
export function queuedView(job: QueuedJob): JobView {
  return viewOf(job, { ...FRESH_FIGURES, expectedSize: job.expectedSize });
}

/** What a job's view says of its state, the same for every file in that state. */
type Figures = Omit<JobView, 'id' | 'filename' | 'localName' | 'folder' | 'instrument' | 'product' | 'dateObs'>;

const FRESH_FIGURES: Figures = {
  state: 'queued',
  attempts: 0,
  bytesReceived: 0,
  bytesWritten: 0,
  speed: 0,
  expectedSize: 0,
  lastError: null,
  lastErrorKind: null,
  nextAttemptAt: null,
  sha256: null,
  resumeBytes: 0,
  finishedAt: null,
  reusedFrom: null,
};

/**
 * When a job ended: the ledger stamps a finished or failed job; a cancel only moves the state, so its last change
 * is when it ended. A job still to do (queued again after a failure, say) has not ended.
 */
function finishedAtOf(job: ViewedJob): string | null {
  if (job.state === 'done' || job.state === 'failed') return job.finishedAt ?? job.updatedAt;
  if (job.state === 'cancelled') return job.updatedAt;
  return null;
}

/**
 * A job's view: what it says of the file itself (the same in every state) and its figures. Written out field by
 * field, the cheapest object V8 builds (a spread of another object copies it key by key), since the app's queue
 * describes every file of a million-entry listing as it is queued.
 */
function viewOf(job: QueuedJob, figures: Figures): JobView {
  return {
    id: job.id,
    filename: job.filename,
    localName: path.basename(job.targetPath),
    folder: job.folder,
    instrument: job.instrument,
    product: job.product,
    dateObs: job.dateObs,
    state: figures.state,
    attempts: figures.attempts,
    bytesReceived: figures.bytesReceived,
    bytesWritten: figures.bytesWritten,
    speed: figures.speed,
    expectedSize: figures.expectedSize,
    lastError: figures.lastError,
    lastErrorKind: figures.lastErrorKind,
    nextAttemptAt: figures.nextAttemptAt,
    sha256: figures.sha256,
    resumeBytes: figures.resumeBytes,
    finishedAt: figures.finishedAt,
    reusedFrom: figures.reusedFrom,
  };
}

/**
 * Seconds left: compressed bytes still to come (less those already in flight) over the current speed, which
 * must be above 0. Unknown listing sizes (0) are estimated from the files that have already arrived.
 */
export function estimateSecondsLeft(speed: number, pending: PendingSizes, inFlightBytes: number): number | null {
  if (pending.count === 0) return 0;
  if (pending.knownCount === 0) return null;
  const typical = pending.knownBytes / pending.knownCount;
  const remaining = pending.knownBytes + (pending.count - pending.knownCount) * typical - inFlightBytes;
  return Math.max(0, remaining) / speed;
}
