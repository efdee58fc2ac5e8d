// The Downloads table over a queue of 1,000,000 rows, a few of them of two lines (a failure reason, a retried file):
// a page arriving lays the rows out again at a cost that follows the rows loaded, never the list. The rows are made
// up page by page (the fake's own list would sort a million jobs per page), as the core's SQL pages them.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/svelte';
import type { JobView } from '../../src-shared/downloads/progress-types';
import { SparseRows } from '../../src-renderer/lib/sparse-rows.svelte';
import { DownloadsStore } from '../../src-renderer/state/downloads.svelte';
import { FakeContract, makeJob, overallOf } from './fake-contract';
import { renderApp } from './render-app';

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

describe('a million-row queue with rows of two lines', () => {
  it('lays out a page arriving by the rows loaded, not by the million', async () => {
    const fake = new FakeContract();
    const overall = { ...overallOf([]), total: ROWS, queued: ROWS };
    fake.handle('downloads:page', ({ offset, limit, counted }) => ({
      offset,
      jobs: Array.from({ length: Math.max(0, Math.min(limit, ROWS - offset)) }, (_, at) => jobAt(offset + at)),
      counts: counted ? overall : null,
      overall: counted ? overall : null,
    }));
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
    const top = 500_037 * 32 + 28;
    Object.defineProperty(table, 'scrollTop', { configurable: true, value: top });
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
    expect(rows.totalSize).toBe(28 + 1_000_000 * 32 + 16 + 28 + 16 + 16);
    for (const index of [0, 2, 3, 4, 5, 6, 499_999, 500_000, 500_001, 999_998, 999_999]) {
      const height = tall.get(index) ?? 32;
      expect(rows.indexAt(rows.startOf(index))).toBe(index);
      expect(rows.indexAt(rows.startOf(index) + height - 1)).toBe(index);
      expect(rows.startOf(index + 1) - rows.startOf(index)).toBe(height);
    }
    expect(rows.indexAt(rows.totalSize + 1000)).toBe(999_999);
    expect(rows.indexAt(0)).toBe(0);
  });
});
