// Start-up: how long `mlso-dl --version` and `mlso-dl files --help` take from spawn to exit, next to a bare
// `node -e ""` measured the same way in the same run (the floor no Node program goes below). The commands take
// turns, so a busy moment on the machine falls on all of them alike. NODE_EXTRA_CA_CERTS is removed from the
// children's environment: when set, Node reads those certificates at every start (about 70 ms on the project's
// build machines), which would hide what mlso-dl itself costs.
import { spawn } from 'node:child_process';
import { fixed, renderTable } from './text-table';
import { median } from './samples';
import { trackChild } from './cleanup';
import type { Progress } from './progress';

interface StartupCommand {
  label: string;
  /** Arguments to node. */
  args: string[];
  /** The issue's target for the median, in milliseconds. */
  targetMs?: number;
}

interface StartupRow extends StartupCommand {
  samplesMs: number[];
}

export interface StartupResult {
  warmups: number;
  runs: number;
  rows: StartupRow[];
}

const WARMUPS = 3;
const TARGET_VERSION_MS = 80;
const TARGET_HELP_MS = 120;

/** `runs` timed starts of each command (after a few untimed ones that warm the file cache). */
export async function runStartupBenchmark(cliBin: string, runs: number, progress: Progress): Promise<StartupResult> {
  const commands: StartupCommand[] = [
    { label: 'node -e "" (reference)', args: ['-e', ''] },
    { label: 'mlso-dl --version', args: [cliBin, '--version'], targetMs: TARGET_VERSION_MS },
    { label: 'mlso-dl files --help', args: [cliBin, 'files', '--help'], targetMs: TARGET_HELP_MS },
  ];
  const env = { ...process.env };
  delete env['NODE_EXTRA_CA_CERTS'];
  const rows: StartupRow[] = commands.map((command) => ({ ...command, samplesMs: [] }));
  for (let round = 0; round < WARMUPS + runs; round += 1) {
    for (const row of rows) {
      const ms = await timeStart(row.args, env);
      if (round >= WARMUPS) row.samplesMs.push(ms);
    }
  }
  for (const row of rows) progress.step(`  ${row.label}: median ${fixed(median(row.samplesMs), 1)} ms over ${runs} runs`);
  return { warmups: WARMUPS, runs, rows };
}

/** Milliseconds from spawning `node ARGS` to its exit; a command that fails is not a start-up time. */
function timeStart(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: 'ignore', env });
    trackChild(child);
    child.once('error', reject);
    child.once('exit', (status, signal) => {
      const ms = performance.now() - started;
      if (status === 0) resolve(ms);
      else reject(new Error(`node ${args.join(' ')} ended with ${signal ?? `status ${status}`}`));
    });
  });
}

/** Nearest-rank percentile. */
function percentile(values: readonly number[], fraction: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)];
}

export function startupTable(result: StartupResult): string {
  const reference = median(result.rows[0]?.samplesMs ?? []);
  const rows = result.rows.map((row) => {
    const middle = median(row.samplesMs);
    return [
      row.label,
      fixed(middle, 1),
      fixed(percentile(row.samplesMs, 0.9), 1),
      row === result.rows[0] || middle === undefined || reference === undefined ? '' : `+${fixed(middle - reference, 1)}`,
      row.targetMs === undefined ? '' : `<= ${row.targetMs}`,
      row.targetMs === undefined || middle === undefined ? '' : verdict(middle <= row.targetMs),
    ];
  });
  return [
    `Start-up: spawn to exit, ${result.runs} runs of each command taking turns after ${result.warmups} warm-ups; NODE_EXTRA_CA_CERTS removed from their environment`,
    '',
    renderTable(['command', 'median ms', 'p90 ms', 'over node ms', 'target ms', 'target'], rows),
    '',
    'Times include spawning from this harness, for the reference row too: compare with it, not only with the targets.',
  ].join('\n');
}

/** The targets, judged from the medians: printed for a reader, never turned into a failure. */
export function startupTargetLines(result: StartupResult): string[] {
  return result.rows.flatMap((row) => {
    const middle = median(row.samplesMs);
    if (row.targetMs === undefined || middle === undefined) return [];
    return [`${row.label} start-up median: ${middle.toFixed(1)} ms (target <= ${row.targetMs} ms): ${verdict(middle <= row.targetMs)}`];
  });
}

const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');
