// One web-mode session for an end-to-end file: the emulator, the app in web mode over the built renderer, Debian's
// Chromium at 1280x800 on its address, and the spec context. Screenshots go to test-results/screenshots/ (or
// SHOTS_FOLDER).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Settings } from '../../src-shared/settings/settings-types';
import { createEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator';
import { fileSettingsStore } from '../../src-main/web/file-settings-store';
import { startWebApp, type RunningWebApp } from '../../src-main/web/web-app';
import { temporaryFolder } from '../helpers/fixtures';
import { launchChromium } from './browser';
import { createE2eContext, type E2eContext } from './e2e-context';

const root = path.resolve(import.meta.dirname, '../..');
const rendererFolder = path.join(root, 'dist/renderer');
const SCREENSHOTS = process.env.SHOTS_FOLDER ?? path.join(root, 'test-results/screenshots');

export interface WebModeSession {
  emulator: RunningEmulator;
  /** The app's state folder (its saved settings, ledger and kept search). */
  stateFolder: string;
  app: RunningWebApp;
  browser: Browser;
  page: Page;
  context: E2eContext;
}

export interface WebModeSessionOptions {
  /** The emulator's knobs over the session's own (small images). */
  emulator?: Partial<EmulatorOptions>;
  /** Settings saved in the state folder before the app starts, as an earlier run of the user's would leave them. */
  savedSettings?: Partial<Settings>;
  /** Chromium shows its scroll bars (headless, it hides them). */
  scrollBars?: boolean;
}

/**
 * Opens the session. `server`: the emulator started here (the default), or the app's own demo server (the emulator
 * then only completes the spec context). Whatever opened before a failure is closed again.
 */
async function openWebModeSession(server: 'emulator' | 'demo' = 'emulator', options: WebModeSessionOptions = {}): Promise<WebModeSession> {
  if (!existsSync(path.join(rendererFolder, 'index.html'))) throw new Error('dist/renderer is missing: run "npx vite build" first.');
  await mkdir(SCREENSHOTS, { recursive: true });
  const opened: Partial<WebModeSession> = {};
  try {
    opened.emulator = await createEmulator({ imageSize: 64, ...options.emulator });
    const downloadFolder = await temporaryFolder();
    opened.stateFolder = await temporaryFolder();
    if (options.savedSettings) {
      // Saved the way the app saves them, so the app reads them as a user's own.
      const store = fileSettingsStore(opened.stateFolder, downloadFolder);
      store.write({ ...store.read(), ...options.savedSettings });
    }
    opened.app = await startWebApp({
      port: 0,
      stateFolder: opened.stateFolder,
      rendererFolder,
      version: 'e2e',
      downloadFolder,
      server: server === 'demo' ? { useDemoServer: true } : { baseUrl: opened.emulator.url },
    });
    opened.browser = await launchChromium({ scrollBars: options.scrollBars ?? false });
    opened.page = await opened.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await opened.page.goto(opened.app.server.openUrl);
    opened.context = createE2eContext(opened.page, opened.emulator, downloadFolder, SCREENSHOTS);
    return opened as WebModeSession;
  } catch (error) {
    await closeWebModeSession(opened);
    throw error;
  }
}

async function closeWebModeSession(session: Partial<WebModeSession> | undefined): Promise<void> {
  await session?.browser?.close();
  await session?.app?.close();
  await session?.emulator?.close();
}

/**
 * Opens the session before the file's tests and closes it after them; the file's own hooks, registered later, run
 * after it opens and before it closes. Each field is read from the open session when it is read: in tests and hooks,
 * not at the file's top level.
 */
export function useWebModeSession(server: 'emulator' | 'demo' = 'emulator', options: WebModeSessionOptions = {}): WebModeSession {
  let session: WebModeSession | undefined;
  beforeAll(async () => {
    session = await openWebModeSession(server, options);
  }, 60_000);
  afterAll(() => closeWebModeSession(session));
  return new Proxy({} as WebModeSession, {
    get: (_, field) => {
      if (!session) throw new Error('The web-mode session is not open: read its fields inside a test or a hook.');
      return session[field as keyof WebModeSession];
    },
  });
}
