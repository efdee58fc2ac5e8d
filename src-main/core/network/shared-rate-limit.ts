// One speed cap over every connection of a run, as aria2c's --max-overall-download-limit: a body's reads each take
// their bytes from it before they go on, in the order they asked, so the run's total rate holds and a connection
// waiting here stops reading its socket (memory stays flat). The cap can change, or go, while reads wait.

/** A read's wait for its share of the cap. */
export interface RateLimit {
  /** Resolves once `bytes` may go on; rejects with the signal's reason if it is aborted first. */
  take(bytes: number, signal?: AbortSignal): Promise<void>;
}

/** Time an idle cap lends ahead, so a read after a pause need not wait for a timer (a fraction of a second's bytes). */
const CREDIT_MS = 50;

interface Waiter {
  bytes: number;
  /** When its bytes are paid for, set once it heads the line (and again if the cap changes). */
  due?: number;
  resolve: () => void;
}

export class SharedRateLimit implements RateLimit {
  private readonly queue: Waiter[] = [];
  /** The moment the bytes taken so far have been paid for, at the current rate. */
  private paidUntil = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private bytesPerSecond: number | null = null) {}

  /** A new cap (null: none) for the reads waiting now and all after. */
  setRate(bytesPerSecond: number | null): void {
    this.bytesPerSecond = bytesPerSecond;
    this.paidUntil = Math.min(this.paidUntil, performance.now());
    for (const waiter of this.queue) delete waiter.due;
    this.rearm();
  }

  private rearm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.serve();
  }

  take(bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.bytesPerSecond === null && this.queue.length === 0) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        bytes,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        const at = this.queue.indexOf(waiter);
        if (at !== -1) this.queue.splice(at, 1);
        // The timer was set for the head: the next in line is due sooner.
        if (at === 0) this.rearm();
        reject(signal!.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.serve();
    });
  }

  /** Lets through every waiting read already paid for, then sleeps until the next one is. */
  private serve(): void {
    if (this.timer) return;
    for (;;) {
      const head = this.queue[0];
      if (!head) return;
      if (this.bytesPerSecond === null) {
        this.queue.shift();
        head.resolve();
        continue;
      }
      const now = performance.now();
      // Idle time is lent only up to the credit.
      head.due ??= Math.max(this.paidUntil, now - CREDIT_MS) + (head.bytes * 1000) / this.bytesPerSecond;
      if (head.due > now) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.serve();
        }, head.due - now);
        return;
      }
      this.paidUntil = head.due;
      this.queue.shift();
      head.resolve();
    }
  }
}
