// What every end-to-end spec gets, whichever shell runs the app (web mode in Chromium, or Electron).
import type { Page } from 'playwright-core';
import type { RunningEmulator } from '../../src-main/emulator';

export interface E2eContext {
  page: Page;
  emulator: RunningEmulator;
  /** The app's download folder (empty at the start of the suite). */
  downloadFolder: string;
  demoEmail: string;
  /** Saves a screenshot under test-results/screenshots/<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
}
