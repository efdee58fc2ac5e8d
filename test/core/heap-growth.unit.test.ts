// V8's --heap-growing-percent has one owner in the process (heap-growth.ts), asked by the CLI's download headroom
// (heap-headroom.ts, raised while the heap is small) and a campaign sync (sync-heap.ts, held low): requests that
// overlap or nest resolve to the lowest factor asked for, and when one ends the flag goes back to what those left ask,
// V8's own factor (0) only when the last ends. Here V8's flags are noted, not set (fake-v8.ts).
import { describe, expect, it, vi } from 'vitest';
import { heapHeadroomWhileSmall } from '../../src-main/cli/heap-headroom';
import { SYNC_HEAP_GROWING_PERCENT, withSmallHeapGrowth } from '../../src-main/core/campaigns/sync-heap';

const v8Flags = vi.hoisted(() => [] as string[]);
vi.mock('node:v8', async (importOriginal) => (await import('../helpers/fake-v8')).fakeV8(await importOriginal(), v8Flags));

const RAISED = '--heap-growing-percent=300';
const HELD = `--heap-growing-percent=${SYNC_HEAP_GROWING_PERCENT}`;
const V8_OWN = '--heap-growing-percent=0';

/** A sync that runs until `end` is called. */
function heldSync(): { running: Promise<void>; end: () => void } {
  let end = (): void => {};
  const running = withSmallHeapGrowth(() => new Promise<void>((resolve) => (end = resolve)));
  return { running, end };
}

describe("one owner of V8's heap growing factor", () => {
  it('holds it low for a sync inside a raised headroom, and gives the headroom its raised factor back after', async () => {
    v8Flags.length = 0;
    const stopHeadroom = heapHeadroomWhileSmall();
    const sync = heldSync();
    sync.end();
    await sync.running;
    expect(v8Flags).toEqual([RAISED, HELD, RAISED]);
    stopHeadroom();
    expect(v8Flags).toEqual([RAISED, HELD, RAISED, V8_OWN]);
  });

  it('keeps a sync’s low factor while a headroom starts and ends inside it', async () => {
    v8Flags.length = 0;
    const sync = heldSync();
    const stopHeadroom = heapHeadroomWhileSmall();
    stopHeadroom();
    expect(v8Flags).toEqual([HELD]);
    sync.end();
    await sync.running;
    expect(v8Flags).toEqual([HELD, V8_OWN]);
  });

  it('keeps a sync’s low factor when a headroom that started before it ends first, V8’s own after the sync', async () => {
    v8Flags.length = 0;
    const stopHeadroom = heapHeadroomWhileSmall();
    const sync = heldSync();
    stopHeadroom();
    expect(v8Flags).toEqual([RAISED, HELD]);
    sync.end();
    await sync.running;
    expect(v8Flags).toEqual([RAISED, HELD, V8_OWN]);
  });
});
