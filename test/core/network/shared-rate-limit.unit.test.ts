// The run's speed cap: reads pass at the cap's pace in the order they asked, a change of the cap (or its removal)
// reaches reads already waiting, and a read given up leaves the line at once.
import { describe, expect, it } from 'vitest';
import { SharedRateLimit } from '../../../src-main/core/network/shared-rate-limit';

async function secondsOf(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

describe('SharedRateLimit', () => {
  it('lets everything through at once without a cap', async () => {
    const limit = new SharedRateLimit(null);
    expect(await secondsOf(() => Promise.all(Array.from({ length: 100 }, () => limit.take(1024 * 1024))))).toBeLessThan(0.1);
  });

  it('paces reads from several connections to the cap together, in the order they asked', async () => {
    const limit = new SharedRateLimit(1024 * 1024);
    const order: number[] = [];
    const seconds = await secondsOf(() => Promise.all(Array.from({ length: 8 }, (_, i) => limit.take(64 * 1024).then(() => order.push(i)))));
    // 512 KB at 1 MB/s is half a second, less the 50 ms an idle cap lends.
    expect(seconds).toBeGreaterThan(0.4);
    expect(seconds).toBeLessThan(0.7);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('releases reads already waiting when the cap is lifted or raised', async () => {
    const limit = new SharedRateLimit(10 * 1024);
    const first = limit.take(10 * 1024 * 1024);
    const lifted = await secondsOf(async () => {
      const waiting = limit.take(1024 * 1024);
      limit.setRate(null);
      await Promise.all([first, waiting]);
    });
    expect(lifted).toBeLessThan(0.1);
    limit.setRate(10 * 1024);
    const slow = limit.take(10 * 1024 * 1024);
    limit.setRate(1024 ** 3);
    expect(await secondsOf(() => slow)).toBeLessThan(0.1);
  });

  it('drops a read whose signal aborts, and the next in line does not wait for it', async () => {
    const limit = new SharedRateLimit(10 * 1024);
    const stop = new AbortController();
    const huge = limit.take(100 * 1024 * 1024, stop.signal);
    const next = limit.take(1024);
    stop.abort(new Error('cancelled'));
    await expect(huge).rejects.toThrow('cancelled');
    expect(await secondsOf(() => next)).toBeLessThan(0.5);
  });
});
