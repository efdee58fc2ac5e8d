// Screenshots of every screen for a look before calling the UI done (not part of npm test):
//   node test/renderer/preview/preview.mjs [--no-build] [--only SHOT] [--small]  (--small: 1280x800 alone)
// Builds the renderer, serves dist/renderer on 127.0.0.1, injects a fake window.mlsoBridge (100,000-file
// listing, busy queue) and photographs each screen at 1280x800 and 1920x1080, light and dark, into
// test-results/renderer-preview/.
import { createServer } from 'node:http';
import { mkdir, readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as viteBuild } from 'vite';
import { build as esbuild } from 'esbuild';
import { chromium } from 'playwright-core';

const root = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const distDir = join(root, 'dist/renderer');
const outDir = join(root, 'test-results/renderer-preview');

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json', '.svg': 'image/svg+xml' };

async function serve() {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(distDir, path === '/' ? 'index.html' : path);
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

async function bridgeScript() {
  const result = await esbuild({
    entryPoints: [join(root, 'test/renderer/preview/preview-bridge.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
  });
  return result.outputFiles[0].text;
}

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];
const SCHEMES = ['light', 'dark'];

/** Each shot: a scenario for the fake and the steps that bring the window into the state to photograph. */
const SHOTS = [
  {
    name: 'browse-kcor',
    scenario: { signedIn: true },
    async steps(page) {
      await page.getByLabel('Instrument').selectOption('kcor');
      await page.getByText('polarized brightness image').waitFor();
      await page.getByRole('button', { name: 'Search' }).click();
      const grid = page.getByRole('grid', { name: 'Files found' });
      await grid.waitFor();
      await page.locator('#file-row-3').click();
      await page.locator('#file-row-9').click({ modifiers: ['Shift'] });
      await page.locator('#file-row-14').click();
    },
  },
  {
    name: 'browse-ucomp-validation',
    scenario: { signedIn: true },
    async steps(page) {
      await page.getByLabel('Instrument').selectOption('ucomp');
      await page.getByLabel('Product').selectOption('l2');
      await page.getByText('level 2 products').waitFor();
      await page.getByLabel('Wave region').selectOption('1074');
      await page.getByLabel('Observing plan').fill('synoptic');
      await page.getByRole('textbox', { name: 'Carrington rotation' }).fill('2295');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('grid', { name: 'Files found' }).waitFor();
      await page.getByRole('textbox', { name: 'Every' }).fill('2 hourz');
      await page.getByRole('textbox', { name: 'End date' }).fill('2025-02-30');
      await page.getByRole('textbox', { name: 'End date' }).press('Tab');
      await page.getByRole('textbox', { name: 'Every' }).focus();
      await page.getByRole('textbox', { name: 'Every' }).press('Enter');
    },
  },
  {
    name: 'browse-empty-signin-error',
    scenario: { demo: true },
    async steps(page) {
      await page.getByRole('textbox', { name: 'E-mail' }).fill('nobody@example.org');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'downloads',
    scenario: { signedIn: true },
    async steps(page) {
      await page.getByRole('button', { name: 'Downloads' }).click();
      await page.getByRole('table', { name: 'Download queue' }).waitFor();
      await page.getByRole('table', { name: 'Download queue' }).evaluate((table) => (table.scrollTop = 612 * 32 - 96));
    },
  },
  {
    name: 'downloads-paused-disk-full',
    scenario: { signedIn: true, queuePaused: true },
    async steps(page) {
      await page.getByRole('button', { name: 'Downloads' }).click();
      await page.getByRole('table', { name: 'Download queue' }).waitFor();
      await page.evaluate(() => {
        // The engine's own message when the disk filled up, as the core would send it.
        globalThis.__mlsoPreviewEmit('downloads:queue-paused', {
          kind: 'disk-full',
          message: 'No space left in /home/ada/data/mlso/kcor-2025-03: free at least 2.5 MB, then press Resume all.',
        });
      });
      await page.getByRole('radio', { name: /Failed/ }).click();
    },
  },
  {
    name: 'downloads-done-reused',
    scenario: { signedIn: true },
    async steps(page) {
      await page.getByRole('button', { name: 'Downloads' }).click();
      await page.getByRole('table', { name: 'Download queue' }).waitFor();
      await page.getByRole('radio', { name: /Done/ }).click();
      await page
        .getByText(/^reused from /)
        .first()
        .waitFor();
    },
  },
  {
    name: 'campaigns-counts',
    scenario: { signedIn: true, campaigns: true },
    async steps(page) {
      await page.getByRole('button', { name: 'Campaigns' }).click();
      const eclipse = page.getByRole('listitem', { name: 'Eclipse watch' });
      await eclipse.getByRole('button', { name: 'Verify' }).click();
      await eclipse.getByRole('group', { name: 'Verify report' }).waitFor();
      const mirror = page.getByRole('listitem', { name: 'Mirror of February' });
      await mirror.getByText(/^Last sync: /).click();
      await mirror.getByRole('table').waitFor();
    },
  },
  {
    name: 'settings',
    scenario: { signedIn: true },
    async steps(page) {
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByRole('textbox', { name: 'Download folder' }).waitFor();
      await page.getByRole('spinbutton', { name: 'Concurrent downloads' }).fill('24');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Not saved.').waitFor();
    },
  },
];

/** `--only NAME` (repeatable): those shots alone. */
const only = process.argv.flatMap((arg, index, all) => (arg === '--only' && all[index + 1] ? [all[index + 1]] : []));

async function main() {
  if (!process.argv.includes('--no-build')) await viteBuild({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
  await mkdir(outDir, { recursive: true });
  const script = await bridgeScript();
  const server = await serve();
  const { port } = server.address();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const written = [];
  const problems = [];
  try {
    for (const viewport of VIEWPORTS.filter((each) => !process.argv.includes('--small') || each.width === 1280)) {
      for (const colorScheme of SCHEMES) {
        for (const shot of SHOTS.filter((each) => only.length === 0 || only.includes(each.name))) {
          const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1 });
          await context.addInitScript(`window.__mlsoPreview = ${JSON.stringify(shot.scenario)};`);
          await context.addInitScript(script);
          const page = await context.newPage();
          page.on('pageerror', (error) => problems.push(`${shot.name}: ${error.message}`));
          page.on('console', (message) => {
            if (message.type() === 'error' || message.type() === 'warning') problems.push(`${shot.name}: console ${message.type()}: ${message.text()}`);
          });
          await page.goto(`http://127.0.0.1:${port}/index.html`);
          await page.getByRole('combobox', { name: 'Instrument' }).locator('option', { hasText: 'KCor' }).waitFor({ state: 'attached' });
          await shot.steps(page);
          await page.waitForTimeout(150);
          const file = join(outDir, `${shot.name}-${viewport.width}x${viewport.height}-${colorScheme}.png`);
          await page.screenshot({ path: file });
          written.push(file);
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(written.join('\n'));
  if (problems.length > 0) {
    console.error(`\nProblems seen in the page:\n${[...new Set(problems)].join('\n')}`);
    process.exitCode = 1;
  }
}

await main();
