// The second table: files far larger than the RSS budget (8192x8192 float32, 256 MiB each), with no bandwidth
// limit, so only the client's (and the emulator's) own speed counts. Peak RSS is the number that matters here:
// it must not grow with the file size. The emulator generates and gzips these bodies on the fly, which bounds
// every client's speed; the Node baseline row shows that ceiling.
import { nodeGetBaseline } from './baselines';
import { startEmulator, stopEmulator } from './emulator-process';
import { expectExactly } from './file-window';
import { measureBaseline, measureCli, type Workload } from './measure-runs';
import { sessionCookie } from './raw-http';
import type { RowResult, ScenarioResult } from './results';
import { BIG, BIG_IMAGE_SIZE, BIG_RAW_MIN_BYTES } from './scenario';
import type { BenchContext } from './bench-context';
import type { FileQuery } from './mlso-dl-cli';

const bigEmulatorArgs = (): string[] => ['--image-size', String(BIG_IMAGE_SIZE), '--bandwidth', '0'];

interface BigScenario {
  title: string;
  window: { start: string; end: string; files: number };
  concurrency: number;
  name: string;
}

/** The single big file, and (unless quick) the five-file batch at concurrency 8; one emulator serves both. */
export async function runBigFileBenchmarks(ctx: BenchContext): Promise<{ big: ScenarioResult; bigBatch?: ScenarioResult }> {
  const emulatorArgs = bigEmulatorArgs();
  ctx.progress.step(`starting the big-file emulator (${emulatorArgs.join(' ')})`);
  const emulator = await startEmulator(ctx.emulatorBin, emulatorArgs);
  try {
    const cookie = await sessionCookie(emulator.url);
    const run = async (scenario: BigScenario): Promise<ScenarioResult> => {
      const query: FileQuery = { instrument: BIG.instrument, product: BIG.product, start: scenario.window.start, end: scenario.window.end };
      const files = await expectExactly(scenario.window.files, query, (q) => ctx.cli.list(emulator.url, q));
      const work: Workload = { emulator, query, files, minFitsBytes: BIG_RAW_MIN_BYTES, workDir: ctx.workDir };
      const baseline = nodeGetBaseline(ctx.nodeGetWorker);
      const baselineRow: RowResult = { label: baseline.label, concurrency: scenario.concurrency, concurrencyApplied: true, samples: [] };
      const cliRow: RowResult = { label: 'mlso-dl', concurrency: scenario.concurrency, concurrencyApplied: ctx.cli.capabilities.concurrency, samples: [] };
      for (let r = 1; r <= ctx.options.runs; r++) {
        // The baseline goes first: the bodies are streamed without Content-Length, so its saved files are how the
        // wire size is known when mlso-dl does not report bytesReceived itself.
        ctx.progress.step(`run ${r}/${ctx.options.runs}: ${scenario.name}, ${baseline.label}, concurrency ${scenario.concurrency}`);
        const measured = await measureBaseline(baseline, work, scenario.concurrency, `${scenario.name}-baseline-r${r}`, cookie);
        work.wireBytes ??= measured.wireBytes;
        baselineRow.samples.push(measured.sample);
        ctx.progress.sampleDone(measured.sample);
        ctx.progress.step(`run ${r}/${ctx.options.runs}: ${scenario.name}, mlso-dl, concurrency ${scenario.concurrency}`);
        cliRow.samples.push(await measureCli(ctx.cli, work, scenario.concurrency, `${scenario.name}-mlso-dl-r${r}`));
        ctx.progress.sampleDone(cliRow.samples.at(-1)!);
      }
      const wireTotalBytes = work.wireBytes && [...work.wireBytes.values()].reduce((sum, bytes) => sum + bytes, 0);
      return {
        title: scenario.title,
        emulatorArgs,
        query,
        files: files.length,
        wireTotalBytes,
        wireMeanBytes: wireTotalBytes === undefined ? undefined : wireTotalBytes / files.length,
        rows: [cliRow, baselineRow],
      };
    };

    const big = await run({ title: `one ${BIG_IMAGE_SIZE}x${BIG_IMAGE_SIZE} float FITS file`, window: BIG.single, concurrency: 1, name: 'big' });
    const bigBatch = ctx.options.quick
      ? undefined
      : await run({
          title: `${BIG.batch.files} ${BIG_IMAGE_SIZE}x${BIG_IMAGE_SIZE} files at once`,
          window: BIG.batch,
          concurrency: BIG.batch.concurrency,
          name: 'big-batch',
        });
    return { big, bigBatch };
  } finally {
    await stopEmulator(emulator);
  }
}
