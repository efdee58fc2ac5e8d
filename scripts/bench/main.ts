// `npm run bench`: measures mlso-dl downloading from the bundled emulator over an emulated link and prints
// tables. It measures and reports; it never fails on a slow number.
import { mkdtemp } from 'node:fs/promises';
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

    const sections = chosenSections(options);
    if (options.only.length === 0) {
      progress.step('start-up: mlso-dl --version and files --help, next to a bare node -e ""');
      results.startup = await runStartupBenchmark(cli.binPath, options.quick ? 10 : 20, progress);
      console.log(`\n${startupTable(results.startup)}\n`);

      results.batch = await runBatchBenchmark(ctx);
      console.log(`\n${batchTable(results.batch, options.runs)}\n`);
      console.log(`${endToEndTable(results.batch, options.runs)}\n`);
      const againstFloor = floorTable(results.batch, options.runs);
      if (againstFloor) console.log(`${againstFloor}\n`);
      if (!options.skipBig) {
        const { big, bigBatch } = await runBigFileBenchmarks(ctx);
        results.big = big;
        results.bigBatch = bigBatch;
        console.log(`${bigTable(bigBatch ? [big, bigBatch] : [big], options.runs)}\n`);
      }
      if (!options.skipListing) {
        progress.step('listing: 100,000 entries through a pipe, files --json and the table');
        results.listing = await runListingBenchmark(ctx);
        console.log(`\n${listingTable(results.listing, options.runs)}\n`);
        progress.step('enqueue: the same listing streamed into a paused download engine (skipped with --skip-listing too)');
        results.enqueue = await runEnqueueBenchmark(ctx, paths.enqueueProbe);
        console.log(`\n${enqueueTable(results.enqueue, options.runs)}\n`);
      }
      if (!options.skipCampaign) {
        progress.step('campaign: 5,000 files synced, synced again (nothing to fetch), verified and exported');
        results.campaign = await runCampaignBenchmark(ctx);
        console.log(`\n${campaignTable(results.campaign, options.runs)}\n`);
      }
      if (!options.skipSoak) {
        progress.step('soak: about 5,000 files synced through 10 % faults, RSS and open descriptors sampled every 250 ms');
        results.soak = await runSoakBenchmark(ctx);
        console.log(`\n${soakTable(results.soak)}\n`);
      }
      if (!options.skipUi) {
        progress.step('UI: the results table under a 100,000-file listing (web mode in Chromium)');
        results.ui = await runUiBenchmark(paths.rendererFolder, (line) => progress.step(line));
        console.log(`\n${uiTable(results.ui)}\n`);
        progress.step('UI: the quick-look of a 1024 x 1024 float image, click to pixels (web mode in Chromium)');
        results.quicklook = await runQuickLookBenchmark(paths.rendererFolder, (line) => progress.step(line));
        console.log(`\n${quickLookTable(results.quicklook)}\n`);
      }
    }
    for (const each of sections) {
      progress.step(`${each.name}: ${each.describe}`);
      const result = await each.run(ctx);
      results.sections[each.name] = result;
      console.log(`\n${each.table(result, options.runs)}\n`);
    }
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
