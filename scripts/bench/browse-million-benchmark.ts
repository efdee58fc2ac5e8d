// Browse's results table over a windowed listing of a million files: six months of KCor pB every 2 s in the emulator,
// the app in web mode and the real renderer in Chromium. 28 px rows are 28.5M px, past what a browser lets an element
// be tall, so the table's spacer stops at 15M px and its scroll bar is scaled (sparse-rows.svelte.ts). Measures the
// search up to the first rows painted, the End key (the cursor to the last file, its row in view), the scroll bar
// dragged to its end (the last row shown), 50 wheel steps from the middle (frames, long tasks), and the page's heap.
// The 1,000,000-row version in `npm test` is test/renderer/results-million.test.ts (jsdom).
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createEmulator } from '../../src-main/emulator';
import { startWebApp } from '../../src-main/web/web-app';
import type { BenchContext } from './bench-context';
import { heapAfterCollection, longText, OBSERVE_LONG_TASKS, type LongTasks } from './downloads-benchmark';
import { projectPaths } from './project-paths';
import { fixed, renderTable } from './text-table';
import { CHROMIUM_ARGS, chooseAllOfKcorPb, percentile, RECORD_FRAMES, TWO_FRAMES } from './ui-benchmark';

const GRID = '[role="grid"][aria-label="Files found"]';
/** The tallest spacer SparseRows gives (under Firefox's cap). */
const MAX_SPACER = 15_000_000;

export interface BrowseMillionResult {
  files: number;
  /** The spacer's height: the list's, up to MAX_SPACER. */
  spacerPx: number;
  /** From the click on Search to the first file row painted (the listing windowed, sent and kept in the page). */
  searchMs: number;
  /** From End pressed in the table to the last file's row painted in view. */
  endMs: number;
  endLongTasks: LongTasks;
  /** The last file's row wholly in view: after End, and after the scroll bar set to its end. */
  lastByEnd: boolean;
  lastByScrollBar: boolean;
  wheelFrameP95Ms: number;
  wheelFrameMaxMs: number;
  wheelLongTasks: LongTasks;
  /** The page's JavaScript heap after a collection: mostly the listing itself. */
  pageHeapMegabytes: number;
}

/** Page source: whether a file row is rendered wholly in the grid's view, below its header. */
const rowInView = (index: number): string =>
  `(() => {
    const grid = document.querySelector('${GRID}');
    const row = grid && grid.querySelector('#file-row-${index}');
    if (!row) return false;
    const view = grid.getBoundingClientRect();
    const box = row.getBoundingClientRect();
    const top = box.top - view.top - grid.clientTop;
    return top >= 28 - 0.5 && top + box.height <= grid.clientHeight + 0.5;
  })()`;

export async function runBrowseMillion(ctx: BenchContext): Promise<BrowseMillionResult> {
  const log = (line: string): void => ctx.progress.step(line);
  const emulator = await createEmulator({ days: 181, cadenceSeconds: 2, imageSize: 8 });
  const work = await mkdtemp(path.join(ctx.workDir, 'browse-million-'));
  const app = await startWebApp({
    port: 0,
    stateFolder: work,
    rendererFolder: projectPaths().rendererFolder,
    version: 'bench',
    downloadFolder: work,
    server: { baseUrl: emulator.url },
  });
  // Browse keeps the whole listing in the page, and a million entries are past the 256 MB a listing may be by default:
  // the search would say so and ask for a narrower one. Raised, as the message tells a user to, in Settings.
  await app.core.handlers['settings:update']({ maxListingMegabytes: 1024 });
  const browser = await chromium.launch({ executablePath: process.env['MLSO_CHROMIUM'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    // The measuring code is evaluated from strings, which the app's strict CSP forbids (see ui-benchmark.ts).
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await page.addInitScript({ content: OBSERVE_LONG_TASKS });
    await page.goto(app.server.openUrl);
    await chooseAllOfKcorPb(page);
    log('searching 181 days of KCor pB every 2 s (no filters)');
    const searchAt = performance.now();
    await page.getByRole('button', { name: 'Search' }).click();
    await firstRows(page);
    const searchMs = performance.now() - searchAt;
    const grid = page.locator(GRID);
    const files = Number(await grid.getAttribute('aria-rowcount')) - 1;
    const spacerPx = Number(await page.evaluate(`parseFloat(document.querySelector('${GRID} .canvas').style.height)`));
    log(`${files.toLocaleString('en-US')} files shown after ${fixed(searchMs / 1000, 1)} s; spacer ${spacerPx.toLocaleString('en-US')} px`);
    await page.evaluate('window.__takeLong()');

    const endAt = performance.now();
    await grid.focus();
    await page.keyboard.press('End');
    const lastByEnd = await reached(page, files - 1);
    const endMs = performance.now() - endAt;
    const endLongTasks = (await page.evaluate('window.__takeLong()')) as LongTasks;

    await page.keyboard.press('Home');
    await page.waitForFunction(rowInView(0), undefined, { timeout: 30_000, polling: 'raf' });
    await grid.evaluate((element) => (element.scrollTop = element.scrollHeight));
    const lastByScrollBar = await reached(page, files - 1);
    log(
      `last file: by End ${lastByEnd ? 'reached' : 'NOT reached'} in ${fixed(endMs, 0)} ms, by the scroll bar ${lastByScrollBar ? 'reached' : 'NOT reached'}`,
    );

    await grid.evaluate((element) => (element.scrollTop = (element.scrollHeight - element.clientHeight) / 2));
    await page.evaluate(TWO_FRAMES);
    const box = await grid.boundingBox();
    if (!box) throw new Error('the results table is not on screen');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.evaluate('window.__takeLong()');
    await page.evaluate(RECORD_FRAMES);
    for (let step = 0; step < 50; step++) {
      await page.mouse.wheel(0, 400);
      await page.waitForTimeout(16);
    }
    await page.evaluate(TWO_FRAMES);
    const frames = (await page.evaluate('window.__stopFrames()')) as number[];
    const wheelLongTasks = (await page.evaluate('window.__takeLong()')) as LongTasks;
    const pageHeapMegabytes = await heapAfterCollection(page);
    return {
      files,
      spacerPx,
      searchMs,
      endMs,
      endLongTasks,
      lastByEnd,
      lastByScrollBar,
      wheelFrameP95Ms: percentile(frames, 0.95),
      wheelFrameMaxMs: frames.reduce((most, frame) => Math.max(most, frame), 0),
      wheelLongTasks,
      pageHeapMegabytes,
    };
  } finally {
    await browser.close();
    await app.close();
    await emulator.close();
    await rm(work, { recursive: true, force: true });
  }
}

/** Waits for the search's first rows painted; a search that fails says why (its banner) instead of timing out. */
async function firstRows(page: Page): Promise<void> {
  const shown = `${rowInView(0)} || document.querySelector('[role="alert"]') !== null`;
  await page.waitForFunction(shown, undefined, { timeout: 300_000, polling: 250 });
  const alert = page.getByRole('alert');
  if ((await alert.count()) > 0) throw new Error(`the search failed: ${(await alert.first().textContent())?.trim()}`);
  await page.evaluate(TWO_FRAMES);
}

/** Whether the row comes into view (painted) within 30 s. */
async function reached(page: Page, index: number): Promise<boolean> {
  try {
    await page.waitForFunction(rowInView(index), undefined, { timeout: 30_000, polling: 'raf' });
    await page.evaluate(TWO_FRAMES);
    return true;
  } catch {
    return false;
  }
}

const yes = (reachedIt: boolean): string => (reachedIt ? 'yes' : 'NO');

export function browseMillionTable(result: BrowseMillionResult): string {
  return renderTable(
    [
      'files',
      'spacer px',
      'search to rows s',
      'End ms',
      'long tasks (End)',
      'last by End',
      'last by bar',
      'wheel frame p95 ms',
      'wheel frame max ms',
      'long tasks (wheel)',
      'page heap MB',
    ],
    [
      [
        result.files.toLocaleString('en-US'),
        result.spacerPx.toLocaleString('en-US'),
        fixed(result.searchMs / 1000, 1),
        fixed(result.endMs, 0),
        longText(result.endLongTasks),
        yes(result.lastByEnd),
        yes(result.lastByScrollBar),
        fixed(result.wheelFrameP95Ms, 1),
        fixed(result.wheelFrameMaxMs, 0),
        longText(result.wheelLongTasks),
        fixed(result.pageHeapMegabytes, 0),
      ],
    ],
  );
}

export function browseMillionTargetLines(result: BrowseMillionResult): string[] {
  const met = result.lastByEnd && result.lastByScrollBar && result.spacerPx <= MAX_SPACER;
  return [
    `Browse over ${result.files.toLocaleString('en-US')} files: the last file reached by End and by the scroll bar, spacer ${result.spacerPx.toLocaleString('en-US')} px (target: under a browser's height cap, 15M px): ${met ? 'met' : 'MISSED'}`,
  ];
}
