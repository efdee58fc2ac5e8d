// Mutation testing of the download engine (`npm run mutation`, never part of `npm test`): StrykerJS changes the
// code in src-main/core/downloads (and the state folder's modules under it) one small way at a time (a condition flipped, a constant changed, a call
// removed) and reruns the tests that cover it; a change no test notices is a gap in the tests. The score and the
// survivors go to reports/mutation/ (HTML and JSON) and to the terminal.
// A part of the folder can be run alone, with its own report (a whole run takes hours on two cores):
//   MUTATION_REPORT=ledger npx stryker run --mutate src-main/core/downloads/download-ledger.ts
// Stryker's vitest runner sometimes records a mutant its tests kill as Survived: re-check the survivors with
//   npm run mutation:recheck -- reports/mutation/ledger.json
// @ts-check
const report = process.env.MUTATION_REPORT ?? 'mutation';
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: ['src-main/core/downloads/**/*.ts', 'src-main/core/state/**/*.ts', 'src-main/core/folder-errors.ts'],
  coverageAnalysis: 'perTest',
  // Two cores: one test process per core.
  concurrency: 2,
  // A mutant that hangs a test is counted as detected once it runs this long past the test's normal time.
  timeoutMS: 10_000,
  // Module-level constants would rerun every test for each of their mutants; their uses are mutated anyway.
  ignoreStatic: true,
  timeoutFactor: 2,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${report}.html` },
  jsonReporter: { fileName: `reports/mutation/${report}.json` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
export default config;
