// Per-response bandwidth limit: paced writes (a token bucket without burst credit) re-reading the rate every chunk,
// so `setOptions({bandwidthBytesPerSecond})` takes effect on downloads already running.
import { setTimeout as sleep } from 'node:timers/promises';

const MIN_CHUNK = 4 * 1024;
const MAX_CHUNK = 64 * 1024;

export class Pacer {
  private nextFreeAt = 0;

  constructor(private readonly rate: () => number) {}

  /** Bytes to write at once: about 1/16 s worth, between 4 and 64 KB, so slow rates still look smooth. */
  chunkSize(): number {
    const rate = this.rate();
    return rate > 0 ? Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.round(rate / 16))) : MAX_CHUNK;
  }

  /** Waits until `bytes` may be sent. Credit does not pile up while the client is slow, so there is no catch-up burst. */
  async take(bytes: number, signal: AbortSignal): Promise<void> {
    const rate = this.rate();
    const now = performance.now();
    if (rate <= 0) {
      this.nextFreeAt = now;
      return;
    }
    const at = Math.max(now, this.nextFreeAt);
    this.nextFreeAt = at + (bytes / rate) * 1000;
    if (at > now) await sleep(at - now, undefined, { signal }).catch(() => undefined);
  }
}
