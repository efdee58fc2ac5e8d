// The benchmark's sections in the order they run (see bench-section.ts): one import and one line each.
import { section, type BenchSection } from './bench-section';
import { runVerifyBenchmark, verifyTable, verifyTargetLines } from './verify-benchmark';

export const BENCH_SECTIONS: readonly BenchSection[] = [
  section({
    name: 'verify',
    describe: '100,000 files of 32 x 32 and 1,000 of 1024 x 1024, beside sha256sum on every core',
    run: runVerifyBenchmark,
    table: verifyTable,
    targetLines: verifyTargetLines,
  }),
];
