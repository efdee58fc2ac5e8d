// The first table: 60 KCor-sized files over a 40 ms, 25 MiB/s-per-connection link, fetched by mlso-dl at
// concurrency 1, 4 and 8 and by generic parallel downloaders with 8 connections.
import {
  aria2cBaseline,
  curlHasParallel,
  curlParallelBaseline,
  installed,
  nodeFloorBaseline,
  nodeGetBaseline,
  shellWayBaseline,
  thenDecompressed,
  type Baseline,
} from './baselines';
import { startEmulator, stopEmulator } from './emulator-process';
import { windowWithExactly } from './file-window';
import { linkLimitSeconds } from './link-limit';
import { measureBaseline, measureCli, type Workload } from './measure-runs';
import { sessionCookie } from './raw-http';
import type { RowResult, ScenarioResult } from './results';
import { BANDWIDTH_BYTES_PER_SECOND, BASELINE_CONCURRENCY, BATCH, BATCH_IMAGE_SIZE, LATENCY_SECONDS, MIB } from './scenario';
import { measureWireSizes } from './wire-sizes';
import type { BenchContext } from './bench-context';
import type { Progress } from './progress';

const batchEmulatorArgs = (): string[] => [
  '--latency',
  `${Math.round(LATENCY_SECONDS * 1000)}ms`,
  '--bandwidth',
  `${BANDWIDTH_BYTES_PER_SECOND / MIB}MB/s`,
  '--image-size',
  String(BATCH_IMAGE_SIZE),
];

export async function runBatchBenchmark(ctx: BenchContext): Promise<ScenarioResult> {
  const { cli, options, progress } = ctx;
  const count = options.quick ? BATCH.quickFiles : BATCH.files;
  const concurrencies = options.quick ? BATCH.quickConcurrencies : BATCH.concurrencies;
  const emulatorArgs = batchEmulatorArgs();
  progress.step(`starting the emulator (${emulatorArgs.join(' ')})`);
  const emulator = await startEmulator(ctx.emulatorBin, emulatorArgs);
  try {
    const { query, files } = await windowWithExactly(
      count,
      { instrument: BATCH.instrument, product: BATCH.product, start: BATCH.start },
      BATCH.cadenceSeconds,
      (q) => cli.list(emulator.url, q),
    );
    progress.step(`${files.length} files ${query.start}..${query.end}; measuring their gzip sizes (and warming the emulator's cache)`);
    const cookie = await sessionCookie(emulator.url);
    const wire = await measureWireSizes(files, cookie, BASELINE_CONCURRENCY);
    const work: Workload = { emulator, query, files, wireBytes: wire.byFile, minFitsBytes: 1, workDir: ctx.workDir };

    const rows: RowResult[] = concurrencies.map((concurrency) => ({
      label: 'mlso-dl',
      concurrency,
      concurrencyApplied: cli.capabilities.concurrency,
      linkLimitSeconds: linkLimitSeconds(count, concurrency, wire.meanBytes),
      samples: [],
    }));
    const baselines = availableBaselines(ctx.nodeGetWorker, progress);
    const baselineRows: RowResult[] = baselines.map((baseline) => ({
      label: baseline.label,
      concurrency: BASELINE_CONCURRENCY,
      concurrencyApplied: true,
      linkLimitSeconds: linkLimitSeconds(count, BASELINE_CONCURRENCY, wire.meanBytes),
      samples: [],
    }));

    // Repetitions go round the whole set rather than repeating one row, so slow drift (the machine warming up,
    // another job starting) spreads over every row instead of landing on one.
    for (let r = 1; r <= options.runs; r++) {
      for (const row of rows) {
        progress.step(`run ${r}/${options.runs}: mlso-dl, concurrency ${row.concurrency}`);
        row.samples.push(await measureCli(cli, work, row.concurrency, `batch-mlso-dl-c${row.concurrency}-r${r}`));
        progress.sampleDone(row.samples.at(-1)!);
      }
      for (const [index, baseline] of baselines.entries()) {
        const row = baselineRows[index]!;
        progress.step(`run ${r}/${options.runs}: ${baseline.label}`);
        const { sample } = await measureBaseline(baseline, work, BASELINE_CONCURRENCY, `batch-baseline-${index}-r${r}`, cookie);
        row.samples.push(sample);
        progress.sampleDone(sample);
      }
    }
    return {
      title: `${count} KCor-sized files (${BATCH_IMAGE_SIZE}x${BATCH_IMAGE_SIZE} float FITS)`,
      emulatorArgs,
      query,
      files: count,
      wireTotalBytes: wire.totalBytes,
      wireMeanBytes: wire.meanBytes,
      rows: [...rows, ...baselineRows],
    };
  } finally {
    await stopEmulator(emulator);
  }
}

function availableBaselines(nodeGetWorker: string, progress: Progress): Baseline[] {
  const baselines = [nodeGetBaseline(nodeGetWorker)];
  if (installed('aria2c')) baselines.push(aria2cBaseline());
  else progress.note('aria2c is not on PATH: its baseline row is left out');
  if (installed('curl') && curlHasParallel()) baselines.push(curlParallelBaseline());
  else progress.note('curl with --parallel is not available: its baseline row is left out');
  // Like for like: the fastest generic tool at hand, then the decompression mlso-dl does on the way.
  baselines.push(thenDecompressed(installed('aria2c') ? aria2cBaseline() : baselines[0]!));
  // And the least a Node program can do to deliver the same: how much of mlso-dl's time is Node's own on this machine.
  baselines.push(nodeFloorBaseline(nodeGetWorker));
  // And the shell way to the same files: aria2c, then gzip -dc and sha256sum on both cores, then sync.
  if (installed('aria2c')) baselines.push(shellWayBaseline());
  else progress.note('aria2c is not on PATH: the shell way (aria2c, gzip -dc, sha256sum, sync) is left out too');
  return baselines;
}
