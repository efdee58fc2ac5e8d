// Transfer speed over a moving window: steadier than an instantaneous rate, quicker to follow a change
// than an average since the start.

export class SpeedMeter {
  private readonly samples: { at: number; total: number }[] = [];
  private total = 0;

  constructor(
    private readonly windowMs = 5_000,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  add(bytes: number): void {
    this.total += bytes;
    const at = this.clock();
    this.samples.push({ at, total: this.total });
    while (this.samples.length > 2 && this.samples[1]!.at < at - this.windowMs) this.samples.shift();
  }

  /** Bytes per second over the window; 0 before there are two samples or after a quiet window. */
  bytesPerSecond(): number {
    const newest = this.samples.at(-1);
    const oldest = this.samples[0];
    if (!newest || !oldest || newest === oldest) return 0;
    const now = this.clock();
    if (now - newest.at > this.windowMs) return 0;
    const elapsed = Math.max(now, newest.at) - oldest.at;
    return elapsed > 0 ? ((newest.total - oldest.total) / elapsed) * 1000 : 0;
  }
}
