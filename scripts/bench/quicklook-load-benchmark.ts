// The quick-look of a 1024 x 1024 KCor pB file, click to pixels in the real renderer in Chromium
// (quicklook-benchmark.ts), on a machine left alone and again under `stress-ng --cpu 2`: the load of a busy
// workstation, where a user saw seconds.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { BenchContext } from './bench-context';
import { stopChild, trackChild } from './cleanup';
import { projectPaths } from './project-paths';
import { runQuickLookBenchmark, type QuickLookResult } from './quicklook-benchmark';
import { fixed, renderTable } from './text-table';

const STRESS_WORKERS = 2;
const IDLE_TARGET_MS = 300;

interface LoadRun {
  /** The one-minute load average as the run began (other work on the machine shows here). */
  loadAverage: number;
  quickLook: QuickLookResult;
}

export interface QuickLookLoadResult {
  idle: LoadRun;
  /** Under stress-ng, or why not measured. */
  loaded: LoadRun | { notMeasured: string };
}

export async function runQuickLookLoad(ctx: BenchContext): Promise<QuickLookLoadResult> {
  const { rendererFolder } = projectPaths();
  const log = (line: string) => ctx.progress.step(line);
  const idle = { loadAverage: os.loadavg()[0]!, quickLook: await runQuickLookBenchmark(rendererFolder, log) };
  const stress = await startStress();
  if (!stress) return { idle, loaded: { notMeasured: 'not measured: stress-ng missing' } };
  try {
    log(`again under stress-ng --cpu ${STRESS_WORKERS}`);
    return { idle, loaded: { loadAverage: os.loadavg()[0]!, quickLook: await runQuickLookBenchmark(rendererFolder, log) } };
  } finally {
    await stopChild(stress, 'SIGTERM');
  }
}

/** stress-ng busy on every worker, or undefined when it is not installed. */
async function startStress(): Promise<ChildProcess | undefined> {
  const child = spawn('stress-ng', ['--cpu', String(STRESS_WORKERS), '--quiet'], { stdio: 'ignore' });
  const started = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  if (!started) return undefined;
  // Any later failure ends the load early; the figures then show it (a lower load average), not a crash.
  child.on('error', () => undefined);
  trackChild(child);
  return child;
}

export function quickLookLoadTable(result: QuickLookLoadResult): string {
  const row = (machine: string, run: LoadRun) => {
    const { quickLook } = run;
    const fastest = quickLook.openMs.reduce((a, b) => Math.min(a, b), Infinity);
    const slowest = quickLook.openMs.reduce((a, b) => Math.max(a, b), -Infinity);
    const range = `${fixed(fastest, 0)}-${fixed(slowest, 0)}`;
    return [
      machine,
      fixed(run.loadAverage, 2),
      fixed(quickLook.firstOpenMs, 0),
      fixed(quickLook.openMedianMs, 0),
      fixed(quickLook.bytesMedianMs, 0),
      range,
      fixed(quickLook.restretchMedianMs, 0),
    ];
  };
  const rows = [row('no load added', result.idle)];
  if ('quickLook' in result.loaded) rows.push(row(`stress-ng --cpu ${STRESS_WORKERS}`, result.loaded));
  else rows.push([`stress-ng --cpu ${STRESS_WORKERS}`, result.loaded.notMeasured, '', '', '', '', '']);
  return renderTable(
    [
      'quick-look 1024 x 1024 KCor pB',
      'load avg (1 min)',
      'first open ms',
      'open ms (median)',
      'of which file bytes ms',
      'open ms (range)',
      'new stretch ms (median)',
    ],
    rows,
  );
}

export function quickLookLoadTargetLines(result: QuickLookLoadResult): string[] {
  const idle = result.idle.quickLook.openMedianMs;
  const loaded =
    'quickLook' in result.loaded ? `${fixed(result.loaded.quickLook.openMedianMs, 0)} ms under stress-ng --cpu ${STRESS_WORKERS}` : result.loaded.notMeasured;
  return [
    `quick-look of a 1024 x 1024 KCor file ${fixed(idle, 0)} ms after the click on an idle machine (target < ${IDLE_TARGET_MS} ms): ${idle < IDLE_TARGET_MS ? 'met' : 'MISSED'}; ${loaded}`,
  ];
}
