// Headroom for the heap during a bulk download. Every file in flight holds a request, its streams and buffers for
// longer than two young-generation collections, so they are promoted to the old generation and die there, a few
// megabytes a second. V8 sizes the old generation after each full collection at a small multiple of what survived
// (about 14 MB here), so that garbage brought 15 to 25 full collections per 60 files, against the plain-Node floor's
// one or two, and 15 % more CPU. A larger growing factor (V8's own flag, read afresh after every full collection, so
// it can be set once the process runs; a launch flag such as --initial-old-space-size would need a second process
// start) lets the garbage gather up to four times the live heap instead. Only while the heap is small: a queue of a
// million files keeps far more alive, and four times that would be memory the download does not need.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';

/** The old generation may grow to (1 + this / 100) times what the last full collection left... */
const GROWING_PERCENT = 300;
/** ...while the live heap is below this; above it, V8's own factor again. */
const SMALL_HEAP_BYTES = 64 * 1024 * 1024;

export interface HeapPorts {
  setFlags(flags: string): void;
  heapUsedBytes(): number;
  /** Calls `collected` after each garbage collection; returns a function that stops that. */
  afterCollections(collected: () => void): () => void;
}

const v8Ports: HeapPorts = {
  setFlags: setFlagsFromString,
  heapUsedBytes: () => getHeapStatistics().used_heap_size,
  afterCollections(collected) {
    const observer = new PerformanceObserver(() => collected());
    observer.observe({ entryTypes: ['gc'] });
    return () => observer.disconnect();
  },
};

/** Gives the heap headroom while it is small, until the returned function is called (V8's default again). */
export function heapHeadroomWhileSmall(ports: HeapPorts = v8Ports): () => void {
  let roomy = true;
  ports.setFlags(`--heap-growing-percent=${GROWING_PERCENT}`);
  const stopWatching = ports.afterCollections(() => {
    const small = ports.heapUsedBytes() < SMALL_HEAP_BYTES;
    if (small === roomy) return;
    roomy = small;
    // 0 is V8's default: its own factor, from how fast it collects against how fast the program allocates.
    ports.setFlags(`--heap-growing-percent=${small ? GROWING_PERCENT : 0}`);
  });
  return () => {
    stopWatching();
    if (roomy) ports.setFlags('--heap-growing-percent=0');
    roomy = false;
  };
}
