// Runs one command as a child process and measures it from the outside: wall time from spawn to exit, peak RSS
// and CPU time. Output is captured (stdout whole, for JSON summaries; stderr's tail, for error messages).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { PeakRssPoller } from './peak-rss';
import { stopChild, trackChild } from './cleanup';

export interface TimedRun {
  command: string;
  args: string[];
  status: number | null;
  signal: NodeJS.Signals | null;
  wallSeconds: number;
  peakRssBytes: number | undefined;
  /**
   * User plus system CPU seconds of the command and every process it started and waited for (a shell's pipeline
   * included); undefined when they cannot be told apart from another command's (two ran at once) or off Linux.
   */
  cpuSeconds: number | undefined;
  stdout: string;
  stderr: string;
}

const STDERR_TAIL_CHARS = 8000;
const DEFAULT_TIMEOUT_MS = 15 * 60 * 1000;

/** Commands of runTimed under way now, each marked once another ran beside it. */
const underWay = new Set<{ overlapped: boolean }>();

export async function runTimed(command: string, args: string[], options: { timeoutMs?: number; cwd?: string } = {}): Promise<TimedRun> {
  // The children's CPU counter is shared: its difference is one command's time only if no other ran meanwhile.
  const mark = { overlapped: underWay.size > 0 };
  for (const other of underWay) other.overlapped = true;
  underWay.add(mark);
  const cpuBefore = reapedChildrenCpuSeconds();
  try {
    const run = await runChild(command, args, options);
    const cpuAfter = reapedChildrenCpuSeconds();
    const alone = !mark.overlapped && cpuBefore !== undefined && cpuAfter !== undefined;
    return { ...run, cpuSeconds: alone ? cpuAfter - cpuBefore : undefined };
  } finally {
    underWay.delete(mark);
  }
}

/**
 * CPU seconds (user + system) of this process's children that have exited and been waited for, and of their own
 * waited-for children: fields 16 and 17 of /proc/self/stat, in clock ticks (100 a second on Linux). The difference
 * across one run is that run's cost, aria2c's and every gzip and sha256sum a shell pipeline started alike, while
 * a child still running (the emulator) counts only once it exits. Polling /proc/<pid> from outside would miss the
 * last moments and a pipeline's short-lived processes.
 */
function reapedChildrenCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const CLOCK_TICKS_PER_SECOND = 100;
    return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

async function runChild(command: string, args: string[], options: { timeoutMs?: number; cwd?: string }): Promise<Omit<TimedRun, 'cpuSeconds'>> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  trackChild(child);
  const poller = child.pid === undefined ? undefined : new PeakRssPoller(child.pid);
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL_CHARS);
  });
  // A benchmark that hangs is a result too, but not one worth waiting 15 minutes past for.
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopChild(child, 'SIGTERM');
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);

  const { status, signal } = await new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    // 'close' rather than 'exit': by then every byte of stdout has arrived.
    child.once('close', (code, sig) => resolve({ status: code, signal: sig }));
  });
  const wallSeconds = (performance.now() - started) / 1000;
  clearTimeout(timer);
  const peakRssBytes = poller?.stop();
  if (timedOut) throw new Error(`${describe(command, args)} did not finish within ${(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000} s`);
  return { command, args, status, signal, wallSeconds, peakRssBytes, stdout: Buffer.concat(stdout).toString(), stderr };
}

/** Throws with the command line, the exit status and the end of stderr unless the run exited 0. */
export function expectSuccess(run: TimedRun): TimedRun {
  if (run.status === 0) return run;
  const how = run.signal ? `was killed by ${run.signal}` : `exited with status ${run.status}`;
  // mlso-dl --json reports failed files on stdout, so its end is shown too.
  const stdout = run.stdout.trim() ? `\nstdout (end):\n${run.stdout.trim().slice(-2000)}` : '';
  throw new Error(`${describe(run.command, run.args)} ${how}\n${run.stderr.trim() || '(no stderr)'}${stdout}`);
}

export function describe(command: string, args: readonly string[]): string {
  return [command, ...args].map((part) => (/^[\w./:=@,+-]+$/.test(part) ? part : JSON.stringify(part))).join(' ');
}
