// `npm run bench`: measures mlso-dl downloading from the bundled emulator over an emulated link and prints
// tables. It measures and reports; it never fails on a slow number.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseBenchOptions, USAGE } from './bench-options';
import { runBatchBenchmark } from './batch-benchmark';
import { runBigFileBenchmarks } from './big-file-benchmark';
import { runUiBenchmark, uiTable, uiTargetLines, type UiResult } from './ui-benchmark';
import { quickLookTable, quickLookTargetLines, runQuickLookBenchmark, type QuickLookResult } from './quicklook-benchmark';
import { listingTable, listingTargetLines, runListingBenchmark } from './listing-benchmark';
import { runStartupBenchmark, startupTable, startupTargetLines } from './startup-benchmark';
import { enqueueTable, enqueueTargetLines, runEnqueueBenchmark } from './enqueue-benchmark';
import { campaignTable, runCampaignBenchmark, type CampaignBenchResult } from './campaign-benchmark';
import { runSoakBenchmark, soakTable, soakTargetLines, type SoakBenchResult } from './soak-benchmark';
import { cleanUp, cleanUpOnSignals, trackFolder } from './cleanup';
import { MlsoDlCli } from './mlso-dl-cli';
import { Progress } from './progress';
import { projectPaths } from './project-paths';
import { batchTable, bigTable, endToEndTable, floorTable, targetLines } from './report-tables';
import { writeResults, type BenchResults } from './results';
import { BANDWIDTH_BYTES_PER_SECOND, LATENCY_SECONDS } from './scenario';
import type { BenchContext } from './bench-context';
import type { BenchOptions } from './bench-options';
import type { BenchSection } from './bench-section';
import { BENCH_SECTIONS } from './bench-sections';
import { FIXED_PARTS } from './fixed-parts';
import { measuredCommit, mergeRecorded, PartRecorder, readRecorded, type PartDescription, type PartStart } from './recorded-results';
import { DOC_FILE, RESULTS_FILE, writeBenchmarksDoc } from './benchmarks-doc.mjs';

async function benchmark(argv: readonly string[]): Promise<number> {
  const options = parseBenchOptions(argv);
  if (!options) {
    console.log(USAGE);
    return 0;
  }
  cleanUpOnSignals();
  const paths = projectPaths();
  const progress = new Progress();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'mlso-bench-'));
  if (!options.keep) trackFolder(workDir);

  const results: BenchResults & {
    error?: string;
    ui?: UiResult;
    quicklook?: QuickLookResult;
    campaign?: CampaignBenchResult;
    soak?: SoakBenchResult;
    sections: Record<string, unknown>;
  } = {
    startedAt: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: os.availableParallelism(),
    options: { quick: options.quick, skipBig: options.skipBig, skipUi: options.skipUi, runs: options.runs, cli: options.cli ?? paths.cliBin },
    cliCapabilities: { concurrency: false, stateDir: false },
    link: { latencySeconds: LATENCY_SECONDS, bandwidthBytesPerSecond: BANDWIDTH_BYTES_PER_SECOND },
    sections: {},
  };
  try {
    progress.step(`mlso-dl benchmark: node ${process.version}, ${results.cpus} CPUs, temporary folder ${workDir}`);
    const cli = await MlsoDlCli.detect(options.cli ?? paths.cliBin);
    progress.step(`measuring ${cli.binPath}`);
    results.cliCapabilities = cli.capabilities;
    if (!cli.capabilities.concurrency) progress.note('mlso-dl has no --concurrency flag: every mlso-dl row runs its default (sequential) download');
    if (!cli.capabilities.stateDir) progress.note('mlso-dl has no --state-dir flag: runs go without it');
    const ctx: BenchContext = { cli, emulatorBin: paths.cliBin, nodeGetWorker: paths.nodeGetWorker, workDir, options, progress };
    const recorder = new PartRecorder(measuredCommit(paths.root), options);
    /** Prints a part's tables and keeps them for the record. */
    const show = (name: string, start: PartStart, ...tables: string[]): void => {
      console.log(`\n${tables.join('\n\n')}\n`);
      recorder.end(name, start, tables);
    };
    const begin = (part: PartDescription): PartStart => {
      progress.step(`${part.name}: ${part.describe}`);
      return recorder.begin();
    };

    const sections = chosenSections(options);
    if (options.only.length === 0) {
      let start = begin(FIXED_PARTS.startup);
      results.startup = await runStartupBenchmark(cli.binPath, options.quick ? 10 : 20, progress);
      show('startup', start, startupTable(results.startup));

      start = begin(FIXED_PARTS.batch);
      results.batch = await runBatchBenchmark(ctx);
      const againstFloor = floorTable(results.batch, options.runs);
      show('batch', start, batchTable(results.batch, options.runs), endToEndTable(results.batch, options.runs), ...(againstFloor ? [againstFloor] : []));
      if (!options.skipBig) {
        start = begin(FIXED_PARTS.big);
        const { big, bigBatch } = await runBigFileBenchmarks(ctx);
        results.big = big;
        results.bigBatch = bigBatch;
        show('big', start, bigTable(bigBatch ? [big, bigBatch] : [big], options.runs));
      }
      if (!options.skipListing) {
        start = begin(FIXED_PARTS.listing);
        results.listing = await runListingBenchmark(ctx);
        show('listing', start, listingTable(results.listing, options.runs));
        start = begin(FIXED_PARTS.enqueue);
        results.enqueue = await runEnqueueBenchmark(ctx, paths.enqueueProbe);
        show('enqueue', start, enqueueTable(results.enqueue, options.runs));
      }
      if (!options.skipCampaign) {
        start = begin(FIXED_PARTS.campaign);
        results.campaign = await runCampaignBenchmark(ctx);
        show('campaign', start, campaignTable(results.campaign, options.runs));
      }
      if (!options.skipSoak) {
        start = begin(FIXED_PARTS.soak);
        results.soak = await runSoakBenchmark(ctx);
        show('soak', start, soakTable(results.soak));
      }
      if (!options.skipUi) {
        start = begin(FIXED_PARTS.ui);
        results.ui = await runUiBenchmark(paths.rendererFolder, ctx.emulatorBin, (line) => progress.step(line));
        show('ui', start, uiTable(results.ui));
        start = begin(FIXED_PARTS.quicklook);
        results.quicklook = await runQuickLookBenchmark(paths.rendererFolder, (line) => progress.step(line));
        show('quicklook', start, quickLookTable(results.quicklook));
      }
    }
    for (const each of sections) {
      const start = begin(each);
      const result = await each.run(ctx);
      results.sections[each.name] = result;
      show(each.name, start, each.table(result, options.runs));
    }
    if (options.record) await record(paths.root, recorder);
    results.totalSeconds = progress.seconds();
    console.log(
      [
        ...targetLines(results),
        ...(results.ui ? uiTargetLines(results.ui) : []),
        ...(results.quicklook ? quickLookTargetLines(results.quicklook) : []),
        ...(results.listing ? listingTargetLines(results.listing) : []),
        ...(results.startup ? startupTargetLines(results.startup) : []),
        ...(results.enqueue ? enqueueTargetLines(results.enqueue) : []),
        ...(results.soak ? soakTargetLines(results.soak) : []),
        ...sections.flatMap((each) => (each.name in results.sections ? each.targetLines(results.sections[each.name]) : [])),
      ].join('\n'),
    );
    console.log(
      `\n${os.availableParallelism()} CPUs shared by the emulator, the client and this harness. Raw numbers: ${path.relative(process.cwd(), paths.resultsFile) || paths.resultsFile}; took ${results.totalSeconds.toFixed(0)} s.`,
    );
    return 0;
  } catch (error) {
    results.error = error instanceof Error ? error.message : String(error);
    console.error(`\nbench: failed: ${results.error}`);
    return 1;
  } finally {
    await writeResults(paths.resultsFile, results).catch((error: unknown) => console.error(`bench: could not write ${paths.resultsFile}: ${String(error)}`));
    await cleanUp();
    if (options.keep) progress.note(`kept ${workDir}`);
  }
}

/** Writes the parts measured in this run into the committed record, and the page made from it. */
async function record(root: string, recorder: PartRecorder): Promise<void> {
  const file = path.join(root, RESULTS_FILE);
  const merged = mergeRecorded(await readRecorded(file), [...Object.values(FIXED_PARTS), ...BENCH_SECTIONS], USAGE, recorder.measured);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(merged, null, 2)}\n`);
  await writeBenchmarksDoc(root);
  console.log(`\nRecorded ${[...recorder.measured.keys()].join(', ')} in ${RESULTS_FILE} and wrote ${DOC_FILE}: commit both.`);
}

/** The sections to run, in their order: all but --skip ones, or only the --only ones; an unknown name is an error. */
function chosenSections(options: BenchOptions): BenchSection[] {
  const names = new Set(BENCH_SECTIONS.map((each) => each.name));
  for (const name of [...options.skip, ...options.only]) {
    if (!names.has(name)) throw new Error(`there is no section "${name}"; the sections are: ${[...names].join(', ') || 'none'}`);
  }
  return BENCH_SECTIONS.filter((each) => (options.only.length === 0 || options.only.includes(each.name)) && !options.skip.includes(each.name));
}

benchmark(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
