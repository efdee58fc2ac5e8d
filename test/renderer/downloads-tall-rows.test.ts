// The Downloads table over a queue of 1,000,000 rows, a few of them of two lines (a failure reason, a retried file):
// a page arriving lays the rows out again at a cost that follows the rows loaded, never the list. The rows are made
// up page by page (the fake's own list would sort a million jobs per page), as the core's SQL pages them.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/svelte';
import type { JobView } from '../../src-shared/downloads/progress-types';
import { SparseRows } from '../../src-renderer/lib/sparse-rows.svelte';
import { DownloadsStore } from '../../src-renderer/downloads/downloads.svelte';
import { FakeContract, makeJob, overallOf } from './fake-contract';
import { renderApp } from './render-app';
import { scrollsLikeABrowser, spacerOf, VIEW } from './scaled-scroll';

const ROWS = 1_000_000;
const REASON = 'The server closed the connection before the file was complete.';

const nameOf = (index: number): string => `20250324_${String(index).padStart(7, '0')}_kcor_l2_pb.fts`;

/** One row in 97 failed a first attempt: it waits with its reason on a second line. */
const jobAt = (index: number): JobView => makeJob(index + 1, nameOf(index), 'queued', index % 97 === 5 ? { attempts: 2, lastError: REASON } : {});

/** Each row's top, from its transform, in the order shown, beside the height its class gives it. */
function placesOf(table: HTMLElement): { top: number; height: number; name: string }[] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => ({
      top: Number(/translateY\((\d+)px\)/.exec(row.style.transform)?.[1]),
      height: row.classList.contains('two-lines') ? 48 : 32,
      name: row.querySelector('.name')?.getAttribute('title') ?? '',
    }));
}

function expectStacked(table: HTMLElement): void {
  const places = placesOf(table);
  expect(places.some((place) => place.height === 48)).toBe(true);
  for (let at = 1; at < places.length; at++) expect(places[at]!.top).toBe(places[at - 1]!.top + places[at - 1]!.height);
}

/** A queue of `rows` jobs, made up page by page. */
function queueOf(rows: number): FakeContract {
  const fake = new FakeContract();
  const overall = { ...overallOf([]), total: rows, queued: rows };
  fake.handle('downloads:page', ({ offset, limit, counted }) => ({
    offset,
    jobs: Array.from({ length: Math.max(0, Math.min(limit, rows - offset)) }, (_, at) => jobAt(offset + at)),
    counts: counted ? overall : null,
    overall: counted ? overall : null,
  }));
  return fake;
}

describe('a million-row queue with rows of two lines', () => {
  it('lays out a page arriving by the rows loaded, not by the million', async () => {
    const fake = queueOf(ROWS);
    const rowsRead = vi.spyOn(DownloadsStore.prototype, 'rowAt');
    const attached = vi.spyOn(SparseRows.prototype, 'attach');
    await renderApp(fake);
    await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    const table = await screen.findByRole('table', { name: 'Download queue' });
    await within(table).findByText(nameOf(0));
    expect(table.getAttribute('aria-rowcount')).toBe(String(ROWS + 1));
    expectStacked(table);
    const opening = rowsRead.mock.calls.length;

    // Far down the list: a page of rows arrives there, one in 97 of its rows of two lines (500,040 among them).
    rowsRead.mockClear();
    // 32 px x 1,000,000 is past what a browser lets an element be tall: the scroll bar is scaled, so row 500,037 is
    // at its share of the spacer (rows in view: 600 px less the header, 18 rows).
    scrollsLikeABrowser(table);
    table.scrollTop = ((spacerOf(table) - VIEW) * 500_037) / (ROWS - 18);
    await fireEvent.scroll(table);
    const far = await within(table).findByText(nameOf(500_040), {}, { timeout: 5000 });
    expect(far.closest('[role="row"]')!.classList.contains('two-lines')).toBe(true);
    expectStacked(table);
    const arriving = rowsRead.mock.calls.length;
    console.log(`1,000,000 rows: ${opening} rows read on opening, ${arriving} for a page arriving far down`);
    // The rows loaded (a few pages of 100) and those drawn, a few times over: thousands, not a million.
    expect(opening).toBeLessThan(20_000);
    expect(arriving).toBeLessThan(20_000);
    // The scroll element is connected once: rows coming into view do not connect it again (each time a layout).
    expect(attached).toHaveBeenCalledTimes(1);
    rowsRead.mockRestore();
    attached.mockRestore();
  });
});

describe('rows placed by arithmetic', () => {
  it('finds each row at its own place, before, between and after the taller ones', () => {
    const tall = new Map([
      [3, 48],
      [4, 60],
      [500_000, 48],
      [999_999, 48],
    ]);
    const rows = new SparseRows({
      rowHeight: 32,
      headerHeight: 28,
      overscan: 2,
      rowHeightOf: (index) => tall.get(index) ?? 32,
      measuredRows: () => [
        { first: 0, last: 99 },
        { first: 499_900, last: 500_099 },
        { first: 999_900, last: 999_999 },
      ],
    });
    rows.setCount(1_000_000);
    rows.remeasure();
    expect(rows.startOf(3)).toBe(28 + 3 * 32);
    expect(rows.startOf(4)).toBe(28 + 4 * 32 + 16);
    expect(rows.startOf(5)).toBe(28 + 5 * 32 + 16 + 28);
    // The list's end, by arithmetic; the spacer stops at 15M px (a browser's cap; the scroll bar is scaled).
    const end = rows.startOf(999_999) + 48;
    expect(end).toBe(28 + 1_000_000 * 32 + 16 + 28 + 16 + 16);
    expect(rows.totalSize).toBe(15_000_000);
    for (const index of [0, 2, 3, 4, 5, 6, 499_999, 500_000, 500_001, 999_998, 999_999]) {
      const height = tall.get(index) ?? 32;
      expect(rows.indexAt(rows.startOf(index))).toBe(index);
      expect(rows.indexAt(rows.startOf(index) + height - 1)).toBe(index);
      expect(rows.startOf(index + 1) - rows.startOf(index)).toBe(height);
    }
    expect(rows.indexAt(end + 1000)).toBe(999_999);
    expect(rows.indexAt(0)).toBe(0);
  });
});

/** The rows shown with their names (their page has arrived), each with its place in the view. */
function namedRows(table: HTMLElement): { index: number; top: number; bottom: number; name: string }[] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .filter((row) => row.querySelector('.name') !== null)
    .map((row) => {
      const top = Number(/translateY\((-?[\d.]+)px\)/.exec(row.style.transform)?.[1]) - table.scrollTop;
      return {
        index: Number(row.getAttribute('aria-rowindex')) - 2,
        top,
        bottom: top + (row.classList.contains('two-lines') ? 48 : 32),
        name: row.querySelector('.name')!.getAttribute('title')!,
      };
    });
}

/** The rows fill the view under the header, one after the other, in order. */
function expectViewFilled(table: HTMLElement): void {
  const rows = namedRows(table);
  for (let at = 1; at < rows.length; at++) {
    expect(rows[at]!.index).toBe(rows[at - 1]!.index + 1);
    expect(rows[at]!.top).toBe(rows[at - 1]!.bottom);
  }
  expect(rows[0]!.top).toBeLessThanOrEqual(28);
  expect(rows[rows.length - 1]!.bottom).toBeGreaterThanOrEqual(VIEW);
}

describe('a queue taller than a browser lets an element be', () => {
  const MANY = 5_000_000;
  const CAP = 15_000_000;

  it('reaches every row of 5,000,000 with a spacer under the cap, and moves row by row on a wheel or a key', async () => {
    await renderApp(queueOf(MANY));
    await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    const table = await screen.findByRole('table', { name: 'Download queue' });
    await within(table).findByText(nameOf(0));
    scrollsLikeABrowser(table);
    // Chromium stops an element at about 33.5M px, Firefox at about 17.9M: 32 px x 5M rows would be 160M.
    expect(spacerOf(table)).toBeLessThanOrEqual(CAP);

    // The scroll bar dragged to its end: the last row, its bottom at the view's.
    table.scrollTop = spacerOf(table);
    await fireEvent.scroll(table);
    await within(table).findByText(nameOf(MANY - 1), {}, { timeout: 5000 });
    // Its page brought rows of two lines, the list grew under the view (as in any browser): to the end again.
    table.scrollTop = spacerOf(table);
    await fireEvent.scroll(table);
    let rows = namedRows(table);
    expect(rows[rows.length - 1]).toMatchObject({ index: MANY - 1, bottom: VIEW });
    expectViewFilled(table);

    // Dragged to the middle: the rows there, in order and touching, rows of two lines among them.
    table.scrollTop = (spacerOf(table) - VIEW) / 2;
    await fireEvent.scroll(table);
    await within(table).findByText(nameOf(2_499_991), {}, { timeout: 5000 });
    expectViewFilled(table);
    expect(
      within(table)
        .getAllByRole('row')
        .some((row) => row.classList.contains('two-lines')),
    ).toBe(true);

    // A wheel step and an arrow key move the rows by their pixels, not by a share of 5M rows.
    const before = namedRows(table).find((row) => row.top >= 200)!;
    await fireEvent.wheel(table, { deltaY: 96 });
    expect(namedRows(table).find((row) => row.index === before.index)?.top).toBe(before.top - 96);
    await fireEvent.keyDown(table, { key: 'ArrowDown' });
    expect(namedRows(table).find((row) => row.index === before.index)?.top).toBe(before.top - 136);
    await fireEvent.keyDown(table, { key: 'ArrowUp' });
    await fireEvent.wheel(table, { deltaY: -96 });
    expect(namedRows(table).find((row) => row.index === before.index)?.top).toBe(before.top);
    // The scroll events those moves cause are the table's own: the rows stay where the moves put them.
    await fireEvent.scroll(table);
    expect(namedRows(table).find((row) => row.index === before.index)?.top).toBe(before.top);

    // End and Home: the last row and the first.
    await fireEvent.keyDown(table, { key: 'End' });
    await within(table).findByText(nameOf(MANY - 1), {}, { timeout: 5000 });
    rows = namedRows(table);
    expect(rows[rows.length - 1]).toMatchObject({ index: MANY - 1, bottom: VIEW });
    expect(table.scrollTop).toBe(spacerOf(table) - VIEW);
    await fireEvent.keyDown(table, { key: 'Home' });
    await within(table).findByText(nameOf(0), {}, { timeout: 5000 });
    expect(namedRows(table)[0]).toMatchObject({ index: 0, top: 28 });
    expect(table.scrollTop).toBe(0);
  });

  it('leaves a list under the cap to the browser: its whole height, the wheel and keys its own', async () => {
    await renderApp(queueOf(100_000));
    await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    const table = await screen.findByRole('table', { name: 'Download queue' });
    await within(table).findByText(nameOf(0));
    expect(spacerOf(table)).toBeGreaterThanOrEqual(28 + 100_000 * 32);
    // fireEvent answers false when a listener cancelled the event's default (the browser's scrolling).
    expect(await fireEvent.wheel(table, { deltaY: 96 })).toBe(true);
    expect(await fireEvent.keyDown(table, { key: 'End' })).toBe(true);
    expect(await fireEvent.keyDown(table, { key: 'ArrowDown' })).toBe(true);
  });
});
