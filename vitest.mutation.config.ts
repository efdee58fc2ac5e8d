// The Node tests that exercise the download engine in-process, for the mutation pass (stryker.config.mjs). Tests
// that spawn the built mlso-dl run dist/, not the mutated source, so they cannot kill a mutant: left out here.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/core/downloads/**/*.test.ts', 'test/faults/**/*.test.ts'],
    exclude: ['**/*process*.test.ts', 'test/faults/**/*soak*.test.ts', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
