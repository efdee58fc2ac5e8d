// The one owner of V8's --heap-growing-percent in the process. Two parts of mlso-dl set it with opposite aims: a
// bulk download raises it while the heap is small (cli/heap-headroom.ts: fewer full collections), a campaign sync
// holds it low (campaigns/sync-heap.ts: a heap near what it keeps). Setting the flag each on its own, one undid the
// other: a sync ending inside a download gave V8 its own factor back, not the download's. So each asks here, and the
// flag is what the requests open at the moment resolve to: the lowest factor one asks for (holding the heap small is
// a limit, headroom only a saving), and V8's own factor (0) when none asks for one.
import { setFlagsFromString } from 'node:v8';

/** An open request for a growing percentage; 0 asks for none (V8's own factor as far as this request goes). */
export interface HeapGrowthRequest {
  /** Asks for another percentage while the request lasts. */
  change(percent: number): void;
  /** Ends the request: the flag follows the requests left, V8's own factor when none is. */
  end(): void;
}

export class HeapGrowth {
  private readonly setFlags: (flags: string) => void;
  /** Each open request's percentage. */
  private readonly open = new Set<{ percent: number }>();
  /** The percentage last set (0, V8's own factor, before any). */
  private applied = 0;

  /** `setFlags` is V8's, or a test's. */
  constructor(setFlags: (flags: string) => void = setFlagsFromString) {
    this.setFlags = setFlags;
  }

  request(percent: number): HeapGrowthRequest {
    const request = { percent };
    this.open.add(request);
    this.apply();
    return {
      change: (next) => {
        if (!this.open.has(request)) return;
        request.percent = next;
        this.apply();
      },
      end: () => {
        if (this.open.delete(request)) this.apply();
      },
    };
  }

  /** Sets the flag to what the open requests resolve to, when that changed (V8 reads it after each full collection). */
  private apply(): void {
    let lowest = 0;
    for (const { percent } of this.open) if (percent > 0 && (lowest === 0 || percent < lowest)) lowest = percent;
    if (lowest === this.applied) return;
    this.applied = lowest;
    this.setFlags(`--heap-growing-percent=${lowest}`);
  }
}

/** The process's owner: every request for the flag goes through it. */
export const processHeapGrowth = new HeapGrowth();
