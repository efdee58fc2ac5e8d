// A campaign sync holds V8's heap growth low while it runs and gives V8 its own factor back after (sync-heap.ts).
import { describe, expect, it } from 'vitest';
import { SYNC_HEAP_GROWING_PERCENT, withSmallHeapGrowth } from '../../../src-main/core/campaigns/sync-heap';
import { HeapGrowth } from '../../../src-main/core/heap-growth';

describe('a campaign sync and the heap', () => {
  it('holds the growing factor low while syncs run, and gives V8 its own back when the last ends, even when it fails', async () => {
    const flags: string[] = [];
    // The flag's owner of its own, the flags it sets noted.
    const growth = new HeapGrowth((flag) => void flags.push(flag));
    let release = (): void => {};
    const first = withSmallHeapGrowth(() => new Promise<string>((resolve) => (release = () => resolve('first'))), growth);
    const second = withSmallHeapGrowth(() => Promise.reject(new Error('cut short')), growth);
    await expect(second).rejects.toThrow('cut short');
    expect(flags).toEqual([`--heap-growing-percent=${SYNC_HEAP_GROWING_PERCENT}`]);
    release();
    await expect(first).resolves.toBe('first');
    expect(flags).toEqual([`--heap-growing-percent=${SYNC_HEAP_GROWING_PERCENT}`, '--heap-growing-percent=0']);
  });
});
