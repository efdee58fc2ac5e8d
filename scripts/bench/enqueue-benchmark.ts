// Enqueueing a listing for download: the listing streamed from the emulator into the engine's intake, as
// `files --download` does it, with the queue paused so that nothing downloads (see enqueue-probe.ts). The 100,000-entry
// listing (issue 8) two ways: nobody following progress (--json or -q), and progress followed (a display on a
// terminal or a log). enqueue-million-benchmark.ts runs the same rows on a million entries, and the app's core.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext } from './bench-context';
import { startEmulator, stopEmulator } from './emulator-process';
import type { EnqueueProbeJob, EnqueueProbeResult } from './enqueue-probe';
import { LISTING } from './listing-benchmark';
import { median } from './samples';
import { MIB } from './scenario';
import { fixed, renderTable } from './text-table';
import { expectSuccess, runTimed } from './timed-process';

/** A listing to enqueue, the ways to enqueue it, and the targets. */
export interface EnqueueSpec {
  emulatorArgs: readonly string[];
  instrument: string;
  product: string;
  startDate: string;
  endDate?: string;
  ways: readonly EnqueueWay[];
  seconds: number;
  peakRssBytes: number;
}

interface EnqueueWay {
  label: string;
  way: NonNullable<EnqueueProbeJob['way']>;
  followProgress: boolean;
}

const ENQUEUE: EnqueueSpec = {
  emulatorArgs: LISTING.emulatorArgs,
  instrument: 'kcor',
  product: 'pb',
  startDate: '2025-03-16',
  ways: [
    { label: 'intake, no one following progress (--json, -q)', way: 'cli', followProgress: false },
    { label: 'intake, progress followed (a display)', way: 'cli', followProgress: true },
  ],
  /** Issue 8's targets for enqueueing the listing. */
  seconds: 5,
  peakRssBytes: 200 * MIB,
};

interface EnqueueSample extends EnqueueProbeResult {
  /** The probe process's peak RSS polled from outside (VmHWM), as for every other row. */
  polledPeakRssBytes?: number;
}

interface EnqueueRow {
  label: string;
  followProgress: boolean;
  samples: EnqueueSample[];
}

export interface EnqueueBenchResult {
  emulatorArgs: string[];
  rows: EnqueueRow[];
}

export function runEnqueueBenchmark(ctx: BenchContext, probeBundle: string): Promise<EnqueueBenchResult> {
  return runEnqueueRows(ctx, probeBundle, ENQUEUE, 'enqueue');
}

/** Each way of `spec`, ctx.options.runs times, each run a probe process of its own against one emulator. */
export async function runEnqueueRows(ctx: BenchContext, probeBundle: string, spec: EnqueueSpec, name: string): Promise<EnqueueBenchResult> {
  const emulator = await startEmulator(ctx.emulatorBin, [...spec.emulatorArgs]);
  try {
    // Built once before the measured runs: the emulator makes its catalogue on the first listing.
    const warm = await fetch(
      `${emulator.url}/v1/instruments/${spec.instrument}/products/${spec.product}/files/?start-date=${spec.startDate}&end-date=${spec.startDate}`,
    );
    await warm.arrayBuffer();
    const rows: EnqueueRow[] = spec.ways.map((way) => ({ ...way, samples: [] }));
    for (let run = 1; run <= ctx.options.runs; run += 1) {
      for (const [index, row] of rows.entries()) {
        const runDir = path.join(ctx.workDir, `${name}-${index}-r${run}`);
        await rm(runDir, { recursive: true, force: true });
        const outputDir = path.join(runDir, 'out');
        await mkdir(outputDir, { recursive: true });
        try {
          const job: EnqueueProbeJob = {
            baseUrl: emulator.url,
            instrument: spec.instrument,
            product: spec.product,
            startDate: spec.startDate,
            ...(spec.endDate ? { endDate: spec.endDate } : {}),
            stateDir: path.join(runDir, 'state'),
            outputDir,
            way: spec.ways[index]!.way,
            followProgress: row.followProgress,
          };
          const jobFile = path.join(runDir, 'job.json');
          await writeFile(jobFile, JSON.stringify(job));
          const timed = expectSuccess(await runTimed(process.execPath, [probeBundle, jobFile], { timeoutMs: 10 * 60_000 }));
          const result = JSON.parse(timed.stdout) as EnqueueProbeResult;
          if (result.jobs !== result.entries) throw new Error(`the probe queued ${result.jobs} jobs for ${result.entries} listed entries`);
          const sample: EnqueueSample = { ...result, ...(timed.peakRssBytes !== undefined ? { polledPeakRssBytes: timed.peakRssBytes } : {}) };
          row.samples.push(sample);
          ctx.progress.step(
            `  ${row.label} (run ${run}): ${result.entries} entries in ${result.seconds.toFixed(2)} s (CPU ${result.cpuSeconds.toFixed(2)} s), peak RSS ${(peakRss(sample) / MIB).toFixed(0)} MiB, largest update ${result.largestUpdate} jobs`,
          );
        } finally {
          await rm(runDir, { recursive: true, force: true });
        }
      }
    }
    return { emulatorArgs: [...spec.emulatorArgs], rows };
  } finally {
    await stopEmulator(emulator);
  }
}

const peakRss = (sample: EnqueueSample): number => Math.max(sample.polledPeakRssBytes ?? 0, sample.peakRssBytes);
const medianOfRow = (row: EnqueueRow, pick: (sample: EnqueueSample) => number): number | undefined => median(row.samples.map(pick));

export function enqueueTable(result: EnqueueBenchResult, runs: number, spec: EnqueueSpec = ENQUEUE): string {
  const rows = result.rows.map((row) => [
    row.label,
    fixed(
      medianOfRow(row, (x) => x.entries),
      0,
    ),
    fixed(
      medianOfRow(row, (x) => x.seconds),
      2,
    ),
    fixed(
      medianOfRow(row, (x) => x.intakeSeconds),
      2,
    ),
    fixed(
      medianOfRow(row, (x) => x.cpuSeconds),
      2,
    ),
    fixed(
      medianOfRow(row, (x) => peakRss(x) / MIB),
      0,
    ),
    fixed(
      medianOfRow(row, (x) => x.largestUpdate),
      0,
    ),
  ]);
  const span = spec.endDate ? `from ${spec.startDate} to ${spec.endDate}` : `from ${spec.startDate}`;
  return [
    `Enqueueing the listing for download: ${spec.instrument} ${spec.product} ${span}, emulator ${result.emulatorArgs.join(' ')}${runs > 1 ? `, median of ${runs} runs` : ''}`,
    '',
    renderTable(['run', 'entries', 'wall s', 'intake s', 'CPU s', 'peak RSS MB', 'largest update'], rows),
    '',
    'wall s: from the listing request to the last piece queued (streamed and parsed as it arrives, each piece one ledger transaction);',
    'intake s: the part spent checking and queuing (the app lists itself: not split). The queue is paused, so nothing downloads.',
    'largest update: the most job views one progress update carried. Process start and exit not included.',
  ].join('\n');
}

/** The targets, judged from the medians: printed for a reader, never turned into a failure. */
export function enqueueTargetLines(result: EnqueueBenchResult, spec: EnqueueSpec = ENQUEUE, name = 'enqueue'): string[] {
  return result.rows.map((row) => {
    const seconds = medianOfRow(row, (x) => x.seconds);
    const rss = medianOfRow(row, peakRss);
    if (seconds === undefined || rss === undefined) return `${name}, ${row.label}: not measured`;
    const met = seconds <= spec.seconds && rss <= spec.peakRssBytes;
    return `${name}, ${row.label}: ${seconds.toFixed(2)} s, peak RSS ${(rss / MIB).toFixed(0)} MiB (targets <= ${spec.seconds} s, <= ${spec.peakRssBytes / MIB} MiB): ${met ? 'met' : 'MISSED'}`;
  });
}
