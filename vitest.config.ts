// Four lanes in one run, each a project, so a failure names its lane (" unit ", " integration "...):
// - unit: Node tests that start no server (the emulator, a throwaway HTTP server, web mode, the demo server),
//   spawn no process (the built mlso-dl, node, knip) and need no build (dist/): pure functions and modules, a
//   few temporary files or a SQLite file at most: the folders below whose every test is such, and elsewhere the
//   files named *.unit.test.ts (a new Node test is integration unless named so). test/tidy/test-lanes.unit.test.ts
//   fails when a file of the lane starts a server or a process.
// - integration: every other Node test (the emulator over real HTTP, the built mlso-dl, web mode, Electron's
//   shell with `electron` mocked, the fault suite).
// - renderer: the renderer's component tests in jsdom (Svelte compiled for the browser, as
//   @testing-library/svelte needs for Svelte 5).
// - e2e: the end-to-end specs, which drive the built renderer in Debian's Chromium through web mode.
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';

/** Folders whose every test is a unit test. */
const UNIT_FOLDERS = [
  'test/shared/**/*.test.ts',
  'test/science/**/*.test.ts',
  'test/renderer-workers/**/*.test.ts',
  'test/cli/output/**/*.test.ts',
  'test/hostile/*-properties.test.ts',
];

/** Unit tests in folders that are mostly integration: named so. */
const UNIT_NAMES = 'test/**/*.unit.test.ts';

export const UNIT_TESTS = [...UNIT_FOLDERS, UNIT_NAMES];

const timeouts = { testTimeout: 20_000, hookTimeout: 20_000 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT_TESTS,
          environment: 'node',
          ...timeouts,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/renderer/**', 'node_modules/**', ...UNIT_TESTS],
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
