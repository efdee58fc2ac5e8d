// The budget that keeps the queue's counts from eating the time of a 100,000-file batch: a costly value is handed
// out again (marked stale) until enough time has passed; a cheap one is fresh every time.
import { describe, expect, it } from 'vitest';
import { CostBoundedValue } from '../../../src-main/core/downloads/cost-bounded-value';
import { spendCpu } from '../../helpers/cpu-time';

/** A clock the test moves by hand; each computation takes `costMs` of it. */
function setUp(costMs: number): { value: CostBoundedValue<number>; computations: () => number; wait: (ms: number) => void } {
  let now = 0;
  let computations = 0;
  const value = new CostBoundedValue(
    () => {
      computations += 1;
      now += costMs;
      return computations;
    },
    0.05,
    () => now,
  );
  return { value, computations: () => computations, wait: (ms) => (now += ms) };
}

describe('a cost-bounded value', () => {
  it('is recomputed at every reading when it is cheap', () => {
    const { value, wait } = setUp(0);
    expect(value.read()).toEqual({ value: 1, stale: false });
    wait(100);
    expect(value.read()).toEqual({ value: 2, stale: false });
  });

  it('is handed out again, marked stale, until its cost is at most a twentieth of the time since', () => {
    const { value, computations, wait } = setUp(40);
    expect(value.read()).toEqual({ value: 1, stale: false });
    wait(100);
    expect(value.read()).toEqual({ value: 1, stale: true });
    wait(699); // 799 ms after a computation of 40 ms: still within its budget of 800 ms
    expect(value.read()).toEqual({ value: 1, stale: true });
    wait(1);
    expect(value.read()).toEqual({ value: 2, stale: false });
    expect(computations()).toBe(2);
  });

  it('is computed now when asked for fresh, whatever the budget says', () => {
    const { value, wait } = setUp(40);
    value.read();
    wait(10);
    expect(value.fresh()).toBe(2);
    expect(value.read()).toEqual({ value: 2, stale: true });
  });

  it('reads within the budget when bounded, and fresh, never stale, when not', () => {
    const { value, computations, wait } = setUp(40);
    expect(value.reading(true)).toEqual({ value: 1, stale: false });
    wait(10);
    expect(value.reading(true)).toEqual({ value: 1, stale: true });
    expect(value.reading(false)).toEqual({ value: 2, stale: false });
    expect(computations()).toBe(2);
  });

  it('keeps time by the process clock unless given one', () => {
    let computations = 0;
    const value = new CostBoundedValue(() => {
      // 20 ms of work: its budget runs 400 ms past it.
      spendCpu(20);
      return (computations += 1);
    });
    expect(value.read()).toEqual({ value: 1, stale: false });
    expect(value.read()).toEqual({ value: 1, stale: true });
  });
});
