// The benchmark's CPU figures (CPU seconds per GiB written, issue 22 item 6) come from runTimed: the CPU time of
// the command and of every process it started, counted only when no other command ran beside it.
import { describe, expect, it } from 'vitest';
import { runTimed } from '../../scripts/bench/timed-process';

/** A Node child that spends `ms` milliseconds of its own CPU time (not wall time: the machine may be busy). */
const burn = (ms: number): string[] => ['-e', `const end = ${ms * 1000}; while (process.cpuUsage().user < end) {}`];

describe('runTimed CPU time', () => {
  it('counts the CPU time of the command', async () => {
    const run = await runTimed(process.execPath, burn(150));
    expect(run.status).toBe(0);
    expect(run.cpuSeconds).toBeGreaterThanOrEqual(0.14);
    expect(run.cpuSeconds).toBeLessThan(run.wallSeconds + 0.05);
  });

  it('counts the processes a shell started too, as the shell way of the batch benchmark runs gzip and sha256sum', async () => {
    const [node, ...args] = [process.execPath, ...burn(100)];
    const script = `"${node}" ${args.map((arg) => `'${arg}'`).join(' ')} && "${node}" ${args.map((arg) => `'${arg}'`).join(' ')}`;
    const run = await runTimed('sh', ['-c', script]);
    expect(run.status).toBe(0);
    expect(run.cpuSeconds).toBeGreaterThanOrEqual(0.19);
  });

  it('gives no CPU time for commands that ran at the same time, whose counts cannot be told apart', async () => {
    const runs = await Promise.all([runTimed(process.execPath, burn(50)), runTimed(process.execPath, burn(50))]);
    expect(runs.map((run) => run.cpuSeconds)).toEqual([undefined, undefined]);
  });
});
