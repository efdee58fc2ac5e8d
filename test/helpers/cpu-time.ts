// Work that takes a known time, for tests of code that budgets the time its computations take.

/** Keeps the CPU busy for `ms` milliseconds of the process clock. */
export function spendCpu(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}
