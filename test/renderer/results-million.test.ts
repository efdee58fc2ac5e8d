// Browse's results table over a listing of 1,000,000 files (two months of KCor at its 15 s cadence, as a windowed
// listing brings it): 28 px rows are 28M px, past what a browser lets an element be tall, so the spacer stops under
// the cap and the scroll bar is scaled (sparse-rows.svelte.ts, as the Downloads table). Every row stays reachable:
// by the keyboard's cursor (End, Home, arrows, pages), by the scroll bar dragged, and a click or Space still selects.
import { fireEvent, render, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src-shared/api/schemas';
import { columnsShown } from '../../src-shared/listing/listing-columns';
import ResultsTable from '../../src-renderer/browse/ResultsTable.svelte';
import type { RowSelection } from '../../src-renderer/browse/row-selection.svelte';
import { keptResults } from './kept-results';
import { scrollsLikeABrowser, spacerOf, VIEW } from './scaled-scroll';

const MANY = 1_000_000;
const ROW = 28;
/** Under Firefox's cap (about 17.9M px), the lowest of the browsers'. */
const CAP = 15_000_000;

const ENTRY: FileEntry = {
  'date-obs': '2025-03-24T18:00:00',
  filename: '20250324_180000_kcor_l2_pb.fts',
  filesize: 2_582_027,
  instrument: 'kcor',
  product: 'pb',
  url: 'http://api.example/v1/download?instrument=kcor&filename=20250324_180000_kcor_l2_pb.fts.gz',
};
/** The rows are told apart by their index (file-row-N); one entry for all keeps a million of them cheap. */
const FILES: FileEntry[] = new Array<FileEntry>(MANY).fill(ENTRY);

/** The table over a search of `files` kept by the fake core: its rows are read by pages, as the app's are. */
async function renderTable(files: FileEntry[]): Promise<{ grid: HTMLElement; selection: RowSelection }> {
  const { results } = await keptResults(files);
  const { selection } = results;
  const { getByRole } = render(ResultsTable, { props: { results, count: files.length, selection, columns: columnsShown([ENTRY]) } });
  return { grid: getByRole('grid', { name: 'Files found' }), selection };
}

/** The rows rendered, in order, with their top and bottom in the view (their place less the scroll). */
function shownRows(grid: HTMLElement): { index: number; top: number; bottom: number }[] {
  return within(grid)
    .getAllByRole('row')
    .slice(1)
    .map((row) => {
      const top = Number(/translateY\((-?\d+)px\)/.exec(row.style.transform)?.[1]) - grid.scrollTop;
      return { index: Number(row.getAttribute('aria-rowindex')) - 2, top, bottom: top + ROW };
    });
}

/** The row is rendered and wholly in view, below the sticky header. */
function expectInView(grid: HTMLElement, index: number): void {
  const row = shownRows(grid).find((candidate) => candidate.index === index);
  expect(row, `row ${index} is rendered`).toBeDefined();
  expect(row!.top).toBeGreaterThanOrEqual(ROW);
  expect(row!.bottom).toBeLessThanOrEqual(VIEW);
}

/** The rows touch one another and fill the view from the header down. */
function expectViewFilled(grid: HTMLElement): void {
  const rows = shownRows(grid);
  for (let at = 1; at < rows.length; at++) {
    expect(rows[at]!.index).toBe(rows[at - 1]!.index + 1);
    expect(rows[at]!.top).toBe(rows[at - 1]!.bottom);
  }
  expect(rows[0]!.top).toBeLessThanOrEqual(ROW);
  expect(rows[rows.length - 1]!.bottom).toBeGreaterThanOrEqual(VIEW);
}

const cursorOf = (grid: HTMLElement): string | null => grid.getAttribute('aria-activedescendant');

describe('a listing taller than a browser lets an element be', () => {
  it('reaches the last of 1,000,000 rows with End and by the scroll bar, with a spacer under the cap', async () => {
    const { grid, selection } = await renderTable(FILES);
    scrollsLikeABrowser(grid);
    // 28 px x 1M rows would be 28,000,028 px: past Firefox's cap (and the scroll bar's reach in it).
    expect(spacerOf(grid)).toBeLessThanOrEqual(CAP);
    expect(grid.getAttribute('aria-rowcount')).toBe(String(MANY + 1));
    expectInView(grid, 0);

    // End: the cursor on the last row, that row in view at the bottom, the scroll bar at its end.
    grid.focus();
    await fireEvent.keyDown(grid, { key: 'End' });
    expect(cursorOf(grid)).toBe(`file-row-${MANY - 1}`);
    expectInView(grid, MANY - 1);
    expect(shownRows(grid).at(-1)).toMatchObject({ index: MANY - 1, bottom: VIEW });
    expect(grid.scrollTop).toBe(spacerOf(grid) - VIEW);
    expectViewFilled(grid);
    // Space selects the row under the cursor; ArrowUp moves it one row up, still in view.
    await fireEvent.keyDown(grid, { key: ' ' });
    expect(selection.has(MANY - 1)).toBe(true);
    await fireEvent.keyDown(grid, { key: 'ArrowUp' });
    expect(cursorOf(grid)).toBe(`file-row-${MANY - 2}`);
    expectInView(grid, MANY - 2);

    // Home: the first row, the scroll bar at its top.
    await fireEvent.keyDown(grid, { key: 'Home' });
    expect(cursorOf(grid)).toBe('file-row-0');
    expectInView(grid, 0);
    expect(grid.scrollTop).toBe(0);

    // The scroll bar dragged to its end: the last row, its bottom at the view's.
    grid.scrollTop = spacerOf(grid);
    await fireEvent.scroll(grid);
    expect(shownRows(grid).at(-1)).toMatchObject({ index: MANY - 1, bottom: VIEW });
    expectViewFilled(grid);
    // Dragged to the middle: the middle rows, in order and touching; a click there selects the row clicked.
    grid.scrollTop = (spacerOf(grid) - VIEW) / 2;
    await fireEvent.scroll(grid);
    expectViewFilled(grid);
    const middle = shownRows(grid).find((row) => row.top >= VIEW / 2)!;
    expect(middle.index).toBeGreaterThan(MANY / 2 - 30);
    expect(middle.index).toBeLessThan(MANY / 2 + 30);
    await fireEvent.click(grid.querySelector(`#file-row-${middle.index}`)!);
    expect(selection.has(middle.index)).toBe(true);
    expect(cursorOf(grid)).toBe(`file-row-${middle.index}`);

    // From there, the keys move the cursor by rows and keep it in view, not by a share of a million rows; the rows
    // stay put while the cursor's row is in view (the keys are the cursor's, not a scroll's).
    const before = shownRows(grid);
    await fireEvent.keyDown(grid, { key: 'ArrowDown' });
    expect(cursorOf(grid)).toBe(`file-row-${middle.index + 1}`);
    expect(shownRows(grid)).toEqual(before);
    await fireEvent.keyDown(grid, { key: 'PageDown' });
    const paged = Number(cursorOf(grid)!.replace('file-row-', ''));
    expect(paged - middle.index - 1).toBe(Math.floor(VIEW / ROW) - 1);
    expectInView(grid, paged);
    await fireEvent.keyDown(grid, { key: 'ArrowDown', shiftKey: true });
    expect(selection.has(paged + 1)).toBe(true);
    expectInView(grid, paged + 1);
  });

  it('moves the cursor and selects by the keys in a column’s order, descending, over 1,000,000 rows', async () => {
    const { grid, selection } = await renderTable(FILES);
    scrollsLikeABrowser(grid);
    const size = within(within(grid).getByRole('columnheader', { name: /Listed size/ })).getByRole('button');
    await fireEvent.click(size);
    await fireEvent.click(size);
    expect(size.parentElement!.getAttribute('aria-sort')).toBe('descending');
    // One size for all: descending is the listing read backwards, so row N shows the file at position MANY - 1 - N.
    const positionAt = (row: number): number => MANY - 1 - row;
    grid.focus();
    await fireEvent.keyDown(grid, { key: 'End' });
    expect(cursorOf(grid)).toBe(`file-row-${MANY - 1}`);
    expectInView(grid, MANY - 1);
    await fireEvent.keyDown(grid, { key: ' ' });
    await waitFor(() => expect(selection.has(positionAt(MANY - 1))).toBe(true));
    expect(selection.has(MANY - 1)).toBe(false);
    await waitFor(() => expect(grid.querySelector(`#file-row-${MANY - 1}`)!.getAttribute('aria-selected')).toBe('true'));
    // Shift+ArrowUp, twice: the rows from the anchor up, by their files.
    await fireEvent.keyDown(grid, { key: 'ArrowUp', shiftKey: true });
    await fireEvent.keyDown(grid, { key: 'ArrowUp', shiftKey: true });
    await waitFor(() => expect(selection.count).toBe(3));
    expect(selection.ranges()).toEqual([{ first: 0, last: 2 }]);
    expectInView(grid, MANY - 3);

    await fireEvent.keyDown(grid, { key: 'Home' });
    expect(cursorOf(grid)).toBe('file-row-0');
    expect(grid.scrollTop).toBe(0);
    await fireEvent.keyDown(grid, { key: 'PageDown' });
    const paged = Number(cursorOf(grid)!.replace('file-row-', ''));
    expect(paged).toBe(Math.floor(VIEW / ROW) - 1);
    expectInView(grid, paged);
    await fireEvent.keyDown(grid, { key: ' ' });
    await waitFor(() => expect(selection.has(positionAt(paged))).toBe(true));
    await fireEvent.keyDown(grid, { key: 'PageUp' });
    expect(cursorOf(grid)).toBe('file-row-0');
    // Dragged to the middle: a click there selects the file shown, and the cursor lands on its row.
    grid.scrollTop = (spacerOf(grid) - VIEW) / 2;
    await fireEvent.scroll(grid);
    expectViewFilled(grid);
    const middle = shownRows(grid).find((row) => row.top >= VIEW / 2)!;
    await fireEvent.click(grid.querySelector(`#file-row-${middle.index}`)!);
    await waitFor(() => expect(selection.has(positionAt(middle.index))).toBe(true));
    expect(cursorOf(grid)).toBe(`file-row-${middle.index}`);
    expect(selection.count).toBe(5);
  });

  it('leaves a listing under the cap its whole height and the browser its scrolling', async () => {
    const { grid } = await renderTable(FILES.slice(0, 100_000));
    expect(spacerOf(grid)).toBe(ROW + 100_000 * ROW);
    // fireEvent answers false when a listener cancelled the event's default (the browser's scrolling).
    expect(await fireEvent.wheel(grid, { deltaY: 96 })).toBe(true);
    // The table's own keys move its cursor, and scroll the browser's way: the scroll bar is the list's.
    grid.focus();
    await fireEvent.keyDown(grid, { key: 'End' });
    expect(cursorOf(grid)).toBe('file-row-99999');
    expect(grid.scrollTop).toBe(ROW + 100_000 * ROW - VIEW);
  });
});
