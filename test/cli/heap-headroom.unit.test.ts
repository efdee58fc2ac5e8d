// The heap's headroom during a bulk download: V8's growing factor raised while the live heap is small, V8's own
// again once it is large or the download is over. The flags are V8's; here a fake records what was set.
import { describe, expect, it } from 'vitest';
import { heapHeadroomWhileSmall, type HeapPorts } from '../../src-main/cli/heap-headroom';
import { HeapGrowth } from '../../src-main/core/heap-growth';

const MIB = 1024 * 1024;

function fakeHeap(): HeapPorts & { flags: string[]; used: number; collect(): void; watching: boolean } {
  const flags: string[] = [];
  let collected: (() => void) | undefined;
  const heap = {
    flags,
    used: 14 * MIB,
    watching: false,
    // The flag's owner of its own, the flags it sets noted.
    growth: new HeapGrowth((flag) => void flags.push(flag)),
    heapUsedBytes: () => heap.used,
    afterCollections(callback: () => void) {
      collected = callback;
      heap.watching = true;
      return () => {
        heap.watching = false;
        collected = undefined;
      };
    },
    collect: () => collected?.(),
  };
  return heap;
}

describe('heapHeadroomWhileSmall', () => {
  it('raises the growing factor at once and sets V8 default back when the download is over', () => {
    const heap = fakeHeap();
    const stop = heapHeadroomWhileSmall(heap);
    expect(heap.flags).toEqual(['--heap-growing-percent=300']);
    expect(heap.watching).toBe(true);
    heap.collect();
    expect(heap.flags).toHaveLength(1);
    stop();
    expect(heap.flags).toEqual(['--heap-growing-percent=300', '--heap-growing-percent=0']);
    expect(heap.watching).toBe(false);
  });

  it("keeps the old generation's limit near 64 MB: less headroom as the heap grows, none past 32 MB (a queue of a million files), and back below", () => {
    const heap = fakeHeap();
    const stop = heapHeadroomWhileSmall(heap);
    heap.used = 24 * MIB;
    heap.collect();
    // (64 - 24) / 24 = 166 %, in steps of 25.
    expect(heap.flags.at(-1)).toBe('--heap-growing-percent=150');
    heap.used = 25 * MIB;
    heap.collect();
    expect(heap.flags).toHaveLength(2);
    heap.used = 200 * MIB;
    heap.collect();
    heap.collect();
    expect(heap.flags).toEqual(['--heap-growing-percent=300', '--heap-growing-percent=150', '--heap-growing-percent=0']);
    heap.used = 10 * MIB;
    heap.collect();
    expect(heap.flags.at(-1)).toBe('--heap-growing-percent=300');
    heap.used = 100 * MIB;
    heap.collect();
    stop();
    // Already V8's own: nothing more to set.
    expect(heap.flags.slice(3)).toEqual(['--heap-growing-percent=300', '--heap-growing-percent=0']);
  });
});
