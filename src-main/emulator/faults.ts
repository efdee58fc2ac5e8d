// Download faults: one-shot faults injected per file by tests, and random failures/resets drawn from the seed.
import { seededRandom } from './seeded-random';

export const DOWNLOAD_FAULTS = [
  'json-200',
  'html-200',
  'html-500',
  'status-500',
  'status-503',
  'status-429',
  'status-404',
  'unauthorized',
  'reset',
  'truncate',
  'stall',
  'not-fits',
  // Well-formed answers whose FITS content disagrees with its own headers: the header alone (it declares the
  // whole image), the whole file followed by megabytes of zeros no header declares, and the whole file but the
  // zero padding after its last data unit (the archive serves whole 2,880-byte blocks; fitsverify calls this an error).
  'fits-header-only',
  'fits-overlong',
  'fits-unpadded',
  // Redirects that never reach the file: 302 to the very same address, or back and forth between two addresses.
  'redirect-self',
  'redirect-loop',
] as const;
export type DownloadFault = (typeof DOWNLOAD_FAULTS)[number];

export function isDownloadFault(value: unknown): value is DownloadFault {
  return (DOWNLOAD_FAULTS as readonly unknown[]).includes(value);
}

const RANDOM_FAILURES = ['status-500', 'status-503', 'status-429'] as const;

/** What the random draws decided for one download request. */
export interface DrawnFault {
  failure?: (typeof RANDOM_FAILURES)[number];
  /** Share of the body (0.1-0.9) after which the socket is destroyed. */
  resetAfter?: number;
}

export class FaultPlan {
  private readonly injected = new Map<string, DownloadFault[]>();
  private draws: () => number;
  private cuts: () => number;

  constructor(seed: number) {
    this.draws = seededRandom(seed);
    this.cuts = seededRandom(seed ^ 0x5a5a5a5a);
  }

  /** Restarts both random sequences, so a new seed replays from its beginning. */
  reseed(seed: number): void {
    this.draws = seededRandom(seed);
    this.cuts = seededRandom(seed ^ 0x5a5a5a5a);
  }

  /**
   * The next `times` downloads of the file get `fault`. It replaces what an earlier injection left unused, so a
   * test is not served a previous test's leftovers.
   */
  inject(filename: string, fault: DownloadFault, times = 1): void {
    this.injectSequence(
      filename,
      Array.from({ length: times }, () => fault),
    );
  }

  /** The next downloads of the file get these faults, one each, in order (replacing what is left, as inject does). */
  injectSequence(filename: string, faults: readonly DownloadFault[]): void {
    if (faults.length === 0) this.injected.delete(filename);
    else this.injected.set(filename, [...faults]);
  }

  clearInjected(): void {
    this.injected.clear();
  }

  /** The next injected fault of that file, consumed. */
  takeInjected(filename: string): DownloadFault | undefined {
    const queue = this.injected.get(filename);
    const fault = queue?.shift();
    if (queue && queue.length === 0) this.injected.delete(filename);
    return fault;
  }

  /** One draw per download request; always four numbers, so the outcome sequence depends only on request order. */
  draw(failureRate: number, resetRate: number): DrawnFault {
    const [fail, kind, reset, share] = [this.draws(), this.draws(), this.draws(), this.draws()];
    if (fail < failureRate) return { failure: RANDOM_FAILURES[Math.floor(kind * RANDOM_FAILURES.length)] ?? 'status-500' };
    if (reset < resetRate) return { resetAfter: 0.1 + 0.8 * share };
    return {};
  }

  /** Where an injected reset/truncate/stall cuts the body: 10-90% of it. */
  cutShare(): number {
    return 0.1 + 0.8 * this.cuts();
  }
}
