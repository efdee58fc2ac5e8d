// The benchmark's sections in the order they run (see bench-section.ts): one import and one line each.
import { section, type BenchSection } from './bench-section';
import { runVerifyBenchmark, verifyTable, verifyTargetLines } from './verify-benchmark';
import { downloadsTable, downloadsTargetLines, runDownloadsBenchmark } from './downloads-benchmark';
import { reuseTable, reuseTargetLines, runReuseBenchmark } from './reuse-benchmark';
import { enqueueMillionTable, enqueueMillionTargetLines, runEnqueueMillion } from './enqueue-million-benchmark';
import { campaignMillionTable, campaignMillionTargetLines, runCampaignMillion } from './campaign-million-benchmark';
import { quickLookLoadTable, quickLookLoadTargetLines, runQuickLookLoad } from './quicklook-load-benchmark';
import { browseMillionTable, browseMillionTargetLines, runBrowseMillion } from './browse-million-benchmark';

export const BENCH_SECTIONS: readonly BenchSection[] = [
  section({
    name: 'verify',
    describe: '100,000 files of 32 x 32 and 1,000 of 1024 x 1024, beside sha256sum on every core',
    run: runVerifyBenchmark,
    table: verifyTable,
    targetLines: verifyTargetLines,
  }),
  section({
    name: 'downloads-million',
    describe: 'the Downloads screen over a ledger of 1,000,000 jobs: first rows, scrolling, a progress event, beside the snapshot it loaded before',
    run: runDownloadsBenchmark,
    table: downloadsTable,
    targetLines: downloadsTargetLines,
  }),
  section({
    name: 'browse-million',
    describe: 'Browse over a search of 1,027,686 files in web mode: first rows, the complete count, jumps and wheel, Ctrl+A and Download',
    run: runBrowseMillion,
    table: browseMillionTable,
    targetLines: browseMillionTargetLines,
  }),
  section({
    name: 'enqueue-million',
    describe: '1,027,686 listed entries into a paused queue: files --download with and without progress, and the app core',
    run: runEnqueueMillion,
    table: enqueueMillionTable,
    targetLines: enqueueMillionTargetLines,
  }),
  section({
    name: 'campaign-million',
    describe: 'a 1,000,000-file campaign: first sync (the enqueue), a second with nothing new, one after a new day',
    run: runCampaignMillion,
    table: campaignMillionTable,
    targetLines: campaignMillionTargetLines,
  }),
  section({
    name: 'quicklook-load',
    describe: 'the quick-look of a 1024 x 1024 KCor file, click to pixels in Chromium, idle and under stress-ng --cpu 2',
    run: runQuickLookLoad,
    table: quickLookLoadTable,
    targetLines: quickLookLoadTargetLines,
  }),
  section({
    name: 'reuse',
    describe: '1,000 files downloaded into one folder, beside the same 1,000 reused into another by copy and by --link',
    run: runReuseBenchmark,
    table: reuseTable,
    targetLines: reuseTargetLines,
  }),
];
