// The current run of the queue: which files finished in it (and how) and how many bytes it moved. A run starts
// when work arrives while the queue is idle and ends when nothing is queued or active; so the status bar can say
// "3 of 12 files" about the work in progress, not about every file the ledger has held.
import type { JobState } from '../../../src-shared/downloads/job-state';
import type { RunProgress } from '../../../src-shared/downloads/progress-types';

type FinishedState = Extract<JobState, 'done' | 'failed' | 'cancelled'>;
type Pending = Pick<RunProgress, 'queued' | 'active' | 'paused'>;

export class RunTally {
  private number = 0;
  private ended = true;
  /** Files of this run that finished, by job id; a file that goes back to the queue leaves this map. */
  private readonly finished = new Map<number, FinishedState>();
  /** The map's states counted as they change: a run can hold 100,000 files and figures are wanted ten times a second. */
  private readonly counts: Record<FinishedState, number> = { done: 0, failed: 0, cancelled: 0 };
  private bytesReceived = 0;
  private bytesWritten = 0;

  /** Files were queued, resumed or retried: they are the run's (a new run if the last one had ended). */
  joined(ids: readonly number[]): void {
    if (ids.length === 0) return;
    this.begin();
    for (const id of ids) this.forget(id);
  }

  /** Starts a run unless one is in progress (the engine found work left from an earlier session). */
  begin(): void {
    if (!this.ended) return;
    this.ended = false;
    this.number += 1;
    this.finished.clear();
    this.counts.done = this.counts.failed = this.counts.cancelled = 0;
    this.bytesReceived = 0;
    this.bytesWritten = 0;
  }

  /** A file of the run finished (done, failed or cancelled). */
  finishedAs(id: number, state: FinishedState): void {
    this.forget(id);
    this.finished.set(id, state);
    this.counts[state] += 1;
  }

  /** A file that already finished in this run changed how (a failed file was cancelled); others are not the run's. */
  restated(id: number, state: FinishedState): void {
    if (this.finished.has(id)) this.finishedAs(id, state);
  }

  moved(received: number, written: number): void {
    this.bytesReceived += received;
    this.bytesWritten += written;
  }

  /** Nothing is queued or active any more: the run is over, and its figures stay until the next one starts. */
  idle(): void {
    this.ended = true;
  }

  private forget(id: number): void {
    const state = this.finished.get(id);
    if (state === undefined) return;
    this.finished.delete(id);
    this.counts[state] -= 1;
  }

  figures(pending: Pending): RunProgress {
    const { queued, active, paused } = pending;
    const { done, failed, cancelled } = this.counts;
    return {
      number: this.number,
      inProgress: !this.ended,
      total: queued + active + paused + done + failed + cancelled,
      queued,
      active,
      paused,
      done,
      failed,
      cancelled,
      bytesReceived: this.bytesReceived,
      bytesWritten: this.bytesWritten,
    };
  }
}
