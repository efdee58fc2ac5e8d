// One web-mode session for an end-to-end file: the emulator, the app in web mode over the built renderer, Debian's
// Chromium at 1280x800 on its address, and the spec context. Screenshots go to test-results/screenshots/ (or
// SHOTS_FOLDER).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { startWebApp, type RunningWebApp } from '../../src-main/web/web-app';
import { temporaryFolder } from '../helpers/fixtures';
import { launchChromium } from './browser';
import { createE2eContext, type E2eContext } from './e2e-context';

const root = path.resolve(import.meta.dirname, '../..');
const rendererFolder = path.join(root, 'dist/renderer');
const SCREENSHOTS = process.env.SHOTS_FOLDER ?? path.join(root, 'test-results/screenshots');

export interface WebModeSession {
  emulator: RunningEmulator;
  app: RunningWebApp;
  browser: Browser;
  page: Page;
  context: E2eContext;
}

/**
 * Opens the session. `server`: the emulator started here (the default), or the app's own demo server (the emulator
 * then only completes the spec context). Whatever opened before a failure is closed again.
 */
export async function openWebModeSession(server: 'emulator' | 'demo' = 'emulator'): Promise<WebModeSession> {
  if (!existsSync(path.join(rendererFolder, 'index.html'))) throw new Error('dist/renderer is missing: run "npx vite build" first.');
  await mkdir(SCREENSHOTS, { recursive: true });
  const opened: Partial<WebModeSession> = {};
  try {
    opened.emulator = await createEmulator({ imageSize: 64 });
    const downloadFolder = await temporaryFolder();
    opened.app = await startWebApp({
      port: 0,
      stateFolder: await temporaryFolder(),
      rendererFolder,
      version: 'e2e',
      downloadFolder,
      server: server === 'demo' ? { useDemoServer: true } : { baseUrl: opened.emulator.url },
    });
    opened.browser = await launchChromium();
    opened.page = await opened.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await opened.page.goto(opened.app.server.openUrl);
    opened.context = createE2eContext(opened.page, opened.emulator, downloadFolder, SCREENSHOTS);
    return opened as WebModeSession;
  } catch (error) {
    await closeWebModeSession(opened);
    throw error;
  }
}

export async function closeWebModeSession(session: Partial<WebModeSession> | undefined): Promise<void> {
  await session?.browser?.close();
  await session?.app?.close();
  await session?.emulator?.close();
}
