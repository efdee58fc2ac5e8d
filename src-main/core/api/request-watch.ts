// The clocks of one request as a single abort signal that remembers which of them fired: the caller's
// cancel, the idle timeout (silence before the answer starts, or between two chunks of it) and, for
// catalogue answers, the overall deadline that a server trickling one byte at a time cannot dodge.
export type StopCause = 'cancelled' | 'idle' | 'deadline';

export interface RequestClocks {
  /** Milliseconds of silence allowed; 0 waits for ever. */
  idleMs: number;
  /** Milliseconds for the whole exchange, when it has a deadline. */
  deadlineMs?: number;
  /** The caller's cancel. */
  signal?: AbortSignal;
}

export class RequestWatch {
  private readonly controller = new AbortController();
  private idleTimer: NodeJS.Timeout | undefined;
  private deadlineTimer: NodeJS.Timeout | undefined;
  /** When the deadline falls (ms since epoch); moved on by the time spent paused. */
  private deadlineAt: number | undefined;
  private pausedAt: number | undefined;
  private cause: StopCause | undefined;
  private readonly onCancel = (): void => this.stop('cancelled');

  constructor(private readonly clocks: RequestClocks) {
    if (clocks.signal?.aborted) this.stop('cancelled');
    else clocks.signal?.addEventListener('abort', this.onCancel, { once: true });
    if (clocks.deadlineMs !== undefined && this.cause === undefined) {
      this.deadlineAt = Date.now() + clocks.deadlineMs;
      this.armDeadline();
    }
    this.heard();
  }

  /** Aborts when any clock runs out or the caller cancels. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stoppedBy(): StopCause | undefined {
    return this.cause;
  }

  /** Something arrived: the idle timer starts again. */
  heard(): void {
    clearTimeout(this.idleTimer);
    if (this.cause === undefined && this.pausedAt === undefined && this.clocks.idleMs > 0)
      this.idleTimer = setTimeout(() => this.stop('idle'), this.clocks.idleMs);
  }

  /**
   * Stops the idle and deadline clocks while `work` runs: time the reader spends waiting for its own
   * consumer (a paused `| less`) is not the server's slowness. The caller's cancel still applies, and ends
   * the wait at once even if `work` never settles (it may be waiting for something the cancel called off):
   * then this rejects with the cause, which `stoppedBy` tells.
   */
  async pausedDuring<T>(work: Promise<T>): Promise<T> {
    if (this.pausedAt !== undefined) return work;
    this.pausedAt = Date.now();
    clearTimeout(this.idleTimer);
    clearTimeout(this.deadlineTimer);
    const signal = this.signal;
    let onStop: (() => void) | undefined;
    const stopped = new Promise<never>((_resolve, reject) => {
      onStop = () => reject(signal.reason);
      if (signal.aborted) onStop();
      else signal.addEventListener('abort', onStop, { once: true });
    });
    try {
      return await Promise.race([work, stopped]);
    } finally {
      signal.removeEventListener('abort', onStop!);
      if (this.deadlineAt !== undefined) this.deadlineAt += Date.now() - this.pausedAt;
      this.pausedAt = undefined;
      if (this.cause === undefined) {
        this.armDeadline();
        this.heard();
      }
    }
  }

  private armDeadline(): void {
    if (this.deadlineAt === undefined) return;
    this.deadlineTimer = setTimeout(() => this.stop('deadline'), Math.max(0, this.deadlineAt - Date.now()));
  }

  /** The request is over (or its body handed on): no clock may fire any more. */
  finish(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.deadlineTimer);
    this.clocks.signal?.removeEventListener('abort', this.onCancel);
  }

  private stop(cause: StopCause): void {
    if (this.cause !== undefined) return;
    this.cause = cause;
    this.finish();
    this.controller.abort(cause);
  }
}
