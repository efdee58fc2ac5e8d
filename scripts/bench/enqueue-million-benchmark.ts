// A million listed entries into the queue (issue 22 item 3): six months of KCor pB every 2 s (1,027,686 entries,
// listed in month windows) streamed into a paused engine, as `files --download` takes them with and without a
// progress display, and as the app's core queues the same query (downloads:enqueue). Time and peak RSS beside the
// targets; the same three ways run on 10,000 entries in `npm test` (test/core/downloads/enqueue-ways.test.ts).
import type { BenchContext } from './bench-context';
import { enqueueTable, enqueueTargetLines, runEnqueueRows, type EnqueueBenchResult, type EnqueueSpec } from './enqueue-benchmark';
import { projectPaths } from './project-paths';
import { MIB } from './scenario';

const MILLION: EnqueueSpec = {
  emulatorArgs: ['--cadence', '2', '--days', '181', '--image-size', '8'],
  instrument: 'kcor',
  product: 'pb',
  startDate: '2024-09-24',
  endDate: '2025-03-25',
  ways: [
    { label: 'files --download, no one following progress (--json, -q)', way: 'cli', followProgress: false },
    { label: 'files --download, progress followed (a display)', way: 'cli', followProgress: true },
    { label: "the app's core, downloads:enqueue by query", way: 'app', followProgress: true },
  ],
  seconds: 30,
  peakRssBytes: 300 * MIB,
};

export const runEnqueueMillion = (ctx: BenchContext): Promise<EnqueueBenchResult> =>
  runEnqueueRows(ctx, projectPaths().enqueueProbe, MILLION, 'enqueue-million');

export const enqueueMillionTable = (result: EnqueueBenchResult, runs: number): string => enqueueTable(result, runs, MILLION);

export const enqueueMillionTargetLines = (result: EnqueueBenchResult): string[] => enqueueTargetLines(result, MILLION, 'enqueue-million');
