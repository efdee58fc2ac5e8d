// Four lanes in one run, each a project, so a failure names its lane (" unit ", " integration "...):
// - unit: Node tests that start no server (the emulator, a throwaway HTTP server, web mode, the demo server),
//   spawn no process (the built mlso-dl, node, knip) and need no build (dist/): pure functions and modules, a
//   few temporary files or a SQLite file at most. Listed below, by folder where a whole folder is such, else by
//   file: a new Node test is integration until it is listed. test/tidy/test-lanes.test.ts fails when a listed
//   file starts a server or a process, or is no longer there (moved files must be listed again).
// - integration: every other Node test (the emulator over real HTTP, the built mlso-dl, web mode, Electron's
//   shell with `electron` mocked, the fault suite).
// - renderer: the renderer's component tests in jsdom (Svelte compiled for the browser, as
//   @testing-library/svelte needs for Svelte 5).
// - e2e: the end-to-end specs, which drive the built renderer in Debian's Chromium through web mode.
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';

/** Folders whose every test is a unit test. */
const UNIT_FOLDERS = ['test/shared/**/*.test.ts', 'test/renderer-workers/**/*.test.ts', 'test/cli/output/**/*.test.ts', 'test/hostile/*-properties.test.ts'];

/** Unit tests in folders that are mostly integration. */
const UNIT_FILES = [
  'test/core/api/listing-windows.test.ts',
  'test/core/downloads/body-pieces.test.ts',
  'test/cli/cr-command.test.ts',
  'test/cli/header-command.test.ts',
  'test/cli/header-json.test.ts',
  'test/cli/pixel-command.test.ts',
  'test/cli/movie-labels.test.ts',
  'test/cli/option-prefixes.test.ts',
  'test/cli/compile-cache.test.ts',
  'test/cli/png-stream.test.ts',
  'test/cli/quicklook-command.test.ts',
  'test/cli/stop-at-once.test.ts',
  'test/core/api/api-server.test.ts',
  'test/core/api/file-listing-parser.test.ts',
  'test/core/api/session-cookie-jar.test.ts',
  'test/core/app/campaign-announce-pace.test.ts',
  'test/core/app/campaign-list-at-once.test.ts',
  'test/core/campaigns/remembered-counts.test.ts',
  'test/core/app/setting-bounds.test.ts',
  'test/core/app/settings-rules.test.ts',
  'test/core/campaigns/campaign-addresses.test.ts',
  'test/core/campaigns/campaign-manifest.test.ts',
  'test/core/campaigns/campaign-sharing.test.ts',
  'test/core/campaigns/verify-many-files.test.ts',
  'test/core/campaigns/file-standing.test.ts',
  'test/core/campaigns/campaign-places.test.ts',
  'test/core/campaigns/set-lookups.test.ts',
  'test/core/campaigns/window-digest.test.ts',
  'test/core/api/download-address-memory.test.ts',
  'test/core/content-security-policy.test.ts',
  'test/core/folder-errors.test.ts',
  'test/core/server-address-rule.test.ts',
  'test/core/state/ledger-recovery.test.ts',
  'test/core/state/ledger-seal.test.ts',
  'test/core/state/old-ledgers.test.ts',
  'test/core/state/sqlite-errors.test.ts',
  'test/core/state/state-folder.test.ts',
  'test/core/state/state-lock-unit.test.ts',
  'test/core/state/state-migrations.test.ts',
  'test/core/downloads/cost-bounded-value.test.ts',
  'test/core/downloads/download-file-answers.test.ts',
  'test/core/downloads/download-ledger.test.ts',
  'test/core/downloads/job-pages.test.ts',
  'test/core/downloads/estimate-seconds-left.test.ts',
  'test/core/downloads/job-view-ends.test.ts',
  'test/core/downloads/existing-files.test.ts',
  'test/core/downloads/taken-names.test.ts',
  'test/core/downloads/temporary-name-bytes.test.ts',
  'test/core/downloads/failure-decision.test.ts',
  'test/core/downloads/file-sink.test.ts',
  'test/core/downloads/fits-completeness.test.ts',
  'test/core/downloads/fits-cuts-agree.test.ts',
  'test/core/downloads/fits-layout-guard.test.ts',
  'test/core/downloads/ledger-and-recovery.test.ts',
  'test/core/downloads/listing-intake-paths.test.ts',
  'test/core/downloads/intake-work.test.ts',
  'test/core/downloads/progress-board.test.ts',
  'test/core/downloads/recovery-folders.test.ts',
  'test/core/downloads/run-tally.test.ts',
  'test/core/downloads/session-keeper.test.ts',
  'test/core/downloads/speed-meter.test.ts',
  'test/electron/electron-binary.test.ts',
  'test/electron/main-window.test.ts',
  'test/electron/packaging-config.test.ts',
  'test/electron/platform-ports.test.ts',
  'test/electron/quit-guard.test.ts',
  'test/electron/session-policy.test.ts',
  'test/electron/session-vault.test.ts',
  'test/electron/settings-store.test.ts',
  'test/electron/window-bounds.test.ts',
  'test/emulator/image-geometry.test.ts',
  'test/emulator/stats-recorder.test.ts',
  'test/emulator/synthetic-fits.test.ts',
  'test/emulator/timestamps.test.ts',
  'test/faults/checkers.test.ts',
  'test/lint/layer-rules.test.ts',
  'test/tidy/license.test.ts',
  'test/tidy/test-lanes.test.ts',
  'test/web/file-settings-store.test.ts',
  'test/web/run-overrides.test.ts',
  'test/web/static-files.test.ts',
];

export const UNIT_TESTS = [...UNIT_FOLDERS, ...UNIT_FILES];

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
