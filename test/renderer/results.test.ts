// Results: the summary line, the virtualized table, selection by mouse and keyboard, and Download.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { humanSize } from '../../src-shared/format/human-size';
import type { FakeOptions } from './fake-contract';
import { makeListing } from './fake-contract';
import { renderApp } from './render-app';

const SIGNED_IN: FakeOptions['session'] = { signedIn: true, email: 'ada@example.org', expiresAt: null };

async function runSearch(options: FakeOptions, instrument: string) {
  const rendered = await renderApp(options);
  await fireEvent.change(screen.getByRole('combobox', { name: 'Instrument' }), { target: { value: instrument } });
  await waitFor(() => expect((screen.getByRole('combobox', { name: 'Product' }) as HTMLSelectElement).value).not.toBe(''));
  await waitFor(() => expect(screen.queryByText(/Loading the product/)).toBeNull());
  await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  return rendered;
}

/** Renders the window, chooses the instrument's first product and searches; resolves once the table is there. */
async function search(options: FakeOptions = {}, instrument = 'kcor') {
  const rendered = await runSearch(options, instrument);
  const grid = await screen.findByRole('grid', { name: 'Files found' });
  return { ...rendered, grid };
}

function rows(grid: HTMLElement): HTMLElement[] {
  return within(grid)
    .getAllByRole('row')
    .filter((row) => row.getAttribute('aria-rowindex') !== '1');
}

function row(grid: HTMLElement, index: number): HTMLElement {
  const found = grid.querySelector<HTMLElement>(`#file-row-${index}`);
  if (!found) throw new Error(`row ${index} is not rendered`);
  return found;
}

function selectedIndices(grid: HTMLElement): number[] {
  return rows(grid)
    .filter((candidate) => candidate.getAttribute('aria-selected') === 'true')
    .map((candidate) => Number(candidate.getAttribute('aria-rowindex')) - 2);
}

describe('summary line', () => {
  it('counts files, totals sizes and gives the date span in UT', async () => {
    await search({ listingSize: 40 });
    const listing = makeListing({ instrument: 'kcor', product: 'pb', start: '2025-03-24', count: 40 });
    const total = humanSize(listing.files.reduce((sum, file) => sum + file.filesize, 0));
    screen.getByText('40 files');
    screen.getByText(total);
    screen.getByText('2025-03-24 UT');
  });

  it('marks the total as a lower bound when some sizes are unknown, and shows those as "unknown"', async () => {
    const { grid } = await search({ listingSize: 1234, zeroEvery: 10 });
    screen.getByText('1,234 files');
    screen.getByText(/^≥ \d+\.\d [KMG]B$/);
    expect(within(row(grid, 9)).getByText('unknown')).toBeTruthy();
  });

  it('spans several days when the listing does', async () => {
    await search({ listingSize: 10_000 });
    // 10,000 files 15 s apart from 18:00 UT cover two days and a bit.
    screen.getByText('2025-03-24 – 2025-03-26 UT');
  });

  it('says so when nothing matches', async () => {
    await runSearch({ listingSize: 0 }, 'kcor');
    await screen.findByText('No files match these filters.');
    screen.getByText('0 files');
    expect(screen.queryByRole('grid')).toBeNull();
    expect((screen.getByRole('button', { name: 'Download all' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('adds wave region and observing plan columns for UCoMP', async () => {
    const { grid } = await search({ listingSize: 10 }, 'ucomp');
    const headers = within(grid)
      .getAllByRole('columnheader')
      .map((header) => header.textContent?.trim());
    expect(headers).toEqual(['', 'Date-obs (UT)', 'File name', 'Listed size', 'Wave region', 'Observing plan']);
    within(row(grid, 0)).getByText('1074');
    within(row(grid, 0)).getByText('synoptic-original-lines.cbk');
  });
});

describe('virtualized table', () => {
  it('renders only a few dozen rows of a 100,000-file listing', async () => {
    const { grid } = await search({ listingSize: 100_000 });
    screen.getByText('100,000 files');
    const rendered = rows(grid).length;
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(60);
    expect(grid.getAttribute('aria-rowcount')).toBe('100001');

    // Scrolling to the end renders the last rows instead.
    grid.scrollTop = 28 * 99_990;
    await fireEvent.scroll(grid);
    await waitFor(() => expect(grid.querySelector('#file-row-99999')).not.toBeNull());
    expect(rows(grid).length).toBeLessThan(60);
    expect(grid.querySelector('#file-row-0')).toBeNull();
  });
});

describe('selection', () => {
  it('toggles a row on click and selects a range on shift-click', async () => {
    const { grid } = await search({ listingSize: 40 });
    await fireEvent.click(row(grid, 2));
    expect(selectedIndices(grid)).toEqual([2]);
    await fireEvent.click(row(grid, 6), { shiftKey: true });
    expect(selectedIndices(grid)).toEqual([2, 3, 4, 5, 6]);
    screen.getByText('5 selected');
    await fireEvent.click(row(grid, 4));
    expect(selectedIndices(grid)).toEqual([2, 3, 5, 6]);
  });

  it('selects a range backwards too', async () => {
    const { grid } = await search({ listingSize: 40 });
    await fireEvent.click(row(grid, 8));
    await fireEvent.click(row(grid, 5), { shiftKey: true });
    expect(selectedIndices(grid)).toEqual([5, 6, 7, 8]);
  });

  it('selects all with the header checkbox and clears again', async () => {
    const { grid } = await search({ listingSize: 40 });
    const all = within(grid).getByRole('checkbox', { name: 'Select all files' }) as HTMLInputElement;
    await fireEvent.click(all);
    screen.getByText('40 selected');
    expect(all.checked).toBe(true);
    await fireEvent.click(all);
    expect(screen.queryByText(/^[\d,]+ selected$/)).toBeNull();
  });

  it('moves with the arrow keys, toggles with Space and selects all with Ctrl+A or Cmd+A', async () => {
    const { grid } = await search({ listingSize: 40 });
    grid.focus();
    await fireEvent.keyDown(grid, { key: ' ' });
    expect(selectedIndices(grid)).toEqual([0]);
    await fireEvent.keyDown(grid, { key: 'ArrowDown' });
    await fireEvent.keyDown(grid, { key: 'ArrowDown' });
    expect(grid.getAttribute('aria-activedescendant')).toBe('file-row-2');
    await fireEvent.keyDown(grid, { key: ' ' });
    expect(selectedIndices(grid)).toEqual([0, 2]);
    await fireEvent.keyDown(grid, { key: ' ' });
    expect(selectedIndices(grid)).toEqual([0]);

    await fireEvent.keyDown(grid, { key: 'a', ctrlKey: true });
    screen.getByText('40 selected');
    await fireEvent.click(within(grid).getByRole('checkbox', { name: 'Select all files' }));
    await fireEvent.keyDown(grid, { key: 'a', metaKey: true });
    screen.getByText('40 selected');
  });

  it('extends the selection with Shift+arrows', async () => {
    const { grid } = await search({ listingSize: 40 });
    await fireEvent.keyDown(grid, { key: ' ' });
    await fireEvent.keyDown(grid, { key: 'ArrowDown', shiftKey: true });
    await fireEvent.keyDown(grid, { key: 'ArrowDown', shiftKey: true });
    expect(selectedIndices(grid)).toEqual([0, 1, 2]);
  });
});

describe('download', () => {
  it('queues the selected files with downloads:enqueue and reports the outcome', async () => {
    const { grid, fake } = await search({ listingSize: 40, session: SIGNED_IN });
    await fireEvent.click(row(grid, 1));
    await fireEvent.click(row(grid, 3), { shiftKey: true });
    await fireEvent.click(screen.getByRole('button', { name: 'Download selected' }));
    await screen.findByText(/3 files queued for \/home\/ada\/mlso\./);
    // Only the search's id and the rows chosen, as ranges, go to the core: no file entries, no URLs.
    const [call] = fake.callsTo('downloads:enqueue');
    expect(call).toEqual({ searchId: 'search-1', selection: { sort: { key: 'listed', direction: 'ascending' }, ranges: [{ first: 1, last: 3 }] } });
    expect(JSON.stringify(call)).not.toContain('http');

    await fireEvent.click(screen.getByRole('button', { name: 'View queue' }));
    await screen.findByRole('table', { name: 'Download queue' });
  });

  it('queues every file with Download all and names the skipped ones', async () => {
    const { fake } = await search({ listingSize: 40, session: SIGNED_IN });
    await fireEvent.click(screen.getByRole('button', { name: 'Download all' }));
    await screen.findByText(/40 files queued/);
    expect(fake.callsTo('downloads:enqueue')[0]).toEqual({ searchId: 'search-1' });

    await fireEvent.click(screen.getByRole('button', { name: 'Download all' }));
    await screen.findByText(/0 files queued for .*40 files skipped: 20250324_180000_kcor_l2_pb\.fts \(already in the queue\)/);
  });

  it('disables Download selected until something is selected', async () => {
    await search({ listingSize: 5, session: SIGNED_IN });
    expect((screen.getByRole('button', { name: 'Download selected' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('asks to sign in first when signed out, focusing the E-mail field', async () => {
    const { fake } = await search({ listingSize: 5 });
    await fireEvent.click(screen.getByRole('button', { name: 'Download all' }));
    await screen.findByText(/Sign in to download/);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'E-mail' }));
    expect(fake.callsTo('downloads:enqueue')).toHaveLength(0);
  });

  it('asks to sign in again when the app refuses for want of a session', async () => {
    const { fake } = await search({ listingSize: 5, session: SIGNED_IN });
    fake.fail('downloads:enqueue', { kind: 'session', message: 'Your session has expired; sign in again.' });
    await fireEvent.click(screen.getByRole('button', { name: 'Download all' }));
    await screen.findByText('Download not started.');
    expect(screen.getAllByText('Your session has expired; sign in again.').length).toBeGreaterThan(0);
  });
});

describe('a change of server', () => {
  it("forgets the other server's listing, chosen instrument and product", async () => {
    const { fake } = await search({ listingSize: 5, session: SIGNED_IN });
    expect(screen.getByRole('grid', { name: 'Files found' })).toBeTruthy();
    const callsBefore = fake.callsTo('catalog:instruments').length;
    await fake.invoke('settings:update', { useDemoServer: true });
    await waitFor(() => expect(screen.queryByRole('grid', { name: 'Files found' })).toBeNull());
    expect((screen.getByRole('combobox', { name: 'Instrument' }) as HTMLSelectElement).value).toBe('');
    expect(screen.queryByRole('button', { name: 'Download all' })).toBeNull();
    await waitFor(() => expect(fake.callsTo('catalog:instruments').length).toBe(callsBefore + 1));
  });
});

/** A grid row as text: each cell's classes (Svelte's scoping class left out), its tooltip and its text. */
function cellsOf(rowElement: HTMLElement): string[] {
  return [...rowElement.children].map((cell) => {
    const classes = [...cell.classList].filter((name) => !name.startsWith('svelte-')).sort();
    return `${classes.join('.')}|${cell.getAttribute('title') ?? ''}|${cell.textContent?.trim() ?? ''}`;
  });
}

describe("the grid's columns", () => {
  it('lays out KCor with date, name and size, an unknown size muted', async () => {
    const { grid } = await search({ listingSize: 4, zeroEvery: 2 });
    expect(grid.style.getPropertyValue('--columns')).toBe('32px 156px minmax(240px, 340px) 88px minmax(0, 1fr)');
    const header = within(grid).getAllByRole('row')[0]!;
    expect(cellsOf(header)).toEqual([
      'cell.check||',
      'cell||Date-obs (UT)',
      'cell||File name',
      'cell.num|The size the listing gives (as the server sends the file)|Listed size',
    ]);
    expect(cellsOf(row(grid, 0))).toEqual([
      'cell.check||',
      'cell||2025-03-24 18:00:00',
      'cell.mono.name|20250324_180000_kcor_l2_pb.fts|20250324_180000_kcor_l2_pb.fts',
      'cell.num||2.5 MB',
    ]);
    expect(cellsOf(row(grid, 1))).toEqual([
      'cell.check||',
      'cell||2025-03-24 18:00:15',
      'cell.mono.name|20250324_180015_kcor_l2_pb.fts|20250324_180015_kcor_l2_pb.fts',
      'cell.muted.num||unknown',
    ]);
  });

  it('lays out UCoMP with its wave region and observing plan', async () => {
    const { grid } = await search({ listingSize: 4 }, 'ucomp');
    expect(grid.style.getPropertyValue('--columns')).toBe('32px 156px minmax(240px, 340px) 88px 104px minmax(160px, 280px) minmax(0, 1fr)');
    expect(cellsOf(row(grid, 0))).toEqual([
      'cell.check||',
      'cell||2025-03-24 18:00:00',
      'cell.mono.name|20250324.180000.ucomp.1074.l1.fts|20250324.180000.ucomp.1074.l1.fts',
      'cell.num||30.0 MB',
      'cell.num||1074',
      'cell.plan|synoptic-original-lines.cbk|synoptic-original-lines.cbk',
    ]);
  });
});
