// The results table under a 100,000-file listing: the real renderer in Chromium through web mode, against
// the emulator with 133 observing days. Measures the time from the click on Search to the first rows painted, the row elements in the DOM while scrolling (it is virtualized), and frame times
// while scrolling continuously; and the coverage timeline above it: when its bars are painted, how many
// elements it holds, and frame times while the pointer sweeps across it (each bin's tooltip in turn).
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startWebApp } from '../../src-main/web/web-app';
import { startEmulator, stopEmulator } from './emulator-process';
import { fixed, renderTable } from './text-table';

export interface UiResult {
  files: number;
  /** From the click on Search to the first file row painted. */
  firstRowsMs: number;
  /** Most row elements in the grid at any scroll position sampled. */
  maxRowElements: number;
  rowElementsByPosition: { position: number; rows: number }[];
  /** Frame-to-frame times while scrolling continuously (ms). */
  frameMedianMs: number;
  frameP95Ms: number;
  /** From the click on Search to the coverage timeline's bars painted (binning included). */
  timelinePaintedMs: number;
  /** Elements inside the coverage timeline (bars, marks, labels): bounded by its bins, not by the files. */
  timelineElements: number;
  /** Frame-to-frame times while the pointer sweeps across the timeline (ms). */
  hoverFrameMedianMs: number;
  hoverFrameP95Ms: number;
}

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const GRID = '[role="grid"]';
const FILE_ROWS = `${GRID} [role="row"][aria-rowindex]:not([aria-rowindex="1"])`;

/**
 * Runs in the page before the app (kept as page source: it is browser code, not this program's): timestamps
 * the click on Search (heard in the capture phase, before the app's own handler) and the first file row and the
 * timeline's bars painted.
 */
const INSTRUMENT_PAGE = `
  const bench = { searchAt: 0, paintedAt: 0, timelineAt: 0 };
  window.__bench = bench;
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button && button.textContent.trim() === 'Search') Object.assign(bench, { searchAt: performance.now(), paintedAt: 0, timelineAt: 0 });
  }, true);
  new MutationObserver(() => {
    if (!bench.searchAt) return;
    if (!bench.paintedAt && document.querySelector('[role="grid"] [role="row"][aria-rowindex="2"]')) {
      bench.paintedAt = -1;
      // Two frames: the first runs before paint, the second after the rows were painted.
      requestAnimationFrame(() => requestAnimationFrame(() => (bench.paintedAt = performance.now())));
    }
    if (!bench.timelineAt && document.querySelector('.coverage rect.bar')) {
      bench.timelineAt = -1;
      requestAnimationFrame(() => requestAnimationFrame(() => (bench.timelineAt = performance.now())));
    }
  }).observe(document, { childList: true, subtree: true });
`;

/** Page source: the summary line's count once the listing is complete ("N files", no longer "so far"), else null. */
export const COMPLETE_COUNT = `(() => {
  const line = document.querySelector('.summary strong');
  const text = line ? line.textContent : '';
  return /^[\\d,]+ files?$/.test(text) ? Number(text.replace(/\\D/g, '')) : null;
})()`;

/** Page source: records the times between frames until window.__stopFrames() is called, which returns them. */
export const RECORD_FRAMES = `(() => {
  const times = [];
  let last = performance.now();
  let running = true;
  const step = () => {
    const now = performance.now();
    times.push(now - last);
    last = now;
    if (running) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
  window.__stopFrames = () => {
    running = false;
    return times.slice(1);
  };
})()`;

/** Page source: waits two animation frames (the rows of a new scroll position are then painted). */
export const TWO_FRAMES = 'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))';

/** Page source: scrolls the grid continuously for about two seconds, returning the times between frames. */
const SCROLL_FRAME_TIMES = `new Promise((resolve) => {
  const grid = document.querySelector('${'[role="grid"]'}');
  const times = [];
  let last = performance.now();
  const started = last;
  grid.scrollTop = 0;
  const step = () => {
    const now = performance.now();
    times.push(now - last);
    last = now;
    grid.scrollTop += 700;
    if (now - started < 2000) requestAnimationFrame(step);
    else resolve(times.slice(1));
  };
  requestAnimationFrame(step);
})`;

/** `emulatorBin` runs the emulator in its own process (`mlso-dl mock-server`), so it does not share the app's event loop. */
export async function runUiBenchmark(rendererFolder: string, emulatorBin: string, log: (line: string) => void): Promise<UiResult> {
  // 133 synthetic days of KCor pB at 15 s cadence are just over 100,000 files.
  const emulator = await startEmulator(emulatorBin, ['--days', '133', '--image-size', '32']);
  // The emulator makes its catalogue on the first listing: made before anything is timed.
  await (await fetch(`${emulator.url}/v1/instruments/kcor/products/pb/files?start-date=2025-03-24`)).arrayBuffer();
  const work = await mkdtemp(path.join(os.tmpdir(), 'mlso-ui-bench-'));
  const app = await startWebApp({ port: 0, stateFolder: work, rendererFolder, version: 'bench', downloadFolder: work, server: { baseUrl: emulator.url } });
  const browser = await chromium.launch({ executablePath: process.env['MLSO_CHROMIUM'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    // The measuring code is evaluated from strings, which the app's strict CSP forbids; the app itself
    // never evaluates strings, so lifting the policy for this page changes nothing it measures.
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await page.addInitScript({ content: INSTRUMENT_PAGE });
    await page.goto(app.server.openUrl);
    await chooseAllOfKcorPb(page);
    log('searching 133 days of KCor pB (no filters)');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction('window.__bench.paintedAt > 0 && window.__bench.timelineAt > 0', undefined, { timeout: 60_000 });
    const timing = (await page.evaluate('window.__bench')) as { searchAt: number; paintedAt: number; timelineAt: number };
    // The rows painted first are those of the listing so far: the whole of it is scrolled once it is complete.
    const files = (await (await page.waitForFunction(COMPLETE_COUNT, undefined, { timeout: 120_000, polling: 100 })).jsonValue()) as number;

    const rowElementsByPosition: UiResult['rowElementsByPosition'] = [];
    for (const position of [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1]) {
      await page
        .locator(GRID)
        .first()
        .evaluate((grid, at) => {
          grid.scrollTop = at * (grid.scrollHeight - grid.clientHeight);
        }, position);
      await page.evaluate(TWO_FRAMES);
      rowElementsByPosition.push({ position, rows: await page.locator(FILE_ROWS).count() });
    }
    const frames = (await page.evaluate(SCROLL_FRAME_TIMES)) as number[];
    const hoverFrames = await sweepTimeline(page);
    return {
      files,
      firstRowsMs: timing.paintedAt - timing.searchAt,
      maxRowElements: rowElementsByPosition.reduce((most, sample) => Math.max(most, sample.rows), 0),
      rowElementsByPosition,
      frameMedianMs: percentile(frames, 0.5),
      frameP95Ms: percentile(frames, 0.95),
      timelinePaintedMs: timing.timelineAt - timing.searchAt,
      timelineElements: await page.locator('.coverage *').count(),
      hoverFrameMedianMs: percentile(hoverFrames, 0.5),
      hoverFrameP95Ms: percentile(hoverFrames, 0.95),
    };
  } finally {
    await browser.close();
    await app.close();
    await stopEmulator(emulator);
  }
}

/** Sweeps the pointer across the coverage timeline, left to right and back, returning the frame times meanwhile. */
async function sweepTimeline(page: Page): Promise<number[]> {
  const box = await page.getByRole('slider', { name: 'Coverage timeline' }).boundingBox();
  if (!box) throw new Error('the coverage timeline is not on screen');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 1, y);
  await page.evaluate(RECORD_FRAMES);
  await page.mouse.move(box.x + box.width - 1, y, { steps: 120 });
  await page.mouse.move(box.x + 1, y, { steps: 120 });
  return (await page.evaluate('window.__stopFrames()')) as number[];
}

async function chooseAllOfKcorPb(page: Page): Promise<void> {
  const instrument = page.getByRole('combobox', { name: 'Instrument' });
  await page.locator('option[value="kcor"]').first().waitFor({ state: 'attached', timeout: 30_000 });
  await instrument.selectOption('kcor');
  await page.locator('option[value="pb"]').first().waitFor({ state: 'attached', timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Product' }).selectOption('pb');
  for (const label of ['Start date', 'End date', 'Carrington rotation', 'Every']) await page.getByLabel(label, { exact: true }).fill('');
}

export function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
}

export function uiTable(result: UiResult): string {
  return renderTable(
    [
      'listing',
      'files',
      'first rows ms',
      'row elements (max)',
      'frame median ms',
      'frame p95 ms',
      'timeline painted ms',
      'timeline elements',
      'hover frame median ms',
      'hover frame p95 ms',
    ],
    [
      [
        'kcor pb, 133 days',
        String(result.files),
        fixed(result.firstRowsMs, 0),
        String(result.maxRowElements),
        fixed(result.frameMedianMs, 1),
        fixed(result.frameP95Ms, 1),
        fixed(result.timelinePaintedMs, 0),
        String(result.timelineElements),
        fixed(result.hoverFrameMedianMs, 1),
        fixed(result.hoverFrameP95Ms, 1),
      ],
    ],
  );
}

export function uiTargetLines(result: UiResult): string[] {
  return [
    `first rows painted ${fixed(result.firstRowsMs, 0)} ms after Search (target <= 1000 ms): ${result.firstRowsMs <= 1000 ? 'met' : 'MISSED'}`,
    `at most ${result.maxRowElements} row elements while scrolling ${result.files} files (target: a few hundred at most): ${result.maxRowElements <= 300 ? 'met' : 'MISSED'}`,
    `${result.timelineElements} elements in the coverage timeline of ${result.files} files (target: bounded by its bins, under 1,000): ${result.timelineElements < 1000 ? 'met' : 'MISSED'}`,
  ];
}
