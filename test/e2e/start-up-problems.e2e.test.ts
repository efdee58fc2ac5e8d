// The window when the service cannot be reached at start-up: the error banner (its dismiss button in the top-right
// corner, however the narrow column wraps it), accessible in both themes, and "Use demo server", which switches to
// the bundled emulator then and there. Its own web app, since the shared suite's app talks to a working emulator.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebApp, type RunningWebApp } from '../../src-main/web/web-app';
import { temporaryFolder } from '../helpers/fixtures';
import { launchChromium } from './browser';
import { checkEveryScreen } from './specs/accessibility.spec';
import { visible, waitUntil } from './specs/ui-helpers';

const root = path.resolve(import.meta.dirname, '../..');
const rendererFolder = path.join(root, 'dist/renderer');
const screenshots = path.join(root, 'test-results/screenshots');

/** A loopback address nothing listens on: a port the system handed out, then closed again. */
async function closedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

let app: RunningWebApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(path.join(rendererFolder, 'index.html'))) throw new Error('dist/renderer is missing: run "npm run build" first (npm test does).');
  await mkdir(screenshots, { recursive: true });
  app = await startWebApp({
    port: 0,
    stateFolder: await temporaryFolder(),
    rendererFolder,
    version: 'e2e',
    downloadFolder: await temporaryFolder(),
    server: { baseUrl: await closedAddress() },
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(app.server.openUrl);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('start-up without the service', () => {
  it('keeps the error banner’s dismiss button in its top-right corner', async () => {
    const banner = await visible(page.getByRole('alert').filter({ hasText: /Cannot reach/ }));
    const dismiss = banner.getByRole('button', { name: 'Dismiss message' });
    const [outer, button] = [await banner.boundingBox(), await dismiss.boundingBox()];
    if (!outer || !button) throw new Error('the banner or its dismiss button has no box');
    // The banner wraps (message, then its buttons) in the narrow column: the check is about that case.
    expect(outer.height).toBeGreaterThan(2 * button.height);
    expect(button.y - outer.y).toBeLessThan(button.height / 2);
    expect(outer.x + outer.width - (button.x + button.width)).toBeLessThan(button.width / 2);
    await page.screenshot({ path: path.join(screenshots, 'browse-unreachable-server.png') });
  });

  it('has no serious or critical accessibility violations, light and dark', async () => {
    const blocking = (await checkEveryScreen(page)).filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');
    expect(blocking.map((finding) => `${finding.screen} (${finding.scheme}) ${finding.rule}: ${finding.nodes.join('; ')}`).join('\n')).toBe('');
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Browse' }).click();
  });

  it('switches to the demo server with "Use demo server" and loads its instruments there', async () => {
    await (await visible(page.getByRole('button', { name: 'Use demo server' }))).click();
    const picker = page.getByRole('combobox', { name: 'Instrument' });
    await waitUntil('the demo server’s instruments are offered', async () => (await picker.locator('option[value="kcor"]').count()) > 0);
    await visible(page.getByText('Demo emulator'));
    expect(await page.getByText(/Cannot reach/).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Browse' }).isVisible()).toBe(true);
    await page.screenshot({ path: path.join(screenshots, 'browse-switched-to-demo.png') });
  });
});
