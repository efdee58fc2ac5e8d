// Browse's results sorted by any column the table shows, read from the core in that order, and a selection of files
// (their listing positions) that stays as the order changes and rows arrive: shift ranges over rows not read yet
// are asked of the core, and "all" takes in the rows still to arrive.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src-shared/api/schemas';
import { columnsShown } from '../../src-shared/listing/listing-columns';
import { runsOf } from '../../src-shared/search/position-runs';
import { RESULT_POSITIONS_MAX_ROWS, type ResultSort } from '../../src-shared/search/result-page';
import ResultsTable from '../../src-renderer/browse/ResultsTable.svelte';
import { makeListing } from './fake-contract';
import { keptResults } from './kept-results';
import { spacerOf, scrollsLikeABrowser } from './scaled-scroll';
import { cellText, filesOf, searchWith } from './searched-app';

const ROW = 28;
const SIGNED_IN = { session: { signedIn: true, email: 'ada@example.org', expiresAt: null } } as const;

/** The positions in a sort's order, worked out here: ties in listing order, descending the reverse. */
function orderOf(files: readonly FileEntry[], key: 'filesize' | 'filename' | 'date-obs', direction: ResultSort['direction']): number[] {
  const order = files.map((_file, position) => position);
  order.sort((a, b) => {
    const [x, y] = [files[a]![key], files[b]![key]];
    return x === y ? a - b : x < y ? -1 : 1;
  });
  return direction === 'ascending' ? order : order.reverse();
}

function sortButton(grid: HTMLElement, name: string): HTMLElement {
  return within(within(grid).getByRole('columnheader', { name: new RegExp(name) })).getByRole('button', { name: new RegExp(name) });
}

const ariaSortOf = (grid: HTMLElement, name: string): string | null =>
  within(grid)
    .getByRole('columnheader', { name: new RegExp(name) })
    .getAttribute('aria-sort');

const isSelected = (grid: HTMLElement, index: number): string | null | undefined => grid.querySelector(`#file-row-${index}`)?.getAttribute('aria-selected');

describe('sorting Browse’s results', () => {
  it('sorts by a header ascending, then descending, then the listing’s order again, reading pages in that order', async () => {
    const files = filesOf(1000);
    const { fake, grid } = await searchWith(files, true);
    await screen.findByText('1,000 files');
    await waitFor(() => expect(cellText(grid, 0)).toContain(files[0]!.filename));
    for (const name of ['Date-obs', 'File name', 'Listed size']) expect(ariaSortOf(grid, name)).toBe('none');

    const ascending = orderOf(files, 'filesize', 'ascending');
    await fireEvent.click(sortButton(grid, 'Listed size'));
    expect(ariaSortOf(grid, 'Listed size')).toBe('ascending');
    await waitFor(() => expect(cellText(grid, 0)).toContain(files[ascending[0]!]!.filename));
    for (const index of [1, 2, 10]) expect(cellText(grid, index)).toContain(files[ascending[index]!]!.filename);
    expect(fake.callsTo('search:page').at(-1)).toMatchObject({ offset: 0, sort: { key: 'filesize', direction: 'ascending' } });

    const descending = orderOf(files, 'filesize', 'descending');
    await fireEvent.click(sortButton(grid, 'Listed size'));
    expect(ariaSortOf(grid, 'Listed size')).toBe('descending');
    await waitFor(() => expect(cellText(grid, 0)).toContain(files[descending[0]!]!.filename));
    expect(cellText(grid, 5)).toContain(files[descending[5]!]!.filename);

    await fireEvent.click(sortButton(grid, 'Listed size'));
    expect(ariaSortOf(grid, 'Listed size')).toBe('none');
    await waitFor(() => expect(cellText(grid, 0)).toContain(files[0]!.filename));
    expect(fake.callsTo('search:page').at(-1)).toMatchObject({ sort: { key: 'listed', direction: 'ascending' } });

    // The file name's header sorts too; the Date-obs header says none.
    await fireEvent.click(sortButton(grid, 'File name'));
    await fireEvent.click(sortButton(grid, 'File name'));
    expect([ariaSortOf(grid, 'File name'), ariaSortOf(grid, 'Date-obs')]).toEqual(['descending', 'none']);
    await waitFor(() => expect(cellText(grid, 0)).toContain(files[999]!.filename));
  });

  it('offers a sort on every column it shows, UCoMP’s wave region and observing plan included', async () => {
    const files = makeListing({ instrument: 'ucomp', product: 'l1', start: '2025-03-24', count: 300 }).files;
    const { results } = await keptResults(files);
    const { getByRole } = render(ResultsTable, { props: { results, count: files.length, selection: results.selection, columns: columnsShown(files) } });
    const grid = getByRole('grid', { name: 'Files found' });
    const headers = within(grid).getAllByRole('columnheader').slice(1);
    expect(headers.map((header) => header.textContent?.trim())).toEqual(['Date-obs (UT)', 'File name', 'Listed size', 'Wave region', 'Observing plan']);
    for (const header of headers) expect(within(header).getByRole('button')).toBeDefined();
    await fireEvent.click(within(headers[3]!).getByRole('button'));
    expect(headers[3]!.getAttribute('aria-sort')).toBe('ascending');
    expect(results.sort).toEqual({ key: 'wave-region', direction: 'ascending' });
    await fireEvent.click(within(headers[4]!).getByRole('button'));
    expect(results.sort).toEqual({ key: 'obs-plan', direction: 'ascending' });
    expect(headers[3]!.getAttribute('aria-sort')).toBe('none');
  });

  it('reads the pages in view again as rows arrive, which in a column’s order land anywhere', async () => {
    const files = filesOf(1000);
    const { fake, grid } = await searchWith(files.slice(0, 300), false);
    await screen.findByText('300 files so far');
    await fireEvent.click(sortButton(grid, 'Date-obs'));
    await fireEvent.click(sortButton(grid, 'Date-obs'));
    await waitFor(() => expect(cellText(grid, 0)).toContain(files[299]!.filename));
    // The newest files arrive: in date-obs descending they go first, pushing the rows read before down.
    fake.growSearch(files.slice(300, 700), false);
    await screen.findByText('700 files so far');
    await waitFor(() => expect(cellText(grid, 0)).toContain(files[699]!.filename));
    expect(cellText(grid, 1)).toContain(files[698]!.filename);
    fake.growSearch(files.slice(700), true);
    await screen.findByText('1,000 files');
    await waitFor(() => expect(cellText(grid, 0)).toContain(files[999]!.filename));
  });

  it('starts a shift range from the file clicked, wherever rows arriving in a column’s order have moved it', async () => {
    const files = filesOf(1000);
    const { fake, grid } = await searchWith(files.slice(0, 300), false, SIGNED_IN);
    await screen.findByText('300 files so far');
    await fireEvent.click(sortButton(grid, 'Date-obs'));
    await fireEvent.click(sortButton(grid, 'Date-obs'));
    await waitFor(() => expect(cellText(grid, 2)).toContain(files[297]!.filename));
    await fireEvent.click(grid.querySelector('#file-row-2')!);
    // A hundred newer files arrive above it: the file clicked is now row 102.
    fake.growSearch(files.slice(300, 400), false);
    await screen.findByText('400 files so far');
    grid.scrollTop = ROW * 90;
    await fireEvent.scroll(grid);
    await waitFor(() => expect(cellText(grid, 102)).toContain(files[297]!.filename));
    await fireEvent.click(grid.querySelector('#file-row-104')!, { shiftKey: true });
    await screen.findByText('3 selected');
    await fireEvent.click(screen.getByRole('button', { name: 'Download selected' }));
    await screen.findByText(/3 files queued/);
    expect(fake.callsTo('downloads:enqueue')).toEqual([
      { searchId: 'search-1', selection: { sort: { key: 'listed', direction: 'ascending' }, ranges: [{ first: 295, last: 297 }] } },
    ]);
  });
});

describe('a selection of files, whatever the order', () => {
  it('stays on the files chosen when the order changes, and downloads them as listing positions', async () => {
    const files = filesOf(1000);
    const { fake, grid } = await searchWith(files, true, SIGNED_IN);
    await screen.findByText('1,000 files');
    await fireEvent.click(sortButton(grid, 'Listed size'));
    await fireEvent.click(sortButton(grid, 'Listed size'));
    const descending = orderOf(files, 'filesize', 'descending');
    await waitFor(() => expect(cellText(grid, 0)).toContain(files[descending[0]!]!.filename));
    await fireEvent.click(grid.querySelector('#file-row-0')!);
    await fireEvent.click(grid.querySelector('#file-row-3')!);
    screen.getByText('2 selected');

    // By file name, descending: the files chosen are elsewhere, and still selected there (and only they).
    await fireEvent.click(sortButton(grid, 'File name'));
    await fireEvent.click(sortButton(grid, 'File name'));
    const byName = orderOf(files, 'filename', 'descending');
    const chosen = [descending[0]!, descending[3]!];
    const rowsOfChosen = chosen.map((position) => byName.indexOf(position)).sort((a, b) => a - b);
    for (const index of rowsOfChosen) {
      grid.scrollTop = ROW * index;
      await fireEvent.scroll(grid);
      await waitFor(() => expect(cellText(grid, index)).toContain(files[byName[index]!]!.filename));
      expect([isSelected(grid, index), isSelected(grid, index + 1)]).toEqual(['true', 'false']);
    }
    screen.getByText('2 selected');

    await fireEvent.click(screen.getByRole('button', { name: 'Download selected' }));
    await screen.findByText(/2 files queued/);
    expect(fake.callsTo('downloads:enqueue')).toEqual([
      { searchId: 'search-1', selection: { sort: { key: 'listed', direction: 'ascending' }, ranges: runsOf(chosen) } },
    ]);
  });

  it('selects a shift-click range over rows not read yet, asking the core for their positions a capped range at a time', async () => {
    const files = filesOf(150_000);
    const { results, fake } = await keptResults(files);
    const { getByRole } = render(ResultsTable, { props: { results, count: files.length, selection: results.selection, columns: columnsShown(files) } });
    const grid = getByRole('grid', { name: 'Files found' });
    scrollsLikeABrowser(grid);
    await fireEvent.click(sortButton(grid, 'Listed size'));
    const ascending = orderOf(files, 'filesize', 'ascending');
    await waitFor(() => expect(cellText(grid, 0)).toContain(files[ascending[0]!]!.filename));
    await fireEvent.click(grid.querySelector('#file-row-5')!);
    grid.scrollTop = spacerOf(grid);
    await fireEvent.scroll(grid);
    await waitFor(() => expect(grid.querySelector('#file-row-149999')).not.toBeNull());
    await fireEvent.click(grid.querySelector('#file-row-149990')!, { shiftKey: true });
    await waitFor(() => expect(results.selection.count).toBe(149_986));
    expect(results.selection.ranges()).toEqual(runsOf(ascending.slice(5, 149_991)));
    const asked = fake.callsTo('search:positions');
    expect(asked.length).toBeGreaterThan(1);
    for (const request of asked) expect(request.last - request.first).toBeLessThan(RESULT_POSITIONS_MAX_ROWS);
  });

  it('selects every row with Ctrl+A or the header’s box, those still arriving too, and downloads what Download all does', async () => {
    const files = filesOf(1000);
    const { fake, grid } = await searchWith(files.slice(0, 300), false, SIGNED_IN);
    await screen.findByText('300 files so far');
    grid.focus();
    await fireEvent.keyDown(grid, { key: 'a', ctrlKey: true });
    screen.getByText('300 selected');
    const box = within(grid).getByRole('checkbox', { name: 'Select all files' }) as HTMLInputElement;
    fake.growSearch(files.slice(300, 600), false);
    await screen.findByText('600 files so far');
    screen.getByText('600 selected');
    expect(box.checked).toBe(true);
    await waitFor(() => expect(isSelected(grid, 0)).toBe('true'));

    await fireEvent.click(screen.getByRole('button', { name: 'Download selected' }));
    await screen.findByText(/600 files queued/);
    expect(fake.callsTo('downloads:enqueue')).toEqual([{ searchId: 'search-1' }]);

    // One file left out: every other row so far stays selected; rows arriving later come unselected.
    await fireEvent.click(grid.querySelector('#file-row-0')!);
    screen.getByText('599 selected');
    expect([box.checked, box.indeterminate]).toEqual([false, true]);
    fake.growSearch(files.slice(600, 800), false);
    await screen.findByText('800 files so far');
    screen.getByText('599 selected');
    expect(isSelected(grid, 1)).toBe('true');

    // The header's box means all as Ctrl+A does (from a part selection, its first click checks it), and clears.
    await fireEvent.click(box);
    screen.getByText('800 selected');
    await fireEvent.click(box);
    expect(screen.queryByText(/^[\d,]+ selected$/)).toBeNull();
    await fireEvent.click(box);
    screen.getByText('800 selected');
    fake.growSearch(files.slice(800), true);
    await screen.findByText('1,000 files');
    screen.getByText('1,000 selected');
  });
});
