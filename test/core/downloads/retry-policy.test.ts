// The README's retry promise: "--retry-delay: wait before the first retry; it doubles each time (with jitter), up
// to a minute", and a Retry-After is honoured. Held twice: the delay function itself (growth by attempt, spread
// across draws), and the engine, which must wait what that function says with its own random source.
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_BACKOFF, backoffDelay } from '../../../src-main/core/downloads/retry-policy';
import { useEmulator } from '../../helpers/fixtures';
import { listing, useHarnesses } from './engine-harness';

const oneSecond = { baseMs: 1_000, maxMs: 60_000 };
const constant = (draw: number) => () => draw;

describe('the backoff delay', () => {
  it('waits about --retry-delay before the first retry: never less than half of it, never more', () => {
    for (const draw of [0, 0.25, 0.5, 0.75, 0.999]) {
      const delay = backoffDelay(1, oneSecond, 0, constant(draw));
      expect(delay).toBeGreaterThanOrEqual(500);
      expect(delay).toBeLessThanOrEqual(1_000);
    }
  });

  it('doubles with each attempt for the same draw, until it reaches the one-minute ceiling', () => {
    for (const draw of [0, 0.5, 0.999]) {
      const delays = [1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, oneSecond, 0, constant(draw)));
      // Attempts 1 to 6 have ceilings 1, 2, 4, 8, 16 and 32 s: each delay is twice the one before (rounding aside).
      for (let i = 1; i < delays.length; i += 1) expect(Math.abs(delays[i]! - 2 * delays[i - 1]!)).toBeLessThanOrEqual(1);
    }
    // From attempt 7 on, 64 s and more would be due: held at the minute, whatever the draw.
    for (const attempt of [7, 10, 30]) {
      expect(backoffDelay(attempt, oneSecond, 0, constant(0.999))).toBeLessThanOrEqual(60_000);
      expect(backoffDelay(attempt, oneSecond, 0, constant(0.999))).toBeGreaterThan(59_000);
      expect(backoffDelay(attempt, oneSecond, 0, constant(0))).toBeGreaterThanOrEqual(30_000);
    }
    expect(DEFAULT_BACKOFF).toEqual(oneSecond);
  });

  it('spreads the workers that failed together: different draws give delays across half the ceiling', () => {
    for (const attempt of [1, 3, 5]) {
      const ceiling = 1_000 * 2 ** (attempt - 1);
      const lowest = backoffDelay(attempt, oneSecond, 0, constant(0));
      const highest = backoffDelay(attempt, oneSecond, 0, constant(0.999));
      expect(highest - lowest).toBeGreaterThanOrEqual(ceiling * 0.45);
      // Math.random, the default source: 200 draws give many different delays, not one.
      const drawn = new Set(Array.from({ length: 200 }, () => backoffDelay(attempt, oneSecond)));
      expect(drawn.size).toBeGreaterThan(100);
    }
  });

  it("never retries sooner than the server's Retry-After", () => {
    expect(backoffDelay(1, oneSecond, 5_000, constant(0.999))).toBe(5_000);
    expect(backoffDelay(6, oneSecond, 5_000, constant(0))).toBeGreaterThanOrEqual(16_000);
  });
});

describe("the engine's retry schedule", () => {
  const emulator = useEmulator({ imageSize: 16 });
  const { harness } = useHarnesses(emulator);

  it('schedules each retry of a failing file twice as far off as the last, with one draw of its random source per retry', async () => {
    const [file] = await listing(emulator(), { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:01:00' });
    emulator().injectFault(file!.filename, 'status-503', 4);
    const random = vi.fn(() => 0.5);
    const h = await harness({ backoff: { baseMs: 40, maxMs: 10_000 }, random, maxAttempts: 5 });
    // The delay each retry was scheduled with: the time it was set for, less the time it was set.
    const delays: number[] = [];
    const scheduleRetry = h.ledger.scheduleRetry.bind(h.ledger);
    vi.spyOn(h.ledger, 'scheduleRetry').mockImplementation((id, at, kind, message) => {
      if (at !== null) delays.push(at - Date.now());
      scheduleRetry(id, at, kind, message);
    });

    await h.engine.enqueue([file!], h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');

    expect(h.ledger.list()[0]).toMatchObject({ state: 'done', attempts: 5 });
    expect(random).toHaveBeenCalledTimes(4);
    // 40 ms doubling, three quarters of each ceiling at the draw 0.5: 30, 60, 120, 240 ms (a few milliseconds may
    // pass between the engine reading the clock and the ledger being called, on a busy machine).
    expect(delays).toHaveLength(4);
    [30, 60, 120, 240].forEach((expected, index) => expect(Math.abs(delays[index]! - expected)).toBeLessThanOrEqual(5));
  });
});
