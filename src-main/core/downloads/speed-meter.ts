// Transfer speed over a moving window: steadier than an instantaneous rate, quicker to follow a change
// than an average since the start. Bytes are summed into short slots, so the cost of `add` stays
// constant however many chunks arrive (a download delivers thousands a second).

const SLOT_MS = 100;

export class SpeedMeter {
  /** Bytes per slot, oldest first; each slot covers SLOT_MS starting at `at`. */
  private readonly slots: { at: number; bytes: number }[] = [];

  constructor(
    private readonly windowMs = 5_000,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  add(bytes: number): void {
    const now = this.clock();
    const slotStart = now - (now % SLOT_MS);
    const last = this.slots.at(-1);
    if (last && last.at === slotStart) last.bytes += bytes;
    else this.slots.push({ at: slotStart, bytes });
    this.forget(now);
  }

  /** Bytes per second over the window (or since the first byte, if that is more recent). */
  bytesPerSecond(): number {
    const now = this.clock();
    this.forget(now);
    const first = this.slots[0];
    if (!first) return 0;
    const elapsed = Math.max(now - first.at, SLOT_MS);
    const total = this.slots.reduce((sum, slot) => sum + slot.bytes, 0);
    return (total / elapsed) * 1000;
  }

  private forget(now: number): void {
    while (this.slots.length > 0 && this.slots[0]!.at + SLOT_MS < now - this.windowMs) this.slots.shift();
  }
}
