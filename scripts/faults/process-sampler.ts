// Samples a child process from the outside, the way `top` would: resident memory (VmRSS in /proc/<pid>/status) and
// open file descriptors (the entries of /proc/<pid>/fd), every ~250 ms for as long as it runs. A leak shows as an
// upward trend, so the verdict compares the end of the run with its middle (the start is loading and listing).
// Linux only: elsewhere no samples are taken and the verdict says so.
import { readdir, readFile } from 'node:fs/promises';

export interface ProcessSample {
  /** Milliseconds since sampling began. */
  atMs: number;
  rssBytes: number;
  openFds: number;
}

export class ProcessSampler {
  private readonly samples: ProcessSample[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly started = performance.now();
  private reading: Promise<void> | undefined;

  constructor(
    private readonly pid: number,
    intervalMs = 250,
  ) {
    this.tick();
    this.timer = setInterval(() => this.tick(), intervalMs);
  }

  /** Stops sampling; resolves with every sample taken. */
  async stop(): Promise<ProcessSample[]> {
    clearInterval(this.timer);
    await this.reading;
    return this.samples;
  }

  private tick(): void {
    // A slow read (a loaded machine) is not stacked under the next one.
    this.reading ??= this.read().finally(() => (this.reading = undefined));
  }

  private async read(): Promise<void> {
    try {
      const atMs = performance.now() - this.started;
      const [status, fds] = await Promise.all([readFile(`/proc/${this.pid}/status`, 'utf8'), readdir(`/proc/${this.pid}/fd`)]);
      const rss = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
      // A zombie has no memory lines: the process has ended, and its figures with it.
      if (rss) this.samples.push({ atMs, rssBytes: Number(rss[1]) * 1024, openFds: fds.length });
    } catch {
      // The process is gone (or this is not Linux).
    }
  }
}

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export interface TrendVerdict {
  samples: number;
  rssBytes: Spread;
  openFds: Spread;
  /** Highest RSS of the middle and of the last third of the run. */
  rssMiddleMax: number;
  rssLastMax: number;
  fdsMiddleMax: number;
  fdsLastMax: number;
  /** The last third's peak within the limits (by default +15 % RSS, +8 descriptors) of the middle third's. */
  rssFlat: boolean;
  fdsFlat: boolean;
}

export interface FlatLimits {
  /** Largest allowed rise of the RSS peak, as a share of the middle third's peak. */
  rssGrowth: number;
  /** Largest allowed rise of the descriptor peak, in descriptors. */
  fdGrowth: number;
}

export const FLAT_LIMITS: FlatLimits = { rssGrowth: 0.15, fdGrowth: 8 };

/** The spread of the samples and whether they stayed flat; undefined with fewer than six samples (no thirds to compare). */
export function judgeTrend(samples: readonly ProcessSample[], limits: FlatLimits = FLAT_LIMITS): TrendVerdict | undefined {
  if (samples.length < 6) return undefined;
  const third = Math.floor(samples.length / 3);
  const middle = samples.slice(third, 2 * third);
  const last = samples.slice(2 * third);
  const peak = (part: readonly ProcessSample[], key: 'rssBytes' | 'openFds'): number => part.reduce((max, sample) => Math.max(max, sample[key]), 0);
  const rssMiddleMax = peak(middle, 'rssBytes');
  const rssLastMax = peak(last, 'rssBytes');
  const fdsMiddleMax = peak(middle, 'openFds');
  const fdsLastMax = peak(last, 'openFds');
  return {
    samples: samples.length,
    rssBytes: spread(samples.map((sample) => sample.rssBytes)),
    openFds: spread(samples.map((sample) => sample.openFds)),
    rssMiddleMax,
    rssLastMax,
    fdsMiddleMax,
    fdsLastMax,
    rssFlat: rssLastMax <= rssMiddleMax * (1 + limits.rssGrowth),
    fdsFlat: fdsLastMax <= fdsMiddleMax + limits.fdGrowth,
  };
}

function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { min: sorted[0]!, median, max: sorted.at(-1)! };
}
