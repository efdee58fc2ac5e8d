// The end-to-end run through Electron (`npm run e2e:electron`), kept out of `npm test`: it needs
// Electron's binary, which this project's build machines cannot download.
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: path.resolve(import.meta.dirname, '../..'),
  test: {
    include: ['test/e2e-electron/**/*.e2e.ts'],
    environment: 'node',
    // One app, one window, specs in order (they build on each other: sign in, then search, then download).
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
