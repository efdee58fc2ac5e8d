// Browse at the archive's scale, as a person does it, in Debian's Chromium through web mode against the emulator:
// a search of over 100,000 KCor pB files with the listing size limit left at 1 MB (far below the listing), scrolled
// to its end by the End key and by the scroll bar, all of it selected with Ctrl+A, then a few rows far apart chosen
// by click, Shift+click, Ctrl+click and Space and downloaded: exactly those files, byte for byte. Screenshots of each
// state, light and dark, go to test-results/screenshots/ (or SHOTS_FOLDER).
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCount } from '../../src-shared/format/counts';
import { useWebModeSession } from './web-mode-session';
import { search } from './specs/downloads.spec';
import { atEachSizeAndScheme, goTo, signIn, visible, waitUntil } from './specs/ui-helpers';

/** 18 days of KCor pB every 2 s: some 100,900 files. */
const EMULATOR = { days: 18, cadenceSeconds: 2 };
/** The lowest limit Settings takes; a user's choice, saved before the app starts and never raised. */
const LIMIT_MEGABYTES = 1;
const FILTERS = { 'Start date': '2025-03-01', 'End date': '2025-03-31' };
const QUERY = 'start-date=2025-03-01&end-date=2025-03-31';

/** The emulator's own listing of the query, in one answer: what the app must show, row for row. */
let listed: string[];
let listingBytes: number;
/** What the steps took (ms) and the listing's size, saved beside the screenshots. */
const times: Record<string, number> = {};

const session = useWebModeSession('emulator', { emulator: EMULATOR, savedSettings: { maxListingMegabytes: LIMIT_MEGABYTES }, scrollBars: true });

beforeAll(async () => {
  const answer = await fetch(`${session.emulator.url}/v1/instruments/kcor/products/pb/files/?${QUERY}`);
  const text = await answer.text();
  listingBytes = Buffer.byteLength(text);
  times.listingBytes = listingBytes;
  listed = (JSON.parse(text) as { files: { filename: string }[] }).files.map((file) => file.filename);
}, 60_000);

// Runs before the session closes; with nothing measured, the session never opened and there is nothing to save.
afterAll(async () => {
  if (Object.keys(times).length === 0) return;
  await session.context.saveResult(
    'browse-100k-times.json',
    `${JSON.stringify(times, (_, value: unknown) => (typeof value === 'number' ? Math.round(value) : value), 2)}\n`,
  );
});

const results = () => session.page.getByRole('region', { name: 'Results' });
const grid = () => results().getByRole('grid', { name: 'Files found' });
/** A row of the results by the file name it shows. */
const rowOf = (name: string) =>
  grid()
    .getByRole('row')
    .filter({ has: session.page.getByRole('gridcell', { name, exact: true }) });
const savedLimit = async () => (await session.app.core.handlers['settings:get']()).maxListingMegabytes;

/**
 * The file names of the rows wholly in view, top to bottom: below the grid's header and above its bottom edge, not
 * only drawn among the rows kept either side. Read in one look, by roles and the column's header.
 */
function namesInView(): Promise<string[]> {
  return grid().evaluate((element) => {
    const column = [...element.querySelectorAll('[role="columnheader"]')].findIndex((header) => header.textContent?.trim().startsWith('File name'));
    const [header, ...rows] = [...element.querySelectorAll('[role="row"]')];
    const top = header!.getBoundingClientRect().bottom - 1;
    const bottom = element.getBoundingClientRect().top + element.clientTop + element.clientHeight + 1;
    return rows
      .map((row) => ({ box: row.getBoundingClientRect(), name: row.querySelectorAll('[role="gridcell"]')[column]?.textContent?.trim() ?? '' }))
      .filter(({ box, name }) => name !== '' && box.top >= top && box.bottom <= bottom)
      .sort((a, b) => a.box.top - b.box.top)
      .map(({ name }) => name);
  });
}

const inView = async (name: string): Promise<boolean> => (await namesInView()).includes(name);

/**
 * Drags the grid's scroll bar thumb, from where it rests at the top, to `fraction` of the way down its track (1: past
 * its end). The arrow buttons at either end are as tall as the bar is wide.
 */
async function dragScrollBar(fraction: number): Promise<void> {
  await session.page.keyboard.press('Home');
  await waitUntil('the list is at its top', () => inView(listed[0]!));
  const box = (await grid().boundingBox())!;
  const barWidth = await grid().evaluate((element) => element.offsetWidth - element.clientWidth);
  expect(barWidth, 'the grid shows a scroll bar').toBeGreaterThan(0);
  const x = box.x + box.width - barWidth / 2;
  const trackTop = box.y + barWidth;
  const trackBottom = box.y + box.height - barWidth;
  await session.page.mouse.move(x, trackTop + 4);
  await session.page.mouse.down();
  await session.page.mouse.move(x, fraction >= 1 ? box.y + box.height + 40 : trackTop + fraction * (trackBottom - trackTop), { steps: 8 });
  await session.page.mouse.up();
}

/** Screenshots at each size and scheme with the list at its end (a smaller window shows less of it: End again). */
function picturesAtTheEnd(name: string): Promise<void> {
  return atEachSizeAndScheme(session.page, async (size, scheme) => {
    // The table learns its new height from a resize observer, which runs before the next frame is drawn.
    await session.page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    await session.page.keyboard.press('End');
    await waitUntil(`the last file is in view at ${size}`, () => inView(listed.at(-1)!));
    await session.context.screenshot(`${name}-${size}-${scheme}`);
  });
}

describe('Browse at the archive scale', () => {
  it('lists 100,000+ files past a 1 MB listing size limit, first rows first, then the whole count', async () => {
    expect(listed.length).toBeGreaterThan(100_000);
    expect(listingBytes, 'the listing in one answer is larger than the limit').toBeGreaterThan(10 * LIMIT_MEGABYTES * 1024 * 1024);
    expect(await savedLimit()).toBe(LIMIT_MEGABYTES);

    await signIn(session.page, session.context.demoEmail);
    await search(session.page, FILTERS);
    const searched = performance.now();
    const count = results().getByText(/^[\d,]+ files( so far)?$/);
    await waitUntil('the first file is in view', () => inView(listed[0]!), 30_000);
    times.firstRows = performance.now() - searched;
    // The first rows are there while the rest still arrives.
    expect(await count.innerText()).toMatch(/ so far$/);
    await waitUntil('the count is complete', async () => (await count.innerText()) === `${formatCount(listed.length)} files`, 60_000);
    times.completeCount = performance.now() - searched;
    await atEachSizeAndScheme(session.page, (size, scheme) => session.context.screenshot(`browse-100k-listed-${size}-${scheme}`));
  });

  it("reaches the end of the list by the End key and by the scroll bar, and shows the listing's last file there", async () => {
    const last = listed.at(-1)!;
    await grid().focus();
    await session.page.keyboard.press('End');
    await waitUntil('the last file is in view after End', () => inView(last));
    await picturesAtTheEnd('browse-100k-end');
    await dragScrollBar(1);
    await waitUntil('the last file is in view after the scroll bar went down', () => inView(last));
    expect((await namesInView()).at(-1)).toBe(last);
  });

  it('selects all with Ctrl+A, then a chosen few far apart, and downloads exactly those files', async () => {
    const selected = results().getByText(/^[\d,]+ selected$/);
    await grid().focus();
    await session.page.keyboard.press('Control+A');
    await waitUntil('every file is selected', async () => (await selected.innerText()) === `${formatCount(listed.length)} selected`);
    await atEachSizeAndScheme(session.page, (size, scheme) => session.context.screenshot(`browse-100k-all-selected-${size}-${scheme}`));
    await results().getByRole('checkbox', { name: 'Select all files' }).click();
    await waitUntil('nothing is selected', async () => (await selected.count()) === 0);

    // The first three by a click and a Shift+click.
    await session.page.keyboard.press('Home');
    await waitUntil('the list is at its top', () => inView(listed[0]!));
    await rowOf(listed[0]!).click();
    await rowOf(listed[2]!).click({ modifiers: ['Shift'] });
    await waitUntil('three are selected', async () => (await selected.innerText()) === '3 selected');
    // One from the middle, reached by the scroll bar, by a Ctrl+click.
    await dragScrollBar(0.5);
    let middle = '';
    await waitUntil('rows of the middle are in view', async () => {
      const names = await namesInView();
      middle = names[Math.floor(names.length / 2)] ?? '';
      return listed.indexOf(middle) > listed.length / 4;
    });
    const middleIndex = listed.indexOf(middle);
    expect(middleIndex / listed.length).toBeGreaterThan(0.4);
    expect(middleIndex / listed.length).toBeLessThan(0.6);
    await rowOf(middle).click({ modifiers: ['Control'] });
    await waitUntil('four are selected', async () => (await selected.innerText()) === '4 selected');
    // The last by the End key and Space.
    await session.page.keyboard.press('End');
    await waitUntil('the last file is in view', () => inView(listed.at(-1)!));
    await session.page.keyboard.press('Space');
    await waitUntil('five are selected', async () => (await selected.innerText()) === '5 selected');
    const chosen = [listed[0]!, listed[1]!, listed[2]!, middle, listed.at(-1)!];
    expect(await rowOf(listed.at(-1)!).getAttribute('aria-selected'), 'the last row is selected').toBe('true');
    await picturesAtTheEnd('browse-100k-few-selected');

    await results().getByRole('button', { name: 'Download selected' }).click();
    const downloading = performance.now();
    await goTo(session.page, 'Downloads');
    const queue = session.page.getByRole('table', { name: 'Download queue' });
    await waitUntil('the five files are done', async () => (await queue.getByRole('button', { name: /^Quick look at / }).count()) === chosen.length, 30_000);
    times.fiveDownloaded = performance.now() - downloading;
    for (const name of chosen) await visible(queue.getByText(name, { exact: true }));
    expect(Object.keys(session.emulator.stats().downloadsByFile).sort(), 'the files the server was asked for').toEqual([...chosen].sort());
    expect(await queue.getByRole('row').count(), 'the rows of the Downloads screen, with its header').toBe(chosen.length + 1);
    const queued = await session.app.core.handlers['downloads:page']({ offset: 0, limit: 500, states: null, place: null, sort: null, counted: true });
    expect(queued.jobs.map((job) => job.filename).sort(), 'the files queued').toEqual([...chosen].sort());
    const onDisk = (await readdir(session.context.downloadFolder)).filter((name) => !name.startsWith('.')).sort();
    expect(onDisk, 'the files on disk').toEqual([...chosen].sort());
    for (const name of chosen) {
      expect((await readFile(path.join(session.context.downloadFolder, name))).equals(await session.emulator.fileBytes('kcor', name)), name).toBe(true);
    }
    await atEachSizeAndScheme(session.page, (size, scheme) => session.context.screenshot(`browse-100k-downloaded-${size}-${scheme}`));
    expect(await savedLimit(), 'the listing size limit, unchanged').toBe(LIMIT_MEGABYTES);
  });
});
