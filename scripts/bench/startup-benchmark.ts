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
  /** The target for the median, as a multiple of the reference's (a bare `node -e ""` on the same Node). */
  targetRatio?: number;
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
const TARGET_RATIO = 1.6;

/** `runs` timed starts of each command (after a few untimed ones that warm the file cache). */
export async function runStartupBenchmark(cliBin: string, runs: number, progress: Progress): Promise<StartupResult> {
  const commands: StartupCommand[] = [
    { label: 'node -e "" (reference)', args: ['-e', ''] },
    { label: 'mlso-dl --version', args: [cliBin, '--version'], targetRatio: TARGET_RATIO },
    { label: 'mlso-dl files --help', args: [cliBin, 'files', '--help'], targetRatio: TARGET_RATIO },
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
    const ratio = row === result.rows[0] || middle === undefined || reference === undefined ? undefined : middle / reference;
    return [
      row.label,
      fixed(middle, 1),
      fixed(percentile(row.samplesMs, 0.9), 1),
      ratio === undefined ? '' : `+${fixed(middle! - reference!, 1)}`,
      ratio === undefined ? '' : `${fixed(ratio, 2)}x`,
      row.targetRatio === undefined ? '' : `<= ${row.targetRatio}x`,
      row.targetRatio === undefined || ratio === undefined ? '' : verdict(ratio <= row.targetRatio),
    ];
  });
  return [
    `Start-up: spawn to exit, ${result.runs} runs of each command taking turns after ${result.warmups} warm-ups; NODE_EXTRA_CA_CERTS removed from their environment`,
    '',
    renderTable(['command', 'median ms', 'p90 ms', 'over node ms', 'x node', 'target', 'met'], rows),
    '',
    'Times include spawning from this harness, for the reference row too, so the targets are set against it.',
  ].join('\n');
}

/** The targets, judged from the medians: printed for a reader, never turned into a failure. */
export function startupTargetLines(result: StartupResult): string[] {
  const reference = median(result.rows[0]?.samplesMs ?? []);
  return result.rows.flatMap((row) => {
    const middle = median(row.samplesMs);
    if (row.targetRatio === undefined || middle === undefined || reference === undefined) return [];
    const ratio = middle / reference;
    return [
      `${row.label} start-up median: ${middle.toFixed(1)} ms, ${ratio.toFixed(2)}x node -e "" (target <= ${row.targetRatio}x): ${verdict(ratio <= row.targetRatio)}`,
    ];
  });
}

const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');
