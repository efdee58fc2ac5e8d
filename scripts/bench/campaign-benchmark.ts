// A 5,000-file campaign through the command line, as a researcher runs it: the first sync (list, queue, download),
// a second sync that must fetch nothing, a verify that hashes every file, and the CSV manifest. Wall time and peak
// RSS of each mlso-dl process, and the emulator's download counter after the second sync.
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext } from './bench-context';
import { emulatorCounters, resetEmulatorStats, startEmulator, stopEmulator } from './emulator-process';
import { median } from './samples';
import { MIB } from './scenario';
import { fixed, renderTable } from './text-table';
import { expectSuccess, runTimed } from './timed-process';

const CAMPAIGN = {
  // One KCor pB image every 7 s over the last three observing days: about 5,000 small files.
  emulatorArgs: ['--cadence', '7', '--days', '5', '--image-size', '32'],
  query: ['-i', 'kcor', '-p', 'pb', '-s', '2025-03-22'],
  layout: '{instrument}/{yyyy}/{mm}/{dd}',
  concurrency: 8,
} as const;

const STEPS = ['first sync', 'second sync', 'verify', 'export csv', 'files --download (peer)'] as const;
type Step = (typeof STEPS)[number];

interface CampaignSample {
  wallSeconds: number;
  peakRssBytes?: number;
}

export interface CampaignBenchResult {
  emulatorArgs: string[];
  query: string[];
  files: number;
  /** Downloads the emulator started during the second sync (0 when it is idempotent). */
  secondSyncDownloads: number[];
  steps: Record<Step, CampaignSample[]>;
}

export async function runCampaignBenchmark(ctx: BenchContext): Promise<CampaignBenchResult> {
  const emulator = await startEmulator(ctx.emulatorBin, [...CAMPAIGN.emulatorArgs]);
  const result: CampaignBenchResult = {
    emulatorArgs: [...CAMPAIGN.emulatorArgs],
    query: [...CAMPAIGN.query],
    files: 0,
    secondSyncDownloads: [],
    steps: { 'first sync': [], 'second sync': [], verify: [], 'export csv': [], 'files --download (peer)': [] },
  };
  try {
    for (let run = 1; run <= ctx.options.runs; run += 1) {
      const work = await mkdtemp(path.join(ctx.workDir, 'campaign-'));
      const mlsoDl = (...args: string[]) =>
        runTimed(
          process.execPath,
          [ctx.cli.binPath, '--base-url', emulator.url, '-q', ...(args[0] === 'files' ? [] : ['campaign']), ...args, '--state-dir', path.join(work, 'state')],
          {
            timeoutMs: 10 * 60_000,
          },
        );
      expectSuccess(await mlsoDl('create', 'bench', ...CAMPAIGN.query, '--output-dir', path.join(work, 'files'), '--layout', CAMPAIGN.layout));
      const measure = async (step: Step, ...args: string[]) => {
        const timed = expectSuccess(await mlsoDl(...args));
        result.steps[step].push({ wallSeconds: timed.wallSeconds, peakRssBytes: timed.peakRssBytes });
        const rss = timed.peakRssBytes === undefined ? '-' : (timed.peakRssBytes / MIB).toFixed(0);
        ctx.progress.step(`  campaign ${step} (run ${run}): wall ${timed.wallSeconds.toFixed(2)} s, peak RSS ${rss} MiB`);
        return timed;
      };
      const first = await measure('first sync', 'sync', 'bench', '-u', 'demo@example.com', '--concurrency', String(CAMPAIGN.concurrency), '--json');
      result.files = (JSON.parse(first.stdout) as { total: { onDisk: number } }).total.onDisk;
      await resetEmulatorStats(emulator);
      await measure('second sync', 'sync', 'bench', '-u', 'demo@example.com', '--json');
      result.secondSyncDownloads.push((await emulatorCounters(emulator)).downloadsStarted);
      await measure('verify', 'verify', 'bench', '--json');
      await measure('export csv', 'export', 'bench', '--format', 'csv', '--out', path.join(work, 'manifest.csv'));
      // The same files fetched by a plain download into another folder (same ledger): what a sync costs beyond it.
      await measure(
        'files --download (peer)',
        'files',
        ...CAMPAIGN.query,
        '--download',
        '-u',
        'demo@example.com',
        '--concurrency',
        String(CAMPAIGN.concurrency),
        '--output-dir',
        path.join(work, 'peer'),
        '--json',
      );
    }
    return result;
  } finally {
    await stopEmulator(emulator);
  }
}

export function campaignTable(result: CampaignBenchResult, runs: number): string {
  const rows = STEPS.map((step) => {
    const samples = result.steps[step];
    const wall = median(samples.map((sample) => sample.wallSeconds));
    const rss = median(samples.flatMap((sample) => (sample.peakRssBytes === undefined ? [] : [sample.peakRssBytes])));
    return [step, fixed(wall, 2), wall === undefined ? '-' : fixed(result.files / wall, 0), fixed(rss === undefined ? undefined : rss / MIB, 0)];
  });
  return [
    `Campaign of ${result.files} files (${result.query.join(' ')}, layout ${CAMPAIGN.layout}, concurrency ${CAMPAIGN.concurrency}), emulator ${result.emulatorArgs.join(' ')}${runs > 1 ? `, median of ${runs} runs` : ''}`,
    '',
    renderTable(['step', 'wall s', 'files/s', 'peak RSS MB'], rows),
    '',
    `Downloads started by the second sync: ${result.secondSyncDownloads.join(', ')} (0 = nothing fetched twice). wall s: process start to exit.`,
    'The peer row downloads the same files with files --download into a flat folder: first sync / peer is the cost of the campaign around the downloads.',
  ].join('\n');
}
