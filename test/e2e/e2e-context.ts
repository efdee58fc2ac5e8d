// What every end-to-end spec gets, whichever shell runs the app (web mode in Chromium, or Electron).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DEMO_EMAIL, type RunningEmulator } from '../../src-main/emulator';

export interface E2eContext {
  page: Page;
  emulator: RunningEmulator;
  /** The app's download folder (empty at the start of the suite). */
  downloadFolder: string;
  demoEmail: string;
  /** Saves a screenshot of the page as <screenshotFolder>/<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
  /** Saves a text (a report such as the accessibility findings) beside the screenshots and returns its path. */
  saveResult(fileName: string, text: string): Promise<string>;
}

export function createE2eContext(page: Page, emulator: RunningEmulator, downloadFolder: string, screenshotFolder: string): E2eContext {
  return {
    page,
    emulator,
    downloadFolder,
    demoEmail: DEMO_EMAIL,
    screenshot: async (name) => {
      const file = path.join(screenshotFolder, `${name}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    saveResult: async (fileName, text) => {
      const file = path.join(screenshotFolder, fileName);
      await writeFile(file, text);
      return file;
    },
  };
}
