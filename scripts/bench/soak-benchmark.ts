// The soak: a campaign of about 5,000 small KCor files synced by mlso-dl while 10 % of the download requests fail
// (500, 503, 429) or are cut off mid-body, from a seed. The sync's resident memory and open file descriptors are
// sampled every 250 ms from /proc; the verdict compares the peak of the run's last third with its middle third's.
// Every file must arrive intact (campaign verify and the folder checker of scripts/faults/): a lost or damaged file
// fails the benchmark, a trend is reported. The emulator runs in this process: the sync is measured from outside,
// and the checker needs the exact bytes the emulator serves.
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { createEmulator } from '../../src-main/emulator';
import { FLAT_LIMITS, type Spread } from '../faults/process-sampler';
import { faultRates, runSoak, type SoakResult } from '../faults/soak-campaign';
import type { BenchContext } from './bench-context';
import { trackChild } from './cleanup';
import { MIB } from './scenario';
import { fixed, renderTable } from './text-table';

const SOAK = {
  // One KCor pB image every 7 s, from the evening of 2025-03-21 to the end of 2025-03-24: about 5,000 files of 11 KB.
  emulator: { imageSize: 32, cadenceSeconds: 7, days: 5, seed: 1, ...faultRates(0.1) },
  query: ['-i', 'kcor', '-p', 'pb', '-s', '2025-03-21T20:50:00'],
  concurrency: 8,
  retries: 20,
  sampleIntervalMs: 250,
} as const;

interface SoakRun {
  files: number;
  syncSeconds: number;
  /** Download requests that failed or were cut off, over all download requests. */
  faultShare: number;
  samples: number;
  rssBytes: Spread;
  rssMiddleMax: number;
  rssLastMax: number;
  openFds: Spread;
  fdsMiddleMax: number;
  fdsLastMax: number;
  rssFlat: boolean;
  fdsFlat: boolean;
  /** Every sample, [ms since the sync started, RSS bytes, open descriptors]. */
  series: [number, number, number][];
}

export interface SoakBenchResult {
  query: string[];
  emulator: Record<string, number>;
  runs: SoakRun[];
}

export async function runSoakBenchmark(ctx: BenchContext): Promise<SoakBenchResult> {
  const result: SoakBenchResult = { query: [...SOAK.query], emulator: { ...SOAK.emulator }, runs: [] };
  for (let run = 1; run <= ctx.options.runs; run += 1) {
    // A fresh emulator per run: the same catalogue and the same sequence of faults from the seed.
    const emulator = await createEmulator(SOAK.emulator);
    try {
      const soak = await runSoak({
        cliBin: ctx.cli.binPath,
        emulator,
        workDir: await mkdtemp(path.join(ctx.workDir, 'soak-')),
        query: SOAK.query,
        concurrency: SOAK.concurrency,
        retries: SOAK.retries,
        sampleIntervalMs: SOAK.sampleIntervalMs,
        onChild: (child) => trackChild(child),
      });
      const summary = summarise(soak);
      result.runs.push(summary);
      ctx.progress.step(
        `  soak (run ${run}): ${summary.files} files in ${summary.syncSeconds.toFixed(1)} s, ${(summary.faultShare * 100).toFixed(1)} % of requests faulted, ` +
          `RSS ${mib(summary.rssBytes.min)}-${mib(summary.rssBytes.max)} MiB, descriptors ${summary.openFds.min}-${summary.openFds.max}`,
      );
    } finally {
      await emulator.close();
    }
  }
  return result;
}

/** The run's figures; throws when a file was lost or damaged (a soak that loses files has no numbers worth showing). */
function summarise(soak: SoakResult): SoakRun {
  const problems = [
    ...(soak.sync.status !== 0 ? [`campaign sync exited with ${soak.sync.status}: ${soak.sync.stderr.trim().slice(-1000)}`] : []),
    ...(soak.verify.status !== 0 ? [`campaign verify exited with ${soak.verify.status}: ${soak.verify.stdout.trim().slice(-1000)}`] : []),
    ...(soak.synced && soak.synced.onDisk === soak.synced.listed ? [] : [`the sync reported ${JSON.stringify(soak.synced)}`]),
    ...soak.folder.violations.slice(0, 10),
  ];
  if (problems.length > 0) throw new Error(`The soak lost or damaged files:\n${problems.join('\n')}`);
  const trend = soak.trend;
  if (!trend) throw new Error(`The soak's sync took only ${soak.samples.length} samples; it ran ${soak.sync.seconds.toFixed(1)} s.`);
  const { downloadsStarted, downloadsCompleted } = soak.server;
  return {
    files: soak.synced!.listed,
    syncSeconds: soak.sync.seconds,
    faultShare: downloadsStarted === 0 ? 0 : (downloadsStarted - downloadsCompleted) / downloadsStarted,
    samples: trend.samples,
    rssBytes: trend.rssBytes,
    rssMiddleMax: trend.rssMiddleMax,
    rssLastMax: trend.rssLastMax,
    openFds: trend.openFds,
    fdsMiddleMax: trend.fdsMiddleMax,
    fdsLastMax: trend.fdsLastMax,
    rssFlat: trend.rssFlat,
    fdsFlat: trend.fdsFlat,
    series: soak.samples.map((sample) => [Math.round(sample.atMs), sample.rssBytes, sample.openFds]),
  };
}

const mib = (bytes: number): string => (bytes / MIB).toFixed(0);

export function soakTable(result: SoakBenchResult): string {
  const rows = result.runs.map((run, index) => [
    String(index + 1),
    String(run.files),
    fixed(run.syncSeconds, 1),
    fixed(run.faultShare * 100, 1),
    `${mib(run.rssBytes.min)} / ${mib(run.rssBytes.median)} / ${mib(run.rssBytes.max)}`,
    `${mib(run.rssMiddleMax)} -> ${mib(run.rssLastMax)}`,
    `${run.openFds.min} / ${run.openFds.median} / ${run.openFds.max}`,
    `${run.fdsMiddleMax} -> ${run.fdsLastMax}`,
    run.rssFlat && run.fdsFlat ? 'yes' : `no (${[!run.rssFlat && 'RSS', !run.fdsFlat && 'descriptors'].filter(Boolean).join(', ')})`,
  ]);
  return [
    `Soak: campaign sync of ${result.query.join(' ')} (emulator image size ${result.emulator['imageSize']}, cadence ${result.emulator['cadenceSeconds']} s), ` +
      `concurrency ${SOAK.concurrency}, --retries ${SOAK.retries}; 10 % of download requests fail or are reset (seed ${result.emulator['seed']})`,
    '',
    renderTable(['run', 'files', 'sync s', 'faulted %', 'RSS MiB min/med/max', 'RSS mid->last', 'FDs min/med/max', 'FDs mid->last', 'flat'], rows),
    '',
    `Sampled every ${SOAK.sampleIntervalMs} ms from /proc (VmRSS, /proc/PID/fd). Flat: the peak of the last third of the sync within ` +
      `+${FLAT_LIMITS.rssGrowth * 100} % (RSS) and +${FLAT_LIMITS.fdGrowth} (descriptors) of the middle third's. Every file was verified (campaign verify, and byte for byte against the emulator).`,
  ].join('\n');
}

/** The verdict beside the other targets: flat in every run. */
export function soakTargetLines(result: SoakBenchResult): string[] {
  if (result.runs.length === 0) return [];
  const worst = (pick: (run: SoakRun) => number): number => result.runs.reduce((max, run) => Math.max(max, pick(run)), -Infinity);
  const rssGrowth = worst((run) => run.rssLastMax / run.rssMiddleMax - 1);
  const fdGrowth = worst((run) => run.fdsLastMax - run.fdsMiddleMax);
  const flat = result.runs.every((run) => run.rssFlat && run.fdsFlat);
  return [
    `soak, last third against middle third (worst run): RSS ${rssGrowth >= 0 ? '+' : ''}${(rssGrowth * 100).toFixed(0)} %, descriptors ${fdGrowth >= 0 ? '+' : ''}${fdGrowth} ` +
      `(target <= +${FLAT_LIMITS.rssGrowth * 100} %, <= +${FLAT_LIMITS.fdGrowth}): ${flat ? 'met' : 'MISSED'}`,
  ];
}
