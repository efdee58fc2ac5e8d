// Per-response bandwidth limit: paced writes re-reading the rate every chunk, so `setOptions({bandwidthBytesPerSecond})`
// takes effect on downloads already running.
import { setTimeout as sleep } from 'node:timers/promises';

const MIN_CHUNK = 4 * 1024;
const MAX_CHUNK = 64 * 1024;
const LATENESS_CREDIT_MS = 10;

export class Pacer {
  private nextFreeAt = 0;

  constructor(private readonly rate: () => number) {}

  /** Bytes to write at once: about 1/16 s worth, between 4 and 64 KB, so slow rates still look smooth. */
  chunkSize(): number {
    const rate = this.rate();
    return rate > 0 ? Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.round(rate / 16))) : MAX_CHUNK;
  }

  /**
   * Waits until `bytes` may be sent. A timer that fires a little late (the emulator shares the CPU with
   * the client under test) may be made up for, up to LATENESS_CREDIT_MS, so the link keeps its nominal
   * rate under scheduling jitter; a longer pause (a slow client, backpressure) is not, so there is no
   * catch-up burst.
   */
  async take(bytes: number, signal: AbortSignal): Promise<void> {
    const rate = this.rate();
    const now = performance.now();
    if (rate <= 0) {
      this.nextFreeAt = 0;
      return;
    }
    // The first chunk of a body starts the clock: no credit before anything was sent.
    const at = this.nextFreeAt === 0 ? now : Math.max(now - LATENESS_CREDIT_MS, this.nextFreeAt);
    this.nextFreeAt = at + (bytes / rate) * 1000;
    if (at > now) await sleep(at - now, undefined, { signal }).catch(() => undefined);
  }
}
