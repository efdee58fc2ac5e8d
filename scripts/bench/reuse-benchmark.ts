// Reuse before download (issue 22 item 5): 1,000 files downloaded by `mlso-dl files --download` into one folder, then
// the same 1,000 asked for in a second folder and a third (same state folder): the second takes them from the first
// by copy (a reflink where the file system can), the third by hard link (--link). Whole processes, side by side,
// with the emulator's count of downloads started by each (the reuse rows must start none).
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext } from './bench-context';
import { emulatorCounters, resetEmulatorStats, startEmulator, stopEmulator } from './emulator-process';
import { median } from './samples';
import { fixed, renderTable } from './text-table';
import { expectSuccess, runTimed } from './timed-process';

const FILES = 1_000;
/** KCor pB every 7 s, 32 x 32: the first 1,000 files of its last observing day (the end date is read from a listing). */
const EMULATOR_ARGS = ['--cadence', '7', '--days', '2', '--image-size', '32'];
const DAY = { start: '2025-03-24', end: '2025-03-24T23:59:59' };
const CONCURRENCY = 8;

const STEPS = ['download', 'reuse by copy', 'reuse by --link'] as const;
type Step = (typeof STEPS)[number];

interface ReuseSample {
  wallSeconds: number;
  /** Files the summary says were reused (taken from the first folder). */
  reused: number;
  /** Downloads the emulator started during the run. */
  downloadsStarted: number;
}

export interface ReuseBenchResult {
  files: number;
  steps: Record<Step, ReuseSample[]>;
}

export async function runReuseBenchmark(ctx: BenchContext): Promise<ReuseBenchResult> {
  const emulator = await startEmulator(ctx.emulatorBin, EMULATOR_ARGS);
  const result: ReuseBenchResult = { files: 0, steps: { download: [], 'reuse by copy': [], 'reuse by --link': [] } };
  try {
    const mlsoDl = (...args: string[]) => runTimed(process.execPath, [ctx.cli.binPath, '--base-url', emulator.url, '-q', ...args], { timeoutMs: 10 * 60_000 });
    const listing = expectSuccess(await mlsoDl('files', '-i', 'kcor', '-p', 'pb', '-s', DAY.start, '-e', DAY.end, '--json'));
    const listed = (JSON.parse(listing.stdout) as { files: { 'date-obs': string }[] }).files;
    if (listed.length <= FILES)
      throw new Error(`The emulator (${EMULATOR_ARGS.join(' ')}) lists ${listed.length} KCor files on ${DAY.start}, not more than ${FILES}.`);
    // The end date is not part of the span: the next file's date-obs ends it after exactly FILES files.
    const query = ['files', '-i', 'kcor', '-p', 'pb', '-s', DAY.start, '-e', listed[FILES]!['date-obs']];
    for (let run = 1; run <= ctx.options.runs; run += 1) {
      const work = await mkdtemp(path.join(ctx.workDir, 'reuse-'));
      const measure = async (step: Step, folder: string, ...extra: string[]) => {
        await resetEmulatorStats(emulator);
        const timed = expectSuccess(
          await mlsoDl(
            ...query,
            '--download',
            '-u',
            'demo@example.com',
            '--concurrency',
            String(CONCURRENCY),
            '--output-dir',
            path.join(work, folder),
            '--state-dir',
            path.join(work, 'state'),
            '--json',
            ...extra,
          ),
        );
        const summary = JSON.parse(timed.stdout) as { downloaded: unknown[]; reused?: { count: number } };
        const sample = {
          wallSeconds: timed.wallSeconds,
          reused: summary.reused?.count ?? 0,
          downloadsStarted: (await emulatorCounters(emulator)).downloadsStarted,
        };
        result.steps[step].push(sample);
        if (step === 'download') result.files = summary.downloaded.length;
        ctx.progress.step(
          `  reuse ${step} (run ${run}): wall ${sample.wallSeconds.toFixed(2)} s, ${sample.reused} reused, ${sample.downloadsStarted} downloads started`,
        );
      };
      await measure('download', 'first');
      await measure('reuse by copy', 'copied');
      await measure('reuse by --link', 'linked', '--link');
    }
    return result;
  } finally {
    await stopEmulator(emulator);
  }
}

export function reuseTable(result: ReuseBenchResult, runs: number): string {
  const downloadWall = median(result.steps.download.map((sample) => sample.wallSeconds));
  const rows = STEPS.map((step) => {
    const samples = result.steps[step];
    const wall = median(samples.map((sample) => sample.wallSeconds));
    return [
      step,
      fixed(wall, 2),
      wall === undefined ? '-' : fixed(result.files / wall, 0),
      wall === undefined || downloadWall === undefined ? '-' : fixed(wall / downloadWall, 2),
      samples.map((sample) => sample.reused).join(', '),
      samples.map((sample) => sample.downloadsStarted).join(', '),
    ];
  });
  return [
    `Reuse of ${result.files} files already downloaded into another folder, beside their download (files --download, concurrency ${CONCURRENCY}, one state folder), emulator ${EMULATOR_ARGS.join(' ')}${runs > 1 ? `, median of ${runs} runs` : ''}`,
    '',
    renderTable(['step', 'wall s', 'files/s', 'x download', 'reused', 'downloads started'], rows),
    '',
    'wall s: the whole mlso-dl process (start, listing, intake, copies or links, summary). Each reuse row checks every SHA-256 of the first folder before taking a file.',
  ].join('\n');
}

export function reuseTargetLines(result: ReuseBenchResult): string[] {
  const started = [...result.steps['reuse by copy'], ...result.steps['reuse by --link']].map((sample) => sample.downloadsStarted);
  const download = median(result.steps.download.map((sample) => sample.wallSeconds)) ?? NaN;
  const copy = median(result.steps['reuse by copy'].map((sample) => sample.wallSeconds)) ?? NaN;
  return [
    `reuse of ${result.files} files: ${(copy / download).toFixed(2)}x their download's wall time, downloads started when reusing: ${started.join(', ')} (target 0) ${started.every((count) => count === 0) ? 'met' : 'NOT met'}`,
  ];
}
