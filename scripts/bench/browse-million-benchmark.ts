// Browse over a million results (issue 35): six months of KCor pB every 2 s (1,027,686 files) from the emulator in
// its own process, the app in web mode with its default Settings (no listing size limit raised) and the real
// renderer in Chromium. Measures Search to the first rows painted and to the complete count, beside `mlso-dl files
// --json` listing the same query through a pipe; the page's heap; long tasks while jumping to the end (End, the
// scroll bar) and wheeling; and Ctrl+A then "Download selected" until the queue says how many it took, beside
// `files --download`'s enqueuer queueing the same files (the enqueue probe, its queue paused as this one is).
// The listing and the search alternate three times (a fresh page each time) and their medians are compared: on two
// cores shared with the emulator one listing can take a third longer than the next.
// The 100,000-result version in `npm test` is test/e2e/browse-hundred-thousand.e2e.test.ts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startWebApp } from '../../src-main/web/web-app';
import { DEMO_EMAIL } from '../../src-shared/api/service-facts';
import type { BenchContext } from './bench-context';
import { heapAfterCollection, longText, OBSERVE_LONG_TASKS, type LongTasks } from './downloads-benchmark';
import { startEmulator, stopEmulator } from './emulator-process';
import type { EnqueueProbeJob, EnqueueProbeResult } from './enqueue-probe';
import { projectPaths } from './project-paths';
import { median } from './samples';
import { fixed, renderTable } from './text-table';
import { expectSuccess, runTimed } from './timed-process';
import { CHROMIUM_ARGS, COMPLETE_COUNT, percentile, RECORD_FRAMES, TWO_FRAMES } from './ui-benchmark';

const GRID = '[role="grid"][aria-label="Files found"]';
const QUERY = { instrument: 'kcor', product: 'pb', startDate: '2024-09-24', endDate: '2025-03-25' } as const;
const EMULATOR_ARGS = ['--cadence', '2', '--days', '181', '--image-size', '8'];

/** The figures. */
const BROWSE_MILLION_TARGETS = { firstRowsMs: 1000, completeRatio: 1.2, pageHeapMegabytes: 50, downloadAllRatio: 1.2 } as const;

/** Times the listing and the search each run, alternating. */
const SEARCHES = 3;

export interface BrowseMillionResult {
  /** The machine's load average (1 minute) when the run began: the figures depend on it. */
  loadAverage: number;
  files: number;
  /** What `files --json` printed through a pipe, and how long it took (the median, and each run). */
  cliListingSeconds: number;
  cliListingRuns: number[];
  cliListingBytes: number;
  /** From the click on Search to the first file row painted (the median, and each search). */
  firstRowsMs: number;
  firstRowsRuns: number[];
  /** From the click on Search to the summary line's complete count ("N files", no longer "so far"). */
  completeMs: number;
  completeRuns: number[];
  /** The page's JavaScript heap after a collection, the listing complete. */
  pageHeapMegabytes: number;
  lastByEnd: boolean;
  lastByScrollBar: boolean;
  /** Long tasks from End pressed until the last row showed by End and by the scroll bar, and over 50 wheel steps. */
  jumpLongTasks: LongTasks;
  wheelLongTasks: LongTasks;
  wheelFrameP95Ms: number;
  /** Ctrl+A in the table, then "Download selected" until the notice says how many were queued. */
  downloadAllSeconds: number;
  queued: number;
  /** `files --download`'s enqueuer queueing the same query (listing included, as the command does it). */
  cliEnqueueSeconds: number;
  cliEnqueued: number;
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
    return top >= 28 - 0.5 && top + box.height <= grid.clientHeight + 0.5 && row.textContent.includes('.fts');
  })()`;

/** bash replaces itself with mlso-dl; its stdout is a real pipe into `wc -c`. */
const THROUGH_A_PIPE = 'exec "$@" > >(exec wc -c)';

export async function runBrowseMillion(ctx: BenchContext): Promise<BrowseMillionResult> {
  const log = (line: string): void => ctx.progress.step(line);
  const loadAverage = (await import('node:os')).loadavg()[0]!;
  const emulator = await startEmulator(ctx.emulatorBin, EMULATOR_ARGS);
  const work = await mkdtemp(path.join(ctx.workDir, 'browse-million-'));
  try {
    // The emulator makes its catalogue on the first listing: made before anything is timed.
    await (await fetch(`${emulator.url}/v1/instruments/kcor/products/pb/files?start-date=${QUERY.startDate}&end-date=${QUERY.startDate}`)).arrayBuffer();

    log("files --download's enqueuer over the same query (its queue paused)");
    const cliEnqueue = await enqueueByProbe(emulator.url, path.join(work, 'probe'));
    log(`  ${cliEnqueue.entries.toLocaleString('en-US')} files queued in ${cliEnqueue.seconds.toFixed(1)} s`);

    const listing = (): Promise<{ seconds: number; bytes: number }> => listThroughAPipe(ctx, emulator.url);
    const browse = await measureBrowse(ctx, emulator.url, path.join(work, 'app'), listing);
    if (browse.files !== cliEnqueue.entries) throw new Error(`Browse counted ${browse.files} files, the command line listed ${cliEnqueue.entries}`);
    return { loadAverage, cliEnqueueSeconds: cliEnqueue.seconds, cliEnqueued: cliEnqueue.jobs, ...browse };
  } finally {
    await stopEmulator(emulator);
    await rm(work, { recursive: true, force: true });
  }
}

/** `mlso-dl files --json` over the query, its output through a real pipe into `wc -c`. */
async function listThroughAPipe(ctx: BenchContext, baseUrl: string): Promise<{ seconds: number; bytes: number }> {
  const cliArgs = ['--base-url', baseUrl, '-q', 'files', '-i', QUERY.instrument, '-p', QUERY.product, '-s', QUERY.startDate, '-e', QUERY.endDate, '--json'];
  const run = expectSuccess(await runTimed('bash', ['-c', THROUGH_A_PIPE, 'bash', process.execPath, ctx.cli.binPath, ...cliArgs], { timeoutMs: 10 * 60_000 }));
  return { seconds: run.wallSeconds, bytes: Number(run.stdout.trim()) };
}

async function enqueueByProbe(baseUrl: string, folder: string): Promise<EnqueueProbeResult> {
  await mkdir(path.join(folder, 'out'), { recursive: true });
  const job: EnqueueProbeJob = {
    baseUrl,
    ...QUERY,
    stateDir: path.join(folder, 'state'),
    outputDir: path.join(folder, 'out'),
    way: 'cli',
    followProgress: false,
  };
  const jobFile = path.join(folder, 'job.json');
  await writeFile(jobFile, JSON.stringify(job));
  const timed = expectSuccess(await runTimed(process.execPath, [projectPaths().enqueueProbe, jobFile], { timeoutMs: 10 * 60_000 }));
  return JSON.parse(timed.stdout) as EnqueueProbeResult;
}

type BrowseFigures = Omit<BrowseMillionResult, 'loadAverage' | 'cliEnqueueSeconds' | 'cliEnqueued'>;

async function measureBrowse(
  ctx: BenchContext,
  baseUrl: string,
  folder: string,
  listing: () => Promise<{ seconds: number; bytes: number }>,
): Promise<BrowseFigures> {
  const log = (line: string): void => ctx.progress.step(line);
  await mkdir(folder, { recursive: true });
  const app = await startWebApp({
    port: 0,
    stateFolder: folder,
    rendererFolder: projectPaths().rendererFolder,
    version: 'bench',
    downloadFolder: folder,
    server: { baseUrl },
  });
  const browser = await chromium.launch({ executablePath: process.env['MLSO_CHROMIUM'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    // Queued files stay queued (the queue's pause is kept), as the probe's do: what is timed is the enqueue alone.
    await app.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    await app.core.handlers['downloads:pause-all']();
    // The measuring code is evaluated from strings, which the app's strict CSP forbids (see ui-benchmark.ts).
    const openPage = async (): Promise<Page> => {
      const opened = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
      await opened.addInitScript({ content: OBSERVE_LONG_TASKS });
      await opened.goto(app.server.openUrl);
      return opened;
    };
    let page: Page | undefined;
    const cliListingRuns: number[] = [];
    const firstRowsRuns: number[] = [];
    const completeRuns: number[] = [];
    let cliListingBytes = 0;
    let files = 0;
    for (let run = 1; run <= SEARCHES; run++) {
      const listed = await listing();
      cliListingRuns.push(listed.seconds);
      cliListingBytes = listed.bytes;
      log(`  files --json | wc -c (run ${run}): ${(listed.bytes / 2 ** 20).toFixed(0)} MiB in ${listed.seconds.toFixed(1)} s`);
      // A new page each time, so the rows of the last search are not taken for this one's.
      await page?.close();
      page = await openPage();
      await chooseQuery(page);
      const searched = await searchOnce(page);
      firstRowsRuns.push(searched.firstRowsMs);
      completeRuns.push(searched.completeMs);
      files = searched.files;
      log(
        `  Browse (run ${run}): first rows ${fixed(searched.firstRowsMs, 0)} ms, ${files.toLocaleString('en-US')} files complete after ${fixed(searched.completeMs / 1000, 1)} s`,
      );
    }
    if (!page) throw new Error('no search ran');
    const pageHeapMegabytes = await heapAfterCollection(page);

    const grid = page.locator(GRID);
    await page.evaluate('window.__takeLong()');
    await grid.focus();
    await page.keyboard.press('End');
    const lastByEnd = await reached(page, files - 1);
    await page.keyboard.press('Home');
    await page.waitForFunction(rowInView(0), undefined, { timeout: 30_000, polling: 'raf' });
    await grid.evaluate((element) => (element.scrollTop = element.scrollHeight));
    const lastByScrollBar = await reached(page, files - 1);
    const jumpLongTasks = (await page.evaluate('window.__takeLong()')) as LongTasks;

    await grid.evaluate((element) => (element.scrollTop = (element.scrollHeight - element.clientHeight) / 2));
    await page.evaluate(TWO_FRAMES);
    const box = await grid.boundingBox();
    if (!box) throw new Error('the results table is not on screen');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.evaluate('window.__takeLong()');
    await page.evaluate(RECORD_FRAMES);
    for (let step = 0; step < 50; step++) {
      await page.mouse.wheel(0, 400);
      await page.evaluate(TWO_FRAMES);
    }
    const frames = (await page.evaluate('window.__stopFrames()')) as number[];
    const wheelLongTasks = (await page.evaluate('window.__takeLong()')) as LongTasks;
    log(`  jumps: ${longText(jumpLongTasks)}; wheel: ${longText(wheelLongTasks)}`);

    log('Ctrl+A, then Download selected');
    await grid.focus();
    const downloadAt = performance.now();
    await page.keyboard.press('Control+A');
    await page.getByRole('button', { name: 'Download selected' }).click();
    const notice = page.getByText(/ queued for /);
    await notice.waitFor({ timeout: 600_000 });
    const downloadAllSeconds = (performance.now() - downloadAt) / 1000;
    const queued = Number(/([\d,]+) files? queued/.exec((await notice.textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? NaN);
    log(`  ${queued.toLocaleString('en-US')} queued in ${fixed(downloadAllSeconds, 1)} s`);
    return {
      files,
      cliListingSeconds: median(cliListingRuns)!,
      cliListingRuns,
      cliListingBytes,
      firstRowsMs: median(firstRowsRuns)!,
      firstRowsRuns,
      completeMs: median(completeRuns)!,
      completeRuns,
      pageHeapMegabytes,
      lastByEnd,
      lastByScrollBar,
      jumpLongTasks,
      wheelLongTasks,
      wheelFrameP95Ms: percentile(frames, 0.95),
      downloadAllSeconds,
      queued,
    };
  } finally {
    await browser.close();
    await app.close();
  }
}

/** Search pressed on a page with the query chosen: the first rows painted, then the complete count. */
async function searchOnce(page: Page): Promise<{ firstRowsMs: number; completeMs: number; files: number }> {
  const searchAt = await pageNow(page);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForFunction(`${rowInView(0)} || document.querySelector('[role="alert"]') !== null`, undefined, { timeout: 120_000, polling: 'raf' });
  await failOnAlert(page);
  const firstRowsMs = (await pageNow(page)) - searchAt;
  const completeHandle = await page.waitForFunction(COMPLETE_COUNT, undefined, { timeout: 600_000, polling: 50 });
  const completeMs = (await pageNow(page)) - searchAt;
  return { firstRowsMs, completeMs, files: (await completeHandle.jsonValue()) as number };
}

const pageNow = async (page: Page): Promise<number> => (await page.evaluate('performance.now()')) as number;

async function chooseQuery(page: Page): Promise<void> {
  await page.locator('option[value="kcor"]').first().waitFor({ state: 'attached', timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Instrument' }).selectOption(QUERY.instrument);
  await page.locator('option[value="pb"]').first().waitFor({ state: 'attached', timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Product' }).selectOption(QUERY.product);
  for (const label of ['Carrington rotation', 'Every']) await page.getByLabel(label, { exact: true }).fill('');
  await page.getByLabel('Start date', { exact: true }).fill(QUERY.startDate);
  await page.getByLabel('End date', { exact: true }).fill(QUERY.endDate);
}

async function failOnAlert(page: Page): Promise<void> {
  const alert = page.getByRole('alert');
  if ((await alert.count()) > 0) throw new Error(`the search failed: ${(await alert.first().textContent())?.trim()}`);
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
      'load',
      'first rows ms',
      'complete s',
      'files --json s',
      'page heap MB',
      'last by End / bar',
      'long tasks (jumps)',
      'long tasks (wheel)',
      'Ctrl+A, Download s',
      'files --download enqueue s',
    ],
    [
      [
        result.files.toLocaleString('en-US'),
        fixed(result.loadAverage, 2),
        fixed(result.firstRowsMs, 0),
        fixed(result.completeMs / 1000, 1),
        fixed(result.cliListingSeconds, 1),
        fixed(result.pageHeapMegabytes, 1),
        `${yes(result.lastByEnd)} / ${yes(result.lastByScrollBar)}`,
        longText(result.jumpLongTasks),
        longText(result.wheelLongTasks),
        fixed(result.downloadAllSeconds, 1),
        fixed(result.cliEnqueueSeconds, 1),
      ],
    ],
  );
}

const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');
const runsText = (values: readonly number[], digits: number): string => values.map((value) => fixed(value, digits)).join(', ');

export function browseMillionTargetLines(result: BrowseMillionResult): string[] {
  const targets = BROWSE_MILLION_TARGETS;
  const completeRatio = result.completeMs / 1000 / result.cliListingSeconds;
  const downloadRatio = result.downloadAllSeconds / result.cliEnqueueSeconds;
  const noLongTasks = result.jumpLongTasks.count === 0 && result.wheelLongTasks.count === 0;
  return [
    `Browse, Search to first rows of ${result.files.toLocaleString('en-US')}: median ${fixed(result.firstRowsMs, 0)} ms of ${runsText(result.firstRowsRuns, 0)} ms (target <= ${targets.firstRowsMs} ms, load ${fixed(result.loadAverage, 2)}): ${verdict(result.firstRowsMs <= targets.firstRowsMs)}`,
    `Browse, Search to the complete count: median ${fixed(result.completeMs / 1000, 1)} s of ${runsText(
      result.completeRuns.map((ms) => ms / 1000),
      1,
    )} s, ${fixed(completeRatio, 2)}x files --json's median ${fixed(result.cliListingSeconds, 1)} s of ${runsText(result.cliListingRuns, 1)} s (target <= ${targets.completeRatio}x): ${verdict(completeRatio <= targets.completeRatio)}`,
    `Browse, page heap: ${fixed(result.pageHeapMegabytes, 1)} MB (target <= ${targets.pageHeapMegabytes} MB): ${verdict(result.pageHeapMegabytes <= targets.pageHeapMegabytes)}`,
    `Browse, the last file by End and by the scroll bar with no long task, nor over 50 wheel steps: ${verdict(noLongTasks && result.lastByEnd && result.lastByScrollBar)}`,
    `Browse, Ctrl+A then Download: ${result.queued.toLocaleString('en-US')} queued, ${fixed(downloadRatio, 2)}x files --download's enqueue of ${result.cliEnqueued.toLocaleString('en-US')} (target <= ${targets.downloadAllRatio}x): ${verdict(downloadRatio <= targets.downloadAllRatio && result.queued === result.files)}`,
  ];
}
