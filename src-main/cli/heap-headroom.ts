// Headroom for the heap during a bulk download. Every file in flight holds a request, its streams and buffers for
// longer than two young-generation collections, so they are promoted to the old generation and die there, a few
// megabytes a second. V8 sizes the old generation after each full collection at a small multiple of what survived
// (about 14 MB here), so that garbage brought 13 to 23 full collections per 60 KCor files, against the plain-Node
// floor's one or two. A larger growing factor (V8's own flag, read afresh after every full collection, so it can be
// set once the process runs, where a launch flag such as --initial-old-space-size would need a second process start)
// lets the garbage gather instead: 3 to 5 full collections, 10-15 % less CPU. Bounded: the factor is chosen so
// that the old generation's limit stays near 64 MB, and above half of that V8's own factor applies (a queue of a
// million files keeps far more alive, and four times that would be memory the download does not need). The flag is
// asked of its one owner (core/heap-growth.ts), so a campaign sync holding the heap low is not undone, nor undoes this.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { type HeapGrowth, processHeapGrowth } from '../core/heap-growth';

/** The most the growing factor is raised: (1 + this / 100) times what the last full collection left... */
const MOST_PERCENT = 300;
/** ...and no further than this limit; with more than half of it alive, V8's own factor again. */
const HEADROOM_LIMIT_BYTES = 64 * 1024 * 1024;
/** Steps of the percentage, so that a heap changing a little does not set the flag after every collection. */
const PERCENT_STEP = 25;

export interface HeapPorts {
  /** The owner of V8's growing factor, asked for the headroom. */
  growth: HeapGrowth;
  heapUsedBytes(): number;
  /** Calls `collected` after each garbage collection; returns a function that stops that. */
  afterCollections(collected: () => void): () => void;
}

const v8Ports: HeapPorts = {
  growth: processHeapGrowth,
  heapUsedBytes: () => getHeapStatistics().used_heap_size,
  afterCollections(collected) {
    const observer = new PerformanceObserver(() => collected());
    observer.observe({ entryTypes: ['gc'] });
    return () => observer.disconnect();
  },
};

/** The growing percentage for a live heap of `used` bytes; 0 is V8's default (its own factor). */
function growingPercent(used: number): number {
  if (used >= HEADROOM_LIMIT_BYTES / 2) return 0;
  const toLimit = ((HEADROOM_LIMIT_BYTES - used) / Math.max(used, 1)) * 100;
  return Math.min(MOST_PERCENT, Math.floor(toLimit / PERCENT_STEP) * PERCENT_STEP);
}

/** Gives the heap headroom while it is small, until the returned function is called (the request ends). */
export function heapHeadroomWhileSmall(ports: HeapPorts = v8Ports): () => void {
  const headroom = ports.growth.request(growingPercent(ports.heapUsedBytes()));
  const stopWatching = ports.afterCollections(() => headroom.change(growingPercent(ports.heapUsedBytes())));
  return () => {
    stopWatching();
    headroom.end();
  };
}
