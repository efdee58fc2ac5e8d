// The shared end-to-end specs, run against the real desktop app: Electron's binary launched by
// Playwright on the built app, with a throwaway profile whose preferences point at the emulator and a
// temporary download folder. Started by `npm run e2e:electron`, only where the binary exists.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_GLOBAL } from '../../src-shared/contract/contract';
import { createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { SETTINGS_FILE_NAME, USER_DATA_ENV } from '../../src-main/electron/app-locations';
import { temporaryFolder } from '../helpers/fixtures';
import { createE2eContext, type E2eContext } from '../e2e/e2e-context';
import { APP_SPECS } from '../e2e/specs/app-specs';

type Detection = { found: true; executable: string } | { found: false; reason: string };

const root = path.resolve(import.meta.dirname, '../..');
const screenshots = path.join(root, 'test-results/screenshots/electron');

let emulator: RunningEmulator;
let app: ElectronApplication;
let page: Page;
let context: E2eContext;

async function electronExecutable(): Promise<string> {
  const start = (await import(pathToFileURL(path.join(root, 'scripts/start.mjs')).href)) as { findElectronBinary(root: string): Detection };
  const detection = start.findElectronBinary(root);
  if (!detection.found) throw new Error(`Electron's binary is not installed on this machine (${detection.reason}).`);
  return detection.executable;
}

/** A profile folder whose preferences point the app at the emulator and the download folder. */
async function seededProfile(baseUrl: string, downloadFolder: string): Promise<string> {
  const profile = await temporaryFolder();
  await writeFile(path.join(profile, `${SETTINGS_FILE_NAME}.json`), JSON.stringify({ baseUrl, downloadFolder }));
  return profile;
}

beforeAll(async () => {
  await mkdir(screenshots, { recursive: true });
  emulator = await createEmulator({ imageSize: 64 });
  const downloadFolder = await temporaryFolder();
  const profile = await seededProfile(emulator.url, downloadFolder);
  const { ELECTRON_RUN_AS_NODE: _plainNode, ...env } = process.env;
  app = await _electron.launch({
    executablePath: await electronExecutable(),
    // Chromium's sandbox refuses to start as root (containers, CI); the renderer sandbox stays on.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), root],
    cwd: root,
    env: { ...(env as Record<string, string>), [USER_DATA_ENV]: profile },
  });
  page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  context = createE2eContext(page, emulator, downloadFolder, screenshots);
});

afterAll(async () => {
  if (app) {
    // SIGTERM takes the app's own way out (no question, the core closed cleanly) even mid-download.
    const closed = new Promise<void>((resolve) => app.once('close', () => resolve()));
    app.process().kill('SIGTERM');
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (app.process().exitCode === null) app.process().kill('SIGKILL');
  }
  await emulator?.close();
});

describe('the desktop app', () => {
  it('gives the page the contract bridge and nothing of Node or Electron', async () => {
    const exposed = await page.evaluate((name) => {
      // Runs in the page; globalThis is its window.
      const scope = globalThis as unknown as Record<string, unknown>;
      const bridge = scope[name] as Record<string, unknown> | undefined;
      return { bridge: bridge ? Object.keys(bridge).sort() : null, require: typeof scope.require, process: typeof scope.process };
    }, BRIDGE_GLOBAL);
    expect(exposed).toEqual({ bridge: ['invoke', 'on'], require: 'undefined', process: 'undefined' });
  });

  it('answers app:info as the electron transport, on the emulator', async () => {
    const info = await page.evaluate(async (name) => {
      const bridge = (globalThis as unknown as Record<string, { invoke(channel: string, args: unknown): Promise<unknown> }>)[name];
      return bridge?.invoke('app:info', undefined);
    }, BRIDGE_GLOBAL);
    expect(info).toMatchObject({ ok: true, value: { transport: 'electron', serverUrl: emulator.url, canUseNativeDialogs: true } });
  });

  for (const [title, spec] of APP_SPECS) it(title, () => spec(context));
});
