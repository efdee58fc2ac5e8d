// The real renderer, in Debian's Chromium, through web mode, against the emulator: a person's clicks,
// checked on disk. Screenshots of every screen go to test-results/screenshots/.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { decode as decodePng, type DecodedPng } from 'fast-png';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK_WEB_SOCKETS, contentSecurityPolicy } from '../../src-main/core/content-security-policy';
import { createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { startWebApp, type RunningWebApp } from '../../src-main/web/web-app';
import { temporaryFolder } from '../helpers/fixtures';
import { launchChromium } from './browser';
import { createE2eContext, type E2eContext } from './e2e-context';
import { APP_SPECS } from './specs/app-specs';
import { choosesFoldersInWebMode } from './specs/folder-chooser.spec';
import { goTo, inColourScheme, visible } from './specs/ui-helpers';

const root = path.resolve(import.meta.dirname, '../..');
const rendererFolder = path.join(root, 'dist/renderer');
const screenshots = path.join(root, 'test-results/screenshots');

let emulator: RunningEmulator;
let app: RunningWebApp;
let browser: Browser;
let page: Page;
let context: E2eContext;
/** What the page's Content-Security-Policy blocked during the whole run (Chromium reports each on the console). */
const policyViolations: string[] = [];

beforeAll(async () => {
  if (!existsSync(path.join(rendererFolder, 'index.html'))) throw new Error('dist/renderer is missing: run "npm run build" first (npm test does).');
  await mkdir(screenshots, { recursive: true });
  emulator = await createEmulator({ imageSize: 64 });
  const downloadFolder = await temporaryFolder();
  app = await startWebApp({
    port: 0,
    stateFolder: await temporaryFolder(),
    rendererFolder,
    version: 'e2e',
    downloadFolder,
    server: { baseUrl: emulator.url },
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
  });
  await page.goto(app.server.openUrl);
  context = createE2eContext(page, emulator, downloadFolder, screenshots);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await emulator?.close();
});

describe('the app in web mode', () => {
  for (const [title, spec] of APP_SPECS) it(title, () => spec(context));

  // Web mode only: the desktop app has the native folder dialog.
  it('chooses folders with the folder chooser from Settings and the campaign form: Up, New folder, Choose', () => choosesFoldersInWebMode(context));

  it("carries the app's one Content-Security-Policy in the page too, and nothing the app did was blocked by it", async () => {
    const inPage = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(inPage).toBe(contentSecurityPolicy(LOOPBACK_WEB_SOCKETS, { meta: true }));
    // The specs above opened quick-looks and played files: the FITS worker started under both policies.
    expect(policyViolations).toEqual([]);
  });

  it('takes a screenshot of every screen at 1280x800 and 1920x1080, light and dark', async () => {
    const screens = ['Browse', 'Downloads', 'Settings'] as const;
    for (const [width, height] of [
      [1280, 800],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const scheme of ['light', 'dark'] as const) {
        await inColourScheme(page, scheme);
        const pictures = new Set<string>();
        for (const screen of screens) {
          await goTo(page, screen);
          // The screen asked for is the one shown (hidden screens are not in the accessibility tree).
          await visible(page.getByRole('region', { name: screen, exact: true }));
          for (const other of screens.filter((each) => each !== screen)) {
            expect(await page.getByRole('region', { name: other, exact: true }).count()).toBe(0);
          }
          // A picture left by an earlier run must not stand in for this one.
          const name = `${screen.toLowerCase()}-${width}x${height}-${scheme}`;
          await rm(path.join(screenshots, `${name}.png`), { force: true });
          const png = decodePng(await readFile(await context.screenshot(name)));
          // The whole window at its size, in the scheme asked for: a light page is mostly white, a dark one mostly dark.
          expect([png.width, png.height, png.depth]).toEqual([width, height, 8]);
          const brightness = meanBrightness(png);
          if (scheme === 'light') expect(brightness).toBeGreaterThan(160);
          else expect(brightness).toBeLessThan(96);
          pictures.add(createHash('sha256').update(png.data).digest('hex'));
        }
        expect(pictures.size, 'three different pictures for three screens').toBe(screens.length);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
  });
});

/** The mean of the red, green and blue values of every pixel, 0 (black) to 255 (white), of an 8-bit picture. */
function meanBrightness(png: DecodedPng): number {
  let sum = 0;
  for (let i = 0; i < png.data.length; i += png.channels) sum += (png.data[i]! + png.data[i + 1]! + png.data[i + 2]!) / 3;
  return sum / (png.width * png.height);
}
