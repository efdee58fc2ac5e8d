// node:v8 for vi.mock: the flags set are noted, not passed on (the test runner's heap is not the one meant), and the
// heap is said to hold 14 MB, as mlso-dl's does when it starts downloading, rather than the test runner's.
import type * as v8 from 'node:v8';

/** The module with `setFlagsFromString` noting into `flags` and `getHeapStatistics` saying 14 MB are used. */
export function fakeV8(real: typeof v8, flags: string[]): typeof v8 & { default: typeof v8 } {
  const setFlagsFromString = (flag: string): void => void flags.push(flag);
  const getHeapStatistics = (): v8.HeapInfo => ({ ...real.getHeapStatistics(), used_heap_size: 14 * 1024 * 1024 });
  const faked = { setFlagsFromString, getHeapStatistics };
  return { ...real, ...faked, default: { ...real, ...faked } };
}
