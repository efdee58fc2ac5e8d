// Downloading by clicking: search, select, download into the folder, check the files on disk byte for
// byte; pause and resume the queue; retry files that failed on injected faults.
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { E2eContext } from '../e2e-context';
import { atEachSizeAndScheme, chooseProduct, fillFilter, goTo, signIn, visible, waitUntil } from './ui-helpers';

export async function search(page: E2eContext['page'], filters: Record<string, string>): Promise<void> {
  await chooseProduct(page, 'kcor', 'pb');
  for (const label of ['Start date', 'End date', 'Carrington rotation', 'Every']) await fillFilter(page, label, filters[label] ?? '');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

async function filesOnDisk(folder: string): Promise<string[]> {
  return (await readdir(folder).catch(() => [] as string[])).filter((name) => !name.startsWith('.')).sort();
}

async function expectExactCopies(ctx: E2eContext, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const written = await readFile(path.join(ctx.downloadFolder, name));
    expect(written.equals(await ctx.emulator.fileBytes('kcor', name)), name).toBe(true);
  }
}

const KCOR_PB_NAME = /^\d{8}_\d{6}_kcor_l2_pb\.fts$/;

/**
 * File-name cells of the search results only. The Downloads screen stays in the page while hidden and
 * shows names too; matching those would pick files of an earlier spec, depending on timing.
 */
function resultNames(page: E2eContext['page']) {
  return page.getByRole('grid', { name: 'Files found' }).getByText(KCOR_PB_NAME);
}

/**
 * The names listed for the search just made: waits until every shown name is of `day` (YYYYMMDD), since
 * the previous search's rows stay on screen until the new listing arrives.
 */
export async function listedNames(page: E2eContext['page'], day: string): Promise<string[]> {
  let names: string[] = [];
  await waitUntil(`the results show files of ${day}`, async () => {
    names = await resultNames(page).allInnerTexts();
    return names.length > 0 && names.every((name) => name.startsWith(day));
  });
  return names;
}

export async function downloadsAllResultsIntoTheFolder(ctx: E2eContext): Promise<void> {
  const { page, demoEmail, downloadFolder, screenshot } = ctx;
  await signIn(page, demoEmail);
  await search(page, { 'Start date': '2025-03-24', Every: '1hour' });
  const names = await listedNames(page, '20250324');
  expect(names.length).toBeGreaterThanOrEqual(4);
  await screenshot('browse-results');
  await page.getByRole('button', { name: 'Download all' }).click();
  await waitUntil('every listed file is on disk', async () => (await filesOnDisk(downloadFolder)).length === names.length, 30_000);
  expect(await filesOnDisk(downloadFolder)).toEqual([...names].sort());
  await expectExactCopies(ctx, names);
  await goTo(page, 'Downloads');
  await visible(page.getByText(names[0]!));
  await screenshot('downloads-finished');
}

export async function downloadsASelectedRange(ctx: E2eContext): Promise<void> {
  const { page, demoEmail, downloadFolder } = ctx;
  await signIn(page, demoEmail);
  await search(page, { 'Start date': '2025-03-23', 'End date': '2025-03-24', Every: '30minutes' });
  const names = await listedNames(page, '20250323');
  expect(names.length).toBeGreaterThanOrEqual(5);
  // Click the second row, shift-click the fourth: three files selected.
  const grid = page.getByRole('grid', { name: 'Files found' });
  await grid.getByText(names[1]!, { exact: true }).click();
  await grid.getByText(names[3]!, { exact: true }).click({ modifiers: ['Shift'] });
  const before = new Set(await filesOnDisk(downloadFolder));
  await page.getByRole('button', { name: 'Download selected' }).click();
  const wanted = names.slice(1, 4);
  await waitUntil('three new files are on disk', async () => (await filesOnDisk(downloadFolder)).filter((name) => !before.has(name)).length >= 3, 30_000);
  const added = (await filesOnDisk(downloadFolder)).filter((name) => !before.has(name));
  expect(added).toEqual([...wanted].sort());
  await expectExactCopies(ctx, added);
  // The status bar speaks of this run's three files, not of every file downloaded since the app started.
  await waitUntil('the status bar shows the finished run of three', async () => (await statusText(page)).includes('last run: 3 of 3 files'));
}

/** The status bar's words, as one line. */
async function statusText(page: E2eContext['page']): Promise<string> {
  return (await page.getByRole('contentinfo').innerText()).replace(/\s+/g, ' ');
}

export async function pausesAndResumesTheQueue(ctx: E2eContext): Promise<void> {
  const { page, demoEmail, downloadFolder, emulator, screenshot } = ctx;
  await signIn(page, demoEmail);
  emulator.setOptions({ bandwidthBytesPerSecond: 4_000 });
  try {
    await search(page, { 'Start date': '2025-03-22', 'End date': '2025-03-23', Every: '1hour' });
    const names = await listedNames(page, '20250322');
    await page.getByRole('button', { name: 'Download all' }).click();
    await goTo(page, 'Downloads');
    await waitUntil('downloads are running', async () => emulator.stats().activeDownloads > 0);
    await checksTheQueueAtEachSize(ctx, 'downloads-running');
    await page.getByRole('button', { name: 'Pause all' }).click();
    await waitUntil('no download is running', async () => emulator.stats().activeDownloads === 0);
    await visible(page.getByRole('button', { name: 'Resume all' }));
    // The files stopped in flight show as paused (they used to go back to Queued, leaving Paused at 0).
    const pausedTab = page.getByRole('radio', { name: /^Paused/ });
    await waitUntil('the Paused view counts the files stopped in flight', async () => Number((await pausedTab.innerText()).replace(/\D/g, '')) > 0);
    await screenshot('downloads-paused');
    // The work in progress first: the paused and queued files above the files earlier specs finished.
    const firstRow = page.getByRole('table', { name: 'Download queue' }).getByRole('row').nth(1);
    expect(await firstRow.innerText()).toMatch(/paused|queued/);
    await checksTheQueueAtEachSize(ctx, 'downloads-paused');
    // The pause is the app's, not only the page's: a page loaded afresh asks the app and finds the queue paused,
    // and all that while no download reached the server. (That a paused queue stays paused however long it waits
    // is the engine's test: test/core/downloads/download-engine.test.ts, on a fake clock.)
    const started = emulator.stats().downloadsStarted;
    await page.reload();
    await goTo(page, 'Downloads');
    await visible(page.getByRole('button', { name: 'Resume all' }));
    expect(emulator.stats()).toMatchObject({ downloadsStarted: started, activeDownloads: 0 });
    emulator.setOptions({ bandwidthBytesPerSecond: 0 });
    await page.getByRole('button', { name: 'Resume all' }).click();
    await waitUntil('every file is on disk after resuming', async () => names.every((name) => existsIn(downloadFolder, name)), 30_000);
    await expectExactCopies(ctx, names);
  } finally {
    emulator.setOptions({ bandwidthBytesPerSecond: 0 });
  }
}

export async function retriesFilesThatFailed(ctx: E2eContext): Promise<void> {
  const { page, demoEmail, downloadFolder, emulator, screenshot } = ctx;
  await signIn(page, demoEmail);
  await search(page, { 'Start date': '2025-03-21', 'End date': '2025-03-22', Every: '2hours' });
  const names = await listedNames(page, '20250321');
  // A 404 is not retried by itself; a 503 is, after a short backoff.
  emulator.injectFault(names[0]!, 'status-404', 1);
  emulator.injectFault(names[1]!, 'status-503', 1);
  await page.getByRole('button', { name: 'Download all' }).click();
  await goTo(page, 'Downloads');
  await waitUntil('all but the 404 arrived', async () => names.slice(1).every((name) => existsIn(downloadFolder, name)), 30_000);
  await visible(page.getByText(/404/));
  await screenshot('downloads-failed');
  await checksTheQueueAtEachSize(ctx, 'downloads-failed');
  // A column sorts from the keyboard, says so in its header, and the work-first order comes back.
  const nameHeader = page.getByRole('table', { name: 'Download queue' }).getByRole('columnheader', { name: /File name/ });
  await nameHeader.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await waitUntil('the list is sorted by name', async () => (await nameHeader.getAttribute('aria-sort')) === 'ascending');
  await page.getByRole('combobox', { name: 'Order' }).selectOption({ label: 'Work in progress first' });
  await waitUntil('the list is back in the work-first order', async () => (await nameHeader.getAttribute('aria-sort')) === 'none');
  // The retried file comes slowly until the note has been seen: on a busy machine a fast one could end the run,
  // and take the note away, before the page is looked at.
  emulator.setOptions({ bandwidthBytesPerSecond: 4_000 });
  try {
    await page.getByRole('button', { name: 'Retry failed' }).click();
    await visible(page.getByText('Retrying 1 file.'));
  } finally {
    emulator.setOptions({ bandwidthBytesPerSecond: 0 });
  }
  await waitUntil('the failed file arrived after Retry failed', async () => existsIn(downloadFolder, names[0]!), 30_000);
  await expectExactCopies(ctx, names);
  // The note was about work under way: it goes when that work is done, and the status bar tells the result.
  await waitUntil('the retry note is gone', async () => (await page.getByText('Retrying 1 file.').count()) === 0);
  await waitUntil('the status bar shows the retry run', async () => (await statusText(page)).includes('last run: 1 of 1 file'));
}

/**
 * The queue as it is now, at 1280x800 and 1024x640, light and dark: a screenshot of each (`<name>-<size>-<scheme>`),
 * and the columns fit: no horizontal scroll, no cut figure (received, on disk, speed), every note line whole (a
 * failure reason is read, not hovered for), the end of every file name (wave region, product) in view, and the
 * row actions inside the table.
 */
async function checksTheQueueAtEachSize(ctx: E2eContext, name: string): Promise<void> {
  const { page, screenshot } = ctx;
  const table = page.getByRole('table', { name: 'Download queue' });
  await atEachSizeAndScheme(page, async (size, scheme) => {
    await screenshot(`${name}-${size}-${scheme}`);
    if (scheme === 'dark') return;
    const fits = await table.evaluate((element) => {
      const cut = (cell: { scrollWidth: number; clientWidth: number }) => cell.scrollWidth > cell.clientWidth + 1;
      const box = element.getBoundingClientRect();
      const cells = (selector: string) => [...element.querySelectorAll(selector)];
      return {
        scrolls: element.scrollWidth > element.clientWidth + 1,
        cutFigures: cells('[role="row"]:not(.header) .num')
          .filter(cut)
          .map((cell) => cell.textContent),
        cutNotes: cells('.detail')
          .filter(cut)
          .map((cell) => cell.textContent),
        cutNameEnds: cells('.tail').filter((tail) => tail.getBoundingClientRect().right > (tail.closest('.name')?.getBoundingClientRect().right ?? 0) + 1)
          .length,
        actionsOutside: cells('.actions button').filter((button) => button.getBoundingClientRect().right > box.right).length,
      };
    });
    expect(fits, `the queue's columns at ${size}`).toEqual({ scrolls: false, cutFigures: [], cutNotes: [], cutNameEnds: 0, actionsOutside: 0 });
  });
}

function existsIn(folder: string, name: string): boolean {
  return existsSync(path.join(folder, name));
}
