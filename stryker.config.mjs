// Mutation testing of the download engine (`npm run mutation`, never part of `npm test`): StrykerJS changes the
// code in src-main/core/downloads one small way at a time (a condition flipped, a constant changed, a call
// removed) and reruns the tests that cover it; a change no test notices is a gap in the tests. The score and the
// survivors go to reports/mutation/ (HTML and JSON) and to the terminal.
// @ts-check
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: ['src-main/core/downloads/**/*.ts'],
  coverageAnalysis: 'perTest',
  // Two cores: one test process per core.
  concurrency: 2,
  timeoutMS: 30_000,
  timeoutFactor: 2,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
export default config;
