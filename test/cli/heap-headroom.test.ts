// The heap's headroom during a bulk download: V8's growing factor raised while the live heap is small, V8's own
// again once it is large or the download is over. The flags are V8's; here a fake records what was set.
import { describe, expect, it } from 'vitest';
import { heapHeadroomWhileSmall, type HeapPorts } from '../../src-main/cli/heap-headroom';

const MIB = 1024 * 1024;

function fakeHeap(): HeapPorts & { flags: string[]; used: number; collect(): void; watching: boolean } {
  let collected: (() => void) | undefined;
  const heap = {
    flags: [] as string[],
    used: 14 * MIB,
    watching: false,
    setFlags: (flags: string) => void heap.flags.push(flags),
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

  it('gives the headroom back to V8 while the live heap is large (a queue of a million files), and takes it again below', () => {
    const heap = fakeHeap();
    const stop = heapHeadroomWhileSmall(heap);
    heap.used = 200 * MIB;
    heap.collect();
    heap.collect();
    expect(heap.flags).toEqual(['--heap-growing-percent=300', '--heap-growing-percent=0']);
    heap.used = 20 * MIB;
    heap.collect();
    expect(heap.flags.at(-1)).toBe('--heap-growing-percent=300');
    heap.used = 100 * MIB;
    heap.collect();
    stop();
    // Already V8's own: nothing more to set.
    expect(heap.flags).toEqual(['--heap-growing-percent=300', '--heap-growing-percent=0', '--heap-growing-percent=300', '--heap-growing-percent=0']);
  });
});
