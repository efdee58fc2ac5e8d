// Three projects in one run: the Node tests of the core, CLI, emulator and shared code; the renderer's
// component tests in jsdom (Svelte compiled for the browser, as @testing-library/svelte needs for Svelte 5);
// and the end-to-end specs, which drive the built renderer in Debian's Chromium through web mode.
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';

const timeouts = { testTimeout: 20_000, hookTimeout: 20_000 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/renderer/**', 'node_modules/**'],
          environment: 'node',
          ...timeouts,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          // One browser page, specs in order (sign in, then search, then download).
          sequence: { concurrent: false },
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
      {
        plugins: [svelte(), svelteTesting()],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.ts'],
          environment: 'jsdom',
          ...timeouts,
        },
      },
    ],
  },
});
