// A campaign sync's heap kept near what it holds. Each piece of a million-file listing (its entries, records, rows and
// jobs) lives across a few awaits, long enough to be promoted to the old generation, where it dies. V8 sizes the old
// generation after each full collection at up to four times what survived, and a first sync that never holds more
// than some 55 MB grew its heap to 220 MB (peak RSS 376-437 MiB against the 300 MB target). While a sync runs, the
// growing factor (V8's --heap-growing-percent, read afresh after every full collection, so it can be set while the
// process runs) is held low: more full collections of a small heap instead of a large one. The flag's one owner
// (heap-growth.ts) gives back what other requests ask for (a download's headroom), or V8's own factor, when the last
// sync running ends.
import { type HeapGrowth, processHeapGrowth } from '../heap-growth';

/** The old generation may grow to (1 + this / 100) times what the last full collection left. */
export const SYNC_HEAP_GROWING_PERCENT = 50;

/** Runs `sync` with the heap's growth held low (see the top), for as long as it runs, also when it fails. */
export async function withSmallHeapGrowth<T>(sync: () => Promise<T>, growth: HeapGrowth = processHeapGrowth): Promise<T> {
  const held = growth.request(SYNC_HEAP_GROWING_PERCENT);
  try {
    return await sync();
  } finally {
    held.end();
  }
}
