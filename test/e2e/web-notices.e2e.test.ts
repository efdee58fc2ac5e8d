// Web mode's notices in Debian's Chromium, against the emulator: once the browser allows notifications, a run of
// downloads that ends while the page is not in front is told through the browser's Notification API, in the desktop
// app's words and with the status bar's figures.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, DEMO_EMAIL, type RunningEmulator } from '../../src-main/emulator';
import { startWebApp, type RunningWebApp } from '../../src-main/web/web-app';
import { temporaryFolder } from '../helpers/fixtures';
import { launchChromium } from './browser';
import { search } from './specs/downloads.spec';
import { goTo, signIn, visible, waitUntil } from './specs/ui-helpers';

const rendererFolder = path.resolve(import.meta.dirname, '../../dist/renderer');

let emulator: RunningEmulator;
let app: RunningWebApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(path.join(rendererFolder, 'index.html'))) throw new Error('dist/renderer is missing: run "npm run build" first (npm test does).');
  emulator = await createEmulator({ imageSize: 64 });
  app = await startWebApp({
    port: 0,
    stateFolder: await temporaryFolder(),
    rendererFolder,
    version: 'e2e',
    downloadFolder: await temporaryFolder(),
    server: { baseUrl: emulator.url },
  });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['notifications'], { origin: new URL(app.server.openUrl).origin });
  // The real Notification, recorded as it is made; and the page behind another window, as a long download leaves it.
  await context.addInitScript({
    content: `
      window.__notices = [];
      const Real = window.Notification;
      window.Notification = class extends Real {
        constructor(title, options) {
          super(title, options);
          window.__notices.push({ title, body: options?.body });
        }
      };
      document.hasFocus = () => false;
    `,
  });
  page = await context.newPage();
  await page.goto(app.server.openUrl);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await emulator?.close();
});

const notices = () => page.evaluate<{ title: string; body: string | undefined }[]>('window.__notices');

describe('notices in web mode', () => {
  it('tells the end of a run of downloads through the browser, with the figures of the status bar', async () => {
    await goTo(page, 'Settings');
    await visible(page.getByRole('checkbox', { name: /Notify when downloads or a campaign sync end/ }));
    // Allowed already: the button that asks the browser is not offered.
    expect(await page.getByRole('button', { name: 'Allow notifications in this browser' }).count()).toBe(0);
    await signIn(page, DEMO_EMAIL);
    await search(page, { 'Start date': '2025-03-24', Every: '4hours' });
    const downloadAll = await visible(page.getByRole('button', { name: 'Download all' }));
    await downloadAll.click();
    await waitUntil('a notice of the run', async () => (await notices()).length > 0, 30_000);
    const status = await page
      .getByText(/^last run: /)
      .filter({ visible: true })
      .first()
      .innerText();
    const [, done, goal] = /last run: (\d+) of (\d+) files/.exec(status) ?? [];
    expect(await notices()).toEqual([{ title: 'Downloads finished', body: `${done} of ${goal} files done` }]);
  });
});
