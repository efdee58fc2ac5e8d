// The Downloads screen at a million jobs: a ledger of 1,000,000 jobs written straight into a state folder
// (million-jobs.ts; its failed and retried files have a second line in their rows), the app in web mode over it and
// the real renderer in Chromium. Measures what the core does (the whole-list snapshot the screen used to load, next
// to one page of rows and the counts), the time from opening Downloads to its first rows painted, scrolling (50 wheel
// steps, then a jump to the end) with the long tasks counted (PerformanceObserver "longtask": over 50 ms on the
// page's main thread), the longest frame and the page's heap after, and a progress event's cost (a paused file
// resumed from its row, into the paused queue: from the click to its row repainted); then the same ledger's campaign
// folder made a campaign of some 900,000 files, and the time from opening the app to its card on the Campaigns
// screen with its counts (kept by the state database as files change, campaign-counting.ts). The whole-list
// snapshot is measured last: it leaves the core's heap full for a while.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { STATE_DOMAINS } from '../../src-main/core/app/open-engine';
import { DownloadLedger } from '../../src-main/core/downloads/download-ledger';
import { LEDGER_FILE } from '../../src-main/core/state/open-state-folder';
import { StateDatabase } from '../../src-main/core/state/state-database';
import { createEmulator } from '../../src-main/emulator';
import { startWebApp } from '../../src-main/web/web-app';
import type { BenchContext } from './bench-context';
import { fillCampaign, fillLedger, markRetries } from './million-jobs';
import { projectPaths } from './project-paths';
import { median } from './samples';
import { fixed, renderTable } from './text-table';
import { CHROMIUM_ARGS, percentile, RECORD_FRAMES, TWO_FRAMES } from './ui-benchmark';

const JOBS = 1_000_000;
const TABLE = '[role="table"][aria-label="Download queue"]';

export interface LongTasks {
  count: number;
  totalMs: number;
  maxMs: number;
}

export interface DownloadsBenchResult {
  jobs: number;
  fillSeconds: number;
  /** The whole list as the screen loaded it before (downloads:snapshot), in the core: time and JSON size; or why it failed. */
  snapshot: { ms: number; megabytes: number } | { error: string };
  /** One call of downloads:page in the core (100 rows), by where in the list. */
  pageMs: { first: number; middle: number; last: number; counted: number; folders: number };
  /** From the click on Downloads to its first file row painted. */
  firstRowsMs: number;
  openLongTasks: LongTasks;
  /** 50 wheel steps of 400 px, then until the rows in view are loaded. */
  wheelMs: number;
  wheelLongTasks: LongTasks;
  frameP95Ms: number;
  /** The longest frame of the wheel steps. */
  frameMaxMs: number;
  /** The page's JavaScript heap once scrolled to the end, after a collection: what the window holds for the list. */
  pageHeapMegabytes: number;
  /** From setting the scroll to the end to the last row painted with its file. */
  jumpToEndMs: number;
  jumpLongTasks: LongTasks;
  /** A paused file resumed from its row: from the click to its row repainted as queued (median of 5). */
  progressEventMs: number;
  progressLongTasks: LongTasks;
  maxRowElements: number;
  /**
   * A campaign over the campaign folder's jobs: its files, and from reloading the app to its card on the Campaigns
   * screen, then to its counts on the card (they come with it: nothing is counted at opening).
   */
  campaign: { files: number; cardMs: number; freshCountsMs: number };
}

/** Page source, before the app: collects long tasks. */
export const OBSERVE_LONG_TASKS = `
  window.__long = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__long.push(entry.duration); })
    .observe({ type: 'longtask', buffered: true });
  window.__takeLong = () => {
    const taken = window.__long;
    window.__long = [];
    return { count: taken.length, totalMs: taken.reduce((a, b) => a + b, 0), maxMs: taken.reduce((a, b) => Math.max(a, b), 0) };
  };
`;

/**
 * Page source, before the app: opens the Campaigns screen as soon as its button is there, and notes (performance.now:
 * milliseconds since the page began to load) the frame its first card is painted in, and the one its counts are
 * (the same frame since the counts are kept: the bench would show a card painted before its counts).
 */
const WATCH_CAMPAIGN_CARD = `
  window.__card = {};
  const watchCard = () => {
    const open = [...document.querySelectorAll('nav[aria-label="Screens"] button')].find((button) => button.textContent.trim() === 'Campaigns');
    if (open && window.__card.opened === undefined) {
      window.__card.opened = performance.now();
      open.click();
    }
    const card = document.querySelector('[aria-label="Campaign list"] > li');
    if (card && window.__card.shown === undefined) window.__card.shown = performance.now();
    if (card && card.querySelector('.counts:not([aria-busy="true"]) [aria-label="File counts"]')) window.__card.fresh = performance.now();
    else requestAnimationFrame(watchCard);
  };
  requestAnimationFrame(watchCard);
`;

/** Page source: a file row (with its name, not a row still loading) at this aria-rowindex. */
const fileRowAt = (index: number | 'last'): string =>
  `(() => {
    const table = document.querySelector('${TABLE}');
    if (!table) return false;
    const at = ${index === 'last' ? "Number(table.getAttribute('aria-rowcount'))" : index};
    return table.querySelector('[role="row"][aria-rowindex="' + at + '"] .mono') !== null;
  })()`;

export async function runDownloadsBenchmark(ctx: BenchContext): Promise<DownloadsBenchResult> {
  const log = (line: string): void => ctx.progress.step(line);
  const stateFolder = path.join(ctx.workDir, 'downloads-million');
  await mkdir(stateFolder, { recursive: true });
  log(`writing ${JOBS.toLocaleString('en-US')} jobs into a ledger`);
  const started = performance.now();
  const database = StateDatabase.open(path.join(stateFolder, LEDGER_FILE), STATE_DOMAINS);
  const ledger = new DownloadLedger(database);
  const root = path.join(ctx.workDir, 'million-files');
  fillLedger(ledger, JOBS, root);
  markRetries(database);
  // The queue stays paused, so nothing starts (the jobs point at no server) and the list holds still while measured.
  ledger.setSetting('queue-paused', 'true');
  ledger.close();
  const fillSeconds = (performance.now() - started) / 1000;

  const emulator = await createEmulator({ days: 1, imageSize: 32 });
  const app = await startWebApp({
    port: 0,
    stateFolder,
    rendererFolder: projectPaths().rendererFolder,
    version: 'bench',
    downloadFolder: ctx.workDir,
    server: { baseUrl: emulator.url },
  });
  const browser = await chromium.launch({ executablePath: process.env['MLSO_CHROMIUM'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    log('the core: pages of 100 rows');
    const handlers = app.core.handlers;
    const page = async (offset: number, counted = false): Promise<number> => {
      const at = performance.now();
      await handlers['downloads:page']({ offset, limit: 100, states: null, place: null, sort: null, counted });
      return performance.now() - at;
    };
    const foldersAt = performance.now();
    await handlers['downloads:folders']();
    const pageMs = {
      folders: performance.now() - foldersAt,
      first: await page(0),
      middle: await page(JOBS / 2),
      last: await page(JOBS - 100),
      counted: await page(0, true),
    };
    log(`pages: ${JSON.stringify(pageMs)}`);

    const browserPage = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await browserPage.addInitScript({ content: OBSERVE_LONG_TASKS });
    await browserPage.goto(app.server.openUrl);
    await browserPage.getByRole('button', { name: 'Downloads' }).waitFor({ timeout: 60_000 });
    // The start-up loads (the badge's first page among them) settle first.
    await browserPage.waitForTimeout(3000);
    await browserPage.evaluate('window.__takeLong()');

    log('opening Downloads over a million jobs');
    const openAt = await browserPage.evaluate('performance.now()');
    await browserPage.getByRole('button', { name: 'Downloads' }).click();
    await browserPage.waitForFunction(fileRowAt(2), undefined, { timeout: 120_000, polling: 'raf' });
    await browserPage.evaluate(TWO_FRAMES);
    const firstRowsMs = ((await browserPage.evaluate('performance.now()')) as number) - (openAt as number);
    const openLongTasks = (await browserPage.evaluate('window.__takeLong()')) as LongTasks;
    log(`first rows ${firstRowsMs.toFixed(0)} ms, long tasks ${JSON.stringify(openLongTasks)}`);

    log('scrolling: 50 wheel steps, then a jump to the end');
    const table = browserPage.locator(TABLE);
    const box = await table.boundingBox();
    if (!box) throw new Error('the download table is not on screen');
    await browserPage.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await browserPage.evaluate(RECORD_FRAMES);
    const wheelAt = performance.now();
    let maxRowElements = 0;
    for (let step = 0; step < 50; step++) {
      await browserPage.mouse.wheel(0, 400);
      await browserPage.waitForTimeout(16);
      if (step % 10 === 9) maxRowElements = Math.max(maxRowElements, await table.locator('[role="row"]').count());
    }
    await browserPage.waitForFunction(`document.querySelectorAll('${TABLE} .row.loading').length === 0`, undefined, { timeout: 120_000 });
    const wheelMs = performance.now() - wheelAt;
    const frames = (await browserPage.evaluate('window.__stopFrames()')) as number[];
    const wheelLongTasks = (await browserPage.evaluate('window.__takeLong()')) as LongTasks;

    const jumpAt = performance.now();
    await table.evaluate((element) => (element.scrollTop = element.scrollHeight));
    await browserPage.waitForFunction(fileRowAt('last'), undefined, { timeout: 120_000, polling: 'raf' });
    await browserPage.evaluate(TWO_FRAMES);
    const jumpToEndMs = performance.now() - jumpAt;
    const jumpLongTasks = (await browserPage.evaluate('window.__takeLong()')) as LongTasks;
    maxRowElements = Math.max(maxRowElements, await table.locator('[role="row"]').count());
    const pageHeapMegabytes = await heapAfterCollection(browserPage);
    log(`wheel ${wheelMs.toFixed(0)} ms ${JSON.stringify(wheelLongTasks)}; jump ${jumpToEndMs.toFixed(0)} ms ${JSON.stringify(jumpLongTasks)}`);

    log('progress events: five paused files resumed from their rows');
    await table.evaluate((element) => (element.scrollTop = 0));
    await browserPage.waitForFunction(fileRowAt(2), undefined, { timeout: 120_000, polling: 'raf' });
    await browserPage.evaluate('window.__takeLong()');
    const progressEventMs = median(await resumeFromRows(browserPage, 5)) ?? NaN;
    const progressLongTasks = (await browserPage.evaluate('window.__takeLong()')) as LongTasks;

    log("a campaign of the campaign folder's files: from opening the app to its card");
    const written = StateDatabase.open(path.join(stateFolder, LEDGER_FILE), STATE_DOMAINS);
    const { name, files } = fillCampaign(written, root);
    written.close();
    // Timed in the page, from the reload: the core counts in this process, and while it does, Playwright's side of
    // the page (its clicks, its waits) would wait with it and see the card only once the counts came.
    await browserPage.addInitScript({ content: WATCH_CAMPAIGN_CARD });
    await browserPage.reload();
    await browserPage.waitForFunction('window.__card.fresh !== undefined', undefined, { timeout: 300_000, polling: 1000 });
    const seen = (await browserPage.evaluate('window.__card')) as { shown: number; fresh: number };
    const campaign = { files, cardMs: seen.shown, freshCountsMs: seen.fresh };
    log(`the card of "${name}" over ${files} files: ${campaign.cardMs.toFixed(0)} ms, its counts ${campaign.freshCountsMs.toFixed(0)} ms`);

    log('the core: the whole-list snapshot the screen loaded before');
    const snapshot = await measureSnapshot(() => handlers['downloads:snapshot']());
    log(`snapshot: ${JSON.stringify(snapshot)}`);
    return {
      jobs: JOBS,
      fillSeconds,
      snapshot,
      pageMs,
      firstRowsMs,
      openLongTasks,
      wheelMs,
      wheelLongTasks,
      frameP95Ms: percentile(frames, 0.95),
      frameMaxMs: frames.reduce((most, frame) => Math.max(most, frame), 0),
      pageHeapMegabytes,
      jumpToEndMs,
      jumpLongTasks,
      progressEventMs,
      progressLongTasks,
      maxRowElements,
      campaign,
    };
  } finally {
    await browser.close();
    await app.close();
    await emulator.close();
  }
}

/** The page's JavaScript heap in use after a full collection (Chromium's DevTools protocol), in MB. */
export async function heapAfterCollection(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('HeapProfiler.collectGarbage');
    const { usedSize } = await session.send('Runtime.getHeapUsage');
    return usedSize / 2 ** 20;
  } finally {
    await session.detach();
  }
}

/** The whole list built by the core, and its size as JSON (counted job by job: the whole would pass V8's string limit). */
async function measureSnapshot(snapshot: () => Promise<{ jobs: unknown[] }> | { jobs: unknown[] }): Promise<DownloadsBenchResult['snapshot']> {
  try {
    const at = performance.now();
    const { jobs } = await snapshot();
    const ms = performance.now() - at;
    let bytes = 0;
    for (const job of jobs) bytes += JSON.stringify(job).length + 1;
    return { ms, megabytes: bytes / 2 ** 20 };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Resumes the first `count` paused files (first in the list: they wait in queue order with the queued ones) from their
 * rows' Resume buttons, each time from the click to the row repainted as queued (the queue stays paused).
 */
async function resumeFromRows(page: Page, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const button = page
      .locator(`${TABLE} [role="row"]`)
      .getByRole('button', { name: /^Resume / })
      .first();
    const name = ((await button.getAttribute('aria-label')) ?? '').slice('Resume '.length);
    const at = performance.now();
    await button.click();
    await page.getByRole('button', { name: `Pause ${name}` }).waitFor({ timeout: 30_000 });
    await page.evaluate(TWO_FRAMES);
    times.push(performance.now() - at);
  }
  return times;
}

export const longText = (tasks: LongTasks): string => `${tasks.count} (max ${fixed(tasks.maxMs, 0)} ms)`;

export function downloadsTable(result: DownloadsBenchResult): string {
  const snapshot =
    'error' in result.snapshot ? `failed: ${result.snapshot.error}` : `${fixed(result.snapshot.ms, 0)} ms, ${fixed(result.snapshot.megabytes, 0)} MB`;
  const core = renderTable(
    ['jobs', 'ledger written s', 'snapshot (before)', 'page first ms', 'page middle ms', 'page last ms', 'page + counts ms', 'folders ms'],
    [
      [
        result.jobs.toLocaleString('en-US'),
        fixed(result.fillSeconds, 1),
        snapshot,
        fixed(result.pageMs.first, 0),
        fixed(result.pageMs.middle, 0),
        fixed(result.pageMs.last, 0),
        fixed(result.pageMs.counted, 0),
        fixed(result.pageMs.folders, 0),
      ],
    ],
  );
  const screen = renderTable(
    [
      'first rows ms',
      'long tasks (open)',
      'wheel x50 ms',
      'long tasks (wheel)',
      'frame p95 ms',
      'frame max ms',
      'jump to end ms',
      'long tasks (jump)',
      'progress event ms',
      'long tasks (progress)',
      'row elements (max)',
      'page heap MB',
    ],
    [
      [
        fixed(result.firstRowsMs, 0),
        longText(result.openLongTasks),
        fixed(result.wheelMs, 0),
        longText(result.wheelLongTasks),
        fixed(result.frameP95Ms, 1),
        fixed(result.frameMaxMs, 0),
        fixed(result.jumpToEndMs, 0),
        longText(result.jumpLongTasks),
        fixed(result.progressEventMs, 0),
        longText(result.progressLongTasks),
        String(result.maxRowElements),
        fixed(result.pageHeapMegabytes, 1),
      ],
    ],
  );
  // The card and its counts (the target's figure: the card with its true counts).
  const card = renderTable(
    ['campaign files', 'card shown ms', 'counts shown ms'],
    [[result.campaign.files.toLocaleString('en-US'), fixed(result.campaign.cardMs, 0), fixed(result.campaign.freshCountsMs, 0)]],
  );
  return `${core}\n${screen}\n${card}`;
}

export function downloadsTargetLines(result: DownloadsBenchResult): string[] {
  const scrollLong = result.wheelLongTasks.count + result.jumpLongTasks.count;
  return [
    `Downloads over ${result.jobs.toLocaleString('en-US')} jobs: first rows ${fixed(result.firstRowsMs, 0)} ms after opening (target <= 1000 ms): ${result.firstRowsMs <= 1000 ? 'met' : 'MISSED'}`,
    `scrolling (50 wheel steps and a jump to the end): ${scrollLong} long tasks on the page (target: none): ${scrollLong === 0 ? 'met' : 'MISSED'}`,
    `a progress event (a paused file resumed from its row): ${fixed(result.progressEventMs, 0)} ms from the click to the row repainted, ${result.progressLongTasks.count} long tasks`,
    `the card of a campaign of ${result.campaign.files.toLocaleString('en-US')} files: ${fixed(result.campaign.cardMs, 0)} ms from opening the app to the card on the Campaigns screen, ${fixed(result.campaign.freshCountsMs, 0)} ms to its true counts on it (target <= 1000 ms): ${result.campaign.freshCountsMs <= 1000 ? 'met' : 'MISSED'}`,
  ];
}
