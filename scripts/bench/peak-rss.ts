// Peak resident memory of a child process, read from Linux's /proc/<pid>/status.
//
// VmHWM ("high water mark") is the kernel's own running maximum of the process's RSS, so it never goes down:
// the last reading taken before the process exits is its peak up to that moment, and sampling every ~50 ms loses
// at most growth in the final interval, never a short spike in between (which polling VmRSS would miss).
// After exit the entry disappears (or holds a zombie without memory lines), so readings simply stop.
// Polling from outside works the same for Node, aria2c and curl, which an in-process hook would not.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

const POLL_MS = 50;

export class PeakRssPoller {
  private peakBytes: number | undefined;
  private readonly timer: NodeJS.Timeout;
  private reading = false;

  constructor(private readonly pid: number) {
    void this.read();
    this.timer = setInterval(() => void this.read(), POLL_MS);
  }

  /** Stops polling; the peak seen so far (undefined when /proc could not be read, e.g. not on Linux). */
  stop(): number | undefined {
    clearInterval(this.timer);
    return this.peakBytes;
  }

  /** Reads now: call right before expecting the process to exit, when it can still be read. */
  async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      const peak = highWaterBytes(await readFile(`/proc/${this.pid}/status`, 'utf8'));
      if (peak !== undefined) this.peakBytes = Math.max(this.peakBytes ?? 0, peak);
    } catch {
      // The process is gone (or this is not Linux): keep the last reading.
    } finally {
      this.reading = false;
    }
  }
}

/**
 * This process's own peak RSS so far: VmHWM of /proc/self/status. Not getrusage's maxRSS, which in a child started
 * by a large parent counts the parent's resident memory at the fork (a probe spawned by a benchmark harness holding
 * 450 MiB reported 450 MiB whatever it used itself); getrusage only where /proc cannot be read.
 */
export function ownPeakRssBytes(): number {
  try {
    const peak = highWaterBytes(readFileSync('/proc/self/status', 'utf8'));
    if (peak !== undefined) return peak;
  } catch {
    // Not Linux: getrusage below.
  }
  return process.resourceUsage().maxRSS * 1024;
}

/** VmHWM of a /proc/<pid>/status text in bytes; undefined when it has none (a zombie, not Linux). */
function highWaterBytes(status: string): number | undefined {
  const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}
