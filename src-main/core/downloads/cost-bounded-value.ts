// A value that is costly to compute and wanted often, such as the queue's counts for ten progress updates a
// second: over a large ledger one count takes too long to repeat that often. It is recomputed only when the time
// since the last computation is long enough for that computation's cost to stay a small share of the time; in
// between, the last value is handed out, marked stale. Cheap values are therefore fresh every time.

export interface BoundedReading<T> {
  value: T;
  /** True when this is an earlier computation's value, handed out again to keep to the budget. */
  stale: boolean;
}

export class CostBoundedValue<T> {
  private last: { value: T; at: number; costMs: number } | undefined;

  /**
   * @param compute what to compute
   * @param share the largest share of the time spent computing (0.05: at most one twentieth)
   */
  constructor(
    private readonly compute: () => T,
    private readonly share = 0.05,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The value, recomputed unless that would spend more than the share of the time since the last computation. */
  read(): BoundedReading<T> {
    const last = this.last;
    if (last && this.clock() - last.at < last.costMs / this.share) return { value: last.value, stale: true };
    return { value: this.fresh(), stale: false };
  }

  /** `read()` when `bounded`, else a fresh value now. */
  reading(bounded: boolean): BoundedReading<T> {
    return bounded ? this.read() : { value: this.fresh(), stale: false };
  }

  /** Computes the value now, whatever it costs. */
  fresh(): T {
    const started = this.clock();
    const value = this.compute();
    const at = this.clock();
    this.last = { value, at, costMs: at - started };
    return value;
  }
}
