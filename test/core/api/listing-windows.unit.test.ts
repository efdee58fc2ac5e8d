// The windows of a long listing, against a server whose date bounds include their instants and one whose bounds
// exclude them (the spec does not say which): a file at a window edge is kept exactly once either way.
import { describe, expect, it } from 'vitest';
import { inWindow, listingWindows, restOf } from '../../../src-main/core/api/listing-windows';
import type { FilterQuery } from '../../../src-shared/filters/filter-rules';

const NOW = Date.UTC(2026, 0, 1);
// Files at each month's first instant, a second either side of it, and at the query's own bounds.
const taken = [
  '2024-11-15T00:00:00',
  '2024-11-30T23:59:59',
  '2024-12-01T00:00:00',
  '2024-12-01T00:00:01',
  '2024-12-31T23:59:59',
  '2025-01-01T00:00:00',
  '2025-01-01T00:00:01',
  '2025-02-01T00:00:00',
  '2025-02-10T00:00:00',
];

function serve(query: FilterQuery, inclusive: boolean): string[] {
  const start = query['start-date'];
  const end = query['end-date'];
  return taken.filter((t) => (start === undefined || (inclusive ? t >= start : t > start)) && (end === undefined || (inclusive ? t <= end : t < end)));
}

describe('listing windows', () => {
  it.each([true, false])('keep every file once, as one listing does (bounds include their instants: %s)', (inclusive) => {
    const query: FilterQuery = { 'start-date': '2024-11-15T00:00:00', 'end-date': '2025-02-10T00:00:00' };
    const windows = listingWindows(query)!;
    expect(windows).toHaveLength(4);
    const kept = windows.flatMap((window) => serve(window.query, inclusive).filter((t) => inWindow(window, t)));
    expect(kept).toEqual(serve(query, inclusive));
  });

  it('ask for an open-ended query as it is, and for its rest by month up to now once its answer grew large', () => {
    const query: FilterQuery = { 'start-date': '2025-10-20', 'wave-region': '789' };
    const [whole] = listingWindows(query)!;
    expect(whole).toEqual({ query });
    expect(restOf(whole!, '2025-10-25T18:00:00', NOW).map((window) => [window.query, window.keepFrom, window.keepBefore])).toEqual([
      [{ 'start-date': '2025-10-25T17:59:59', 'end-date': '2025-11-01T00:00:00', 'wave-region': '789' }, '2025-10-25T18:00:00', '2025-11-01T00:00:00'],
      [{ 'start-date': '2025-10-31T23:59:59', 'end-date': '2025-12-01T00:00:00', 'wave-region': '789' }, '2025-11-01T00:00:00', '2025-12-01T00:00:00'],
      [{ 'start-date': '2025-11-30T23:59:59', 'wave-region': '789' }, '2025-12-01T00:00:00', undefined],
    ]);
  });

  it('are never used for a cadence or a rotation, and a short or unbounded span starts as one window', () => {
    expect(listingWindows({ 'start-date': '2024-01-01', 'end-date': '2025-01-01', every: '1day' })).toBeUndefined();
    expect(listingWindows({ cr: '2290' })).toBeUndefined();
    for (const query of [{ 'end-date': '2025-01-01' }, { 'start-date': '2025-11-02', 'end-date': '2025-12-20' }] as FilterQuery[]) {
      expect(listingWindows(query)).toEqual([{ query }]);
    }
  });

  it('split the rest of a month window in halves from the last entry handed over', () => {
    const [window] = listingWindows({ 'start-date': '2024-11-15T00:00:00', 'end-date': '2025-02-10T00:00:00' })!;
    const halves = restOf(window!, '2024-11-20T00:00:00', NOW);
    expect(halves.map((half) => [half.query['start-date'], half.query['end-date'], half.keepFrom, half.keepBefore])).toEqual([
      ['2024-11-19T23:59:59', '2024-11-25T12:00:00', '2024-11-20T00:00:00', '2024-11-25T12:00:00'],
      ['2024-11-25T11:59:59', '2024-12-01T00:00:00', '2024-11-25T12:00:00', '2024-12-01T00:00:00'],
    ]);
  });
});
