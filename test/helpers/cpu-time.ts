// Work that takes a known time, for tests of code that budgets the time its computations take; and the CPU time
// another process has used, for tests that wait on what a process did rather than on the wall clock.
import { readFile } from 'node:fs/promises';

/** Keeps the CPU busy for `ms` milliseconds of the process clock. */
export function spendCpu(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** CPU time a process has used, in clock ticks (user + system; 100 a second on Linux), from /proc/PID/stat. */
export async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
