// The Node tests that exercise the download engine in-process, for the mutation pass (stryker.config.mjs): its own
// tests, the fault suite, the hostile-input properties (gzip layers, paths) and the campaigns (folder layouts go
// through the engine's intake). Tests that spawn the built mlso-dl run dist/, not the mutated source, so they
// cannot kill a mutant: left out here.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/core/downloads/**/*.test.ts', 'test/faults/**/*.test.ts', 'test/hostile/**/*.test.ts', 'test/core/campaigns/**/*.test.ts'],
    exclude: ['**/*process*.test.ts', 'test/faults/**/*soak*.test.ts', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
