// Browse's search kept by the core, against the emulator over real HTTP: the listing streams into a result table
// and pages are read from it while it still arrives, in every order Browse offers, counted; a listing past the
// listing size limit is kept whole; a new search stops and drops the last; "download all" follows the listing.
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileEntry } from '../../../src-shared/api/schemas';
import type { FilesQuery } from '../../../src-shared/contract/contract';
import { RESULT_SORT_KEYS, type ResultPage, type ResultRow, type ResultSort } from '../../../src-shared/search/result-page';
import { searchedRange } from '../../../src-shared/coverage/searched-range';
import { coverageBins } from '../../../src-shared/coverage/timeline-bins';
import { listingTotal } from '../../../src-shared/format/human-size';
import { columnsShown } from '../../../src-shared/listing/listing-columns';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { AnswerTooLargeError } from '../../../src-main/core/errors';
import { ResultDatabase, ResultTable } from '../../../src-main/core/search/result-table';
import { SearchKeeper, type ListingSource } from '../../../src-main/core/search/search-keeper';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { waitFor } from '../../helpers/wait-for';

// Some 120 days ending 2025-03-24, a file every 2 minutes: about 11,000 KCor pB entries, some 3.5 MB of listing.
const emulator = useEmulator({ days: 120, cadenceSeconds: 120 });

const oneDay: FilesQuery = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-20', 'end-date': '2025-03-21' } };
const months: FilesQuery = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2024-11-25', 'end-date': '2025-03-25' } };
const ucompDays: FilesQuery = { instrument: 'ucomp', product: 'all', filters: { 'start-date': '2025-03-20' } };
const LOW_LIMIT = 1024 * 1024;

let keepers: SearchKeeper[] = [];
afterEach(() => {
  for (const keeper of keepers) keeper.close();
  keepers = [];
});

async function keeper(settings: ConstructorParameters<typeof MlsoClient>[0] = {}): Promise<SearchKeeper> {
  const client = new MlsoClient({ baseUrl: emulator().url, ...settings });
  const made = new SearchKeeper(ResultDatabase.open(path.join(await temporaryFolder(), 'search-results.sqlite')), client);
  keepers.push(made);
  return made;
}

/** The whole listing as one answer, with no limit: what every page is checked against. */
async function wholeListing(query: FilesQuery): Promise<FileEntry[]> {
  return (await new MlsoClient({ baseUrl: emulator().url, maxListingBytes: 1024 ** 3 }).files(query)).files;
}

/** Every row, read page after page in `sort`'s order. */
async function everyRow(search: SearchKeeper, searchId: string, sort: ResultSort, pageSize: number): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = await search.page({ searchId, offset, limit: pageSize, sort });
    for (const row of page.rows) rows.push(row);
    if (offset + pageSize >= page.count) return rows;
  }
}

const VALUE_OF: Record<ResultSort['key'], (entry: FileEntry, position: number) => string | number | null> = {
  listed: (_entry, position) => position,
  'date-obs': (entry) => entry['date-obs'],
  filename: (entry) => entry.filename,
  filesize: (entry) => (entry.filesize > 0 ? entry.filesize : null),
  'wave-region': (entry) => (entry['wave-region'] === undefined || entry['wave-region'] === '' ? null : String(entry['wave-region'])),
  'obs-plan': (entry) => (entry['obs-plan'] === undefined || entry['obs-plan'] === '' ? null : String(entry['obs-plan'])),
};

/** The order a sort promises, worked out in JavaScript: missing values first, ties in listing order; descending is its reverse. */
function expectedOrder(entries: readonly FileEntry[], sort: ResultSort): number[] {
  const value = VALUE_OF[sort.key];
  const positions = entries.map((_entry, position) => position);
  positions.sort((a, b) => {
    const [x, y] = [value(entries[a]!, a), value(entries[b]!, b)];
    if (x !== y) {
      if (x === null) return -1;
      if (y === null) return 1;
      return x < y ? -1 : 1;
    }
    return a - b;
  });
  return sort.direction === 'ascending' ? positions : positions.reverse();
}

describe('a search kept by the core', () => {
  it('shows its first rows while the listing is still arriving', async () => {
    const whole = await wholeListing(oneDay);
    // After its real entries the listing falls silent and never ends.
    emulator().setOptions({ endlessListing: 'silent' });
    const search = await keeper({ timeoutMs: 60_000 });
    const { searchId } = search.start(oneDay);
    await waitFor(() => search.progress(searchId).count > 0, 'the first rows');
    const page = await search.page({ searchId, offset: 0, limit: 50, sort: { key: 'listed', direction: 'ascending' } });
    expect(page.complete).toBe(false);
    expect(page.rows.map((row) => row.entry)).toEqual(whole.slice(0, page.rows.length));
    expect(page.rows.length).toBe(Math.min(50, page.count));
    expect(search.cancel(searchId)).toBe(true);
    const ended = await search.whenSettled(searchId);
    expect(ended).toMatchObject({ complete: false, failure: { kind: 'cancelled' } });
    // What was listed stays readable.
    expect((await search.page({ searchId, offset: 0, limit: 5, sort: { key: 'listed', direction: 'ascending' } })).rows).toHaveLength(5);
    await waitFor(() => emulator().stats().activeListings === 0, 'the listing’s connection to close');
  });

  it('counts every file of the listing and says when it is complete', async () => {
    const whole = await wholeListing(oneDay);
    const search = await keeper();
    const { searchId } = search.start(oneDay);
    expect(await search.whenSettled(searchId)).toMatchObject({ searchId, count: whole.length, complete: true, failure: null });
    const rows = await everyRow(search, searchId, { key: 'listed', direction: 'ascending' }, 97);
    expect(rows.map((row) => row.position)).toEqual(whole.map((_entry, position) => position));
    expect(rows.map((row) => row.entry)).toEqual(whole);
  });

  it.each(RESULT_SORT_KEYS.flatMap((key) => (['ascending', 'descending'] as const).map((direction) => ({ key, direction }))))(
    'reads pages in the order of $key, $direction, from either end',
    async (sort) => {
      const whole = await wholeListing(ucompDays);
      // Several files share a date-obs and a wave region, and some sizes are unknown: the ties are part of the order.
      expect(new Set(whole.map((entry) => entry['date-obs'])).size).toBeLessThan(whole.length);
      const search = await keeper();
      const { searchId } = search.start(ucompDays);
      await search.whenSettled(searchId);
      const positions = (await everyRow(search, searchId, sort, 13)).map((row) => row.position);
      expect(positions).toEqual(expectedOrder(whole, sort));
    },
  );

  it('keeps a listing larger than the listing size limit, which one answer of it would break', async () => {
    await expect(new MlsoClient({ baseUrl: emulator().url, maxListingBytes: LOW_LIMIT }).files(months)).rejects.toBeInstanceOf(AnswerTooLargeError);
    const whole = await wholeListing(months);
    const search = await keeper({ maxListingBytes: LOW_LIMIT });
    const { searchId } = search.start(months);
    expect(await search.whenSettled(searchId)).toMatchObject({ searchId, count: whole.length, complete: true, failure: null });
    const last = await search.page({ searchId, offset: whole.length - 3, limit: 10, sort: { key: 'listed', direction: 'ascending' } });
    expect(last.rows.map((row) => row.entry)).toEqual(whole.slice(-3));
  });

  it('stops and drops the last search when a new one starts', async () => {
    emulator().setOptions({ endlessListing: 'silent' });
    const search = await keeper({ timeoutMs: 60_000 });
    const first = search.start(oneDay).searchId;
    await waitFor(() => search.progress(first).count > 0, 'the first search’s rows');
    emulator().setOptions({ endlessListing: 'off' });
    const second = search.start({ ...oneDay, filters: { ...oneDay.filters, every: '1hour' } }).searchId;
    await expect(search.page({ searchId: first, offset: 0, limit: 5, sort: { key: 'listed', direction: 'ascending' } })).rejects.toThrow(
      'Those search results were replaced by a newer search: search again.',
    );
    const settled = await search.whenSettled(second);
    expect(settled.complete).toBe(true);
    expect(settled.count).toBe((await wholeListing({ ...oneDay, filters: { ...oneDay.filters, every: '1hour' } })).length);
    await waitFor(() => emulator().stats().activeListings === 0, 'the first listing’s connection to close');
  });

  it('hands every file to the queue in listing order, following a listing still arriving, or the chosen ones', async () => {
    const whole = await wholeListing(months);
    const search = await keeper({ maxListingBytes: LOW_LIMIT });
    const { searchId } = search.start(months);
    const handed: FileEntry[] = [];
    let batches = 0;
    const add = async (entries: FileEntry[]): Promise<void> => {
      batches += 1;
      for (const entry of entries) handed.push(entry);
    };
    // Asked for at once: the rows are read as the listing brings them.
    expect(await search.enqueue(searchId, null, add)).toBe(whole.length);
    expect(handed).toEqual(whole);
    expect(batches).toBeGreaterThan(1);
    handed.length = 0;
    const listed = { key: 'listed', direction: 'ascending' } as const;
    const chosen = {
      sort: listed,
      ranges: [
        { first: 5, last: 5 },
        { first: 2, last: 2 },
        { first: 5, last: 5 },
        { first: whole.length - 1, last: whole.length - 1 },
      ],
    };
    expect(await search.enqueue(searchId, chosen, add)).toBe(3);
    expect(handed).toEqual([whole[2], whole[5], whole.at(-1)]);
    await expect(search.enqueue(searchId, { sort: listed, ranges: [{ first: 3, last: whole.length }] }, add)).rejects.toThrow(
      `Rows 3 to ${whole.length} are not in those search results`,
    );
  });

  it.each([
    { key: 'filesize', direction: 'descending' },
    { key: 'filename', direction: 'ascending' },
    { key: 'listed', direction: 'descending' },
  ] as const)('hands the rows chosen as ranges of the list ordered by $key, $direction to the queue, each once, in listing order', async (sort) => {
    const whole = await wholeListing(ucompDays);
    const search = await keeper();
    const { searchId } = search.start(ucompDays);
    await search.whenSettled(searchId);
    const handed: FileEntry[] = [];
    const add = async (entries: FileEntry[]): Promise<void> => {
      for (const entry of entries) handed.push(entry);
    };
    // A shift-click range at the top, an overlapping one, and the last rows (as Ctrl+A less the first rows would be).
    const ranges = [
      { first: 0, last: 9 },
      { first: 5, last: 14 },
      { first: whole.length - 20, last: whole.length - 1 },
    ];
    const order = expectedOrder(whole, sort);
    const expected = [...new Set(ranges.flatMap(({ first, last }) => order.slice(first, last + 1)))].sort((a, b) => a - b);
    expect(await search.enqueue(searchId, { sort, ranges }, add)).toBe(expected.length);
    expect(handed).toEqual(expected.map((position) => whole[position]));
  });

  it.each([
    { key: 'filesize', direction: 'descending' },
    { key: 'wave-region', direction: 'ascending' },
    { key: 'listed', direction: 'descending' },
  ] as const)('answers the listing positions of rows ordered by $key, $direction as runs in listing order', async (sort) => {
    const whole = await wholeListing(ucompDays);
    const search = await keeper();
    const { searchId } = search.start(ucompDays);
    await search.whenSettled(searchId);
    const order = expectedOrder(whole, sort);
    for (const [first, last] of [
      [0, 0],
      [3, 40],
      [0, whole.length - 1],
    ] as const) {
      const runs = await search.positions({ searchId, sort, first, last });
      // Runs in listing order, apart (two that touch would be one), covering exactly the rows asked for.
      for (let at = 1; at < runs.length; at++) expect(runs[at]!.first).toBeGreaterThan(runs[at - 1]!.last + 1);
      const covered = runs.flatMap((run) => Array.from({ length: run.last - run.first + 1 }, (_unused, index) => run.first + index));
      expect(covered).toEqual(order.slice(first, last + 1).sort((a, b) => a - b));
    }
    // Every row is one run, whatever the order.
    expect(await search.positions({ searchId, sort, first: 0, last: whole.length - 1 })).toEqual([{ first: 0, last: whole.length - 1 }]);
    await expect(search.positions({ searchId, sort, first: 0, last: whole.length })).rejects.toThrow(
      `Rows 0 to ${whole.length} are not in those search results`,
    );
  });

  it.each([
    { name: 'KCor over months', query: months, optional: [] },
    { name: 'UCoMP, with its optional columns', query: ucompDays, optional: ['wave-region', 'obs-plan'] },
  ])('sums up $name as the window did from the whole listing, and bins its timeline the same way', async ({ query, optional }) => {
    const whole = await wholeListing(query);
    const search = await keeper();
    const { searchId } = search.start(query);
    const { summary } = await search.whenSettled(searchId);
    const dates = whole.map((entry) => entry['date-obs']);
    const total = listingTotal(whole.map((entry) => entry.filesize));
    expect(summary).toEqual({
      bytes: total.bytes,
      unknownSizes: total.lowerBound,
      firstDateObs: [...dates].sort()[0],
      lastDateObs: [...dates].sort().at(-1),
      optionalFields: columnsShown(whole)
        .filter((column) => column.optional)
        .map((column) => column.field),
    });
    expect(summary.optionalFields).toEqual(optional);
    expect(summary.unknownSizes).toBe(true);
    const expected = coverageBins(dates, searchedRange(query.filters, dates)!);
    const timeline = (await search.timeline(searchId))!;
    expect(timeline.edges).toEqual(expected.edges);
    expect(timeline.counts).toEqual(Array.from(expected.counts));
    expect(timeline.counts.reduce((sum, count) => sum + count, 0)).toBe(whole.length);
  });

  it.each([
    { name: 'over set dates (one span throughout)', query: months },
    { name: 'with no end date (a span that grows with the rows)', query: ucompDays },
  ])('bins the timeline while the listing arrives $name, counting only the rows new since', async ({ query }) => {
    const whole = await wholeListing(query);
    const fed = steppedListing(whole, 4);
    const search = new SearchKeeper(ResultDatabase.open(':memory:'), fed.source);
    keepers.push(search);
    const { searchId } = search.start(query);
    const counted = vi.spyOn(ResultTable.prototype, 'dateObsFrom');
    let kept = 0;
    for (let step = 0; step < 4; step++) {
      await fed.release();
      await waitFor(() => search.progress(searchId).count > kept, 'the next rows');
      const before = kept;
      kept = search.progress(searchId).count;
      counted.mockClear();
      const dates = whole.slice(0, kept).map((entry) => entry['date-obs']);
      const expected = coverageBins(dates, searchedRange(query.filters, [[...dates].sort()[0]!, [...dates].sort().at(-1)!])!);
      const timeline = (await search.timeline(searchId))!;
      expect(timeline.edges).toEqual(expected.edges);
      expect(timeline.counts).toEqual(Array.from(expected.counts));
      // Over set dates the span never changes: once binned, the rows that arrive are binned as they come, and a later
      // request reads no row back. Where the span grows, the rows are read again from the first.
      if (step > 0) expect(counted.mock.calls.map((call) => call[0])[0]).toBe(query === months ? undefined : 0);
      expect(before).toBeLessThan(kept);
    }
    counted.mockRestore();
    expect((await search.whenSettled(searchId)).count).toBe(whole.length);
  });
});

describe('an order’s index made on a thread of its own', () => {
  const bySize = { key: 'filesize', direction: 'descending' } as const;
  const byName = { key: 'filename', direction: 'ascending' } as const;
  const listed = { key: 'listed', direction: 'ascending' } as const;
  const positionsOf = (rows: readonly ResultRow[]): number[] => rows.map((row) => row.position);

  /** A keeper over a results file of its own, and that file. */
  async function keeperInFile(source: ListingSource): Promise<{ search: SearchKeeper; file: string }> {
    const file = path.join(await temporaryFolder(), 'search-results.sqlite');
    const search = new SearchKeeper(ResultDatabase.open(file), source);
    keepers.push(search);
    return { search, file };
  }

  /**
   * The file's write lock, taken by another connection: an index asked for meanwhile is not made until it is let go
   * (the thread waits for it), and a write the core made meanwhile would fail at once.
   */
  function holdWrites(file: string): () => void {
    const holder = new Database(file);
    holder.exec('BEGIN IMMEDIATE');
    return () => {
      holder.exec('COMMIT');
      holder.close();
    };
  }

  /** Whether a promise has settled, as a flag read at any time. */
  function settledFlag(promise: Promise<unknown>): { settled: boolean } {
    const flag = { settled: false };
    void promise.then(
      () => (flag.settled = true),
      () => (flag.settled = true),
    );
    return flag;
  }

  it('answers pages in the listing’s order while it is made, then the new order’s first page', async () => {
    const whole = await wholeListing(months);
    const { search, file } = await keeperInFile(new MlsoClient({ baseUrl: emulator().url }));
    const { searchId } = search.start(months);
    await search.whenSettled(searchId);
    const release = holdWrites(file);
    const sorted = search.page({ searchId, offset: 0, limit: 50, sort: bySize });
    const sortedFlag = settledFlag(sorted);
    for (const offset of [0, 5000, whole.length - 50]) {
      const page = await search.page({ searchId, offset, limit: 50, sort: listed });
      expect(positionsOf(page.rows)).toEqual(Array.from({ length: 50 }, (_unused, index) => offset + index));
    }
    expect(sortedFlag.settled).toBe(false);
    release();
    expect(positionsOf((await sorted).rows)).toEqual(expectedOrder(whole, bySize).slice(0, 50));
    expect(positionsOf(await everyRow(search, searchId, bySize, 499))).toEqual(expectedOrder(whole, bySize));
    const runs = await search.positions({ searchId, sort: byName, first: 0, last: 9 });
    expect(runs.flatMap((run) => Array.from({ length: run.last - run.first + 1 }, (_unused, at) => run.first + at))).toEqual(
      expectedOrder(whole, byName)
        .slice(0, 10)
        .sort((a, b) => a - b),
    );
  });

  it('keeps the rows that arrive while it is made once it is, counting and showing none of a batch until all are in', async () => {
    const whole = await wholeListing(months);
    const fed = steppedListing(whole, 3);
    const byNameDescending = { key: 'filename', direction: 'descending' } as const;
    let file = '';
    let handedOver = 0;
    let release = (): void => {};
    let sorting: Promise<ResultPage> | undefined;
    const counted: ListingSource = {
      streamFiles: (request, onEntries, options) =>
        fed.source.streamFiles(
          request,
          (entries) => {
            handedOver += 1;
            const kept = onEntries(entries);
            // The batch's first rows are in (a transaction's worth) when the index is asked for: the rest wait for it.
            if (handedOver === 2) {
              release = holdWrites(file);
              sorting = search.page({ searchId, offset: 0, limit: 20, sort: bySize });
            }
            return kept;
          },
          options,
        ),
    };
    const made = await keeperInFile(counted);
    const search = made.search;
    file = made.file;
    const { searchId } = search.start(months);
    await fed.release();
    await waitFor(() => search.progress(searchId).count > 0, 'the first rows');
    const firstPart = search.progress(searchId).count;
    await search.page({ searchId, offset: 0, limit: 1, sort: byName });
    await fed.release();
    await waitFor(() => handedOver === 2, 'the second part handed over');
    expect(search.progress(searchId).count).toBe(firstPart);
    const meanwhile = await search.page({ searchId, offset: 0, limit: 100, sort: byNameDescending });
    expect(meanwhile.count).toBe(firstPart);
    expect(positionsOf(meanwhile.rows)).toEqual(expectedOrder(whole.slice(0, firstPart), byNameDescending).slice(0, 100));
    expect(settledFlag(sorting!).settled).toBe(false);
    release();
    await fed.release();
    const first = await sorting!;
    expect(positionsOf(first.rows)).toEqual(expectedOrder(whole.slice(0, first.count), bySize).slice(0, 20));
    expect(await search.whenSettled(searchId)).toMatchObject({ count: whole.length, complete: true, failure: null });
    for (const sort of [bySize, byNameDescending, listed]) expect(positionsOf(await everyRow(search, searchId, sort, 499))).toEqual(expectedOrder(whole, sort));
  });

  it.each([
    { when: 'before the thread starts on it', turns: 0 },
    { when: 'while the thread makes it', turns: 1 },
  ])('lets a new search replace the last $when, leaving only the new one’s rows', async ({ turns }) => {
    const { search, file } = await keeperInFile(new MlsoClient({ baseUrl: emulator().url }));
    const first = search.start(months).searchId;
    await search.whenSettled(first);
    const release = holdWrites(file);
    const sorting = search.page({ searchId: first, offset: 0, limit: 10, sort: bySize });
    for (let turn = 0; turn < turns; turn++) await setImmediate();
    const second = search.start(oneDay).searchId;
    release();
    await expect(sorting).rejects.toThrow('Those search results were replaced by a newer search: search again.');
    const whole = await wholeListing(oneDay);
    expect(await search.whenSettled(second)).toMatchObject({ count: whole.length, complete: true, failure: null });
    const page = await search.page({ searchId: second, offset: 0, limit: whole.length, sort: bySize });
    expect(positionsOf(page.rows)).toEqual(expectedOrder(whole, bySize));
    const reader = new Database(file, { readonly: true });
    try {
      expect(reader.prepare('SELECT name FROM sqlite_master ORDER BY name').pluck().all()).toEqual(['results_2', 'results_2_filesize']);
    } finally {
      reader.close();
    }
  });

  it('answers the rows listed before a search was stopped while it is made', async () => {
    const whole = await wholeListing(oneDay);
    emulator().setOptions({ endlessListing: 'silent' });
    const { search, file } = await keeperInFile(new MlsoClient({ baseUrl: emulator().url, timeoutMs: 60_000 }));
    const { searchId } = search.start(oneDay);
    await waitFor(() => search.progress(searchId).count > 0, 'the first rows');
    const release = holdWrites(file);
    const sorting = search.page({ searchId, offset: 0, limit: 100, sort: bySize });
    expect(search.cancel(searchId)).toBe(true);
    expect(await search.whenSettled(searchId)).toMatchObject({ complete: false, failure: { kind: 'cancelled' } });
    release();
    const page = await sorting;
    expect(positionsOf(page.rows)).toEqual(expectedOrder(whole.slice(0, page.count), bySize).slice(0, 100));
    await waitFor(() => emulator().stats().activeListings === 0, 'the listing’s connection to close');
  });

  it('answers a page request with why the thread could not make it, and makes it when asked again', async () => {
    const whole = await wholeListing(oneDay);
    const { search, file } = await keeperInFile(new MlsoClient({ baseUrl: emulator().url }));
    const { searchId } = search.start(oneDay);
    await search.whenSettled(searchId);
    // A table by the index's name stands in its way.
    const other = new Database(file);
    try {
      other.exec('CREATE TABLE results_1_filesize (x)');
      await expect(search.page({ searchId, offset: 0, limit: 10, sort: bySize })).rejects.toThrow(
        /^The search results could not be sorted by filesize \(.*already.*results_1_filesize.*\): sort again, or search again\.$/,
      );
      other.exec('DROP TABLE results_1_filesize');
    } finally {
      other.close();
    }
    // Another order meanwhile (the thread then sees the file as it is now), then the one that failed again.
    const byNamePage = await search.page({ searchId, offset: 0, limit: 10, sort: byName });
    expect(positionsOf(byNamePage.rows)).toEqual(expectedOrder(whole, byName).slice(0, 10));
    const page = await search.page({ searchId, offset: 0, limit: 10, sort: bySize });
    expect(positionsOf(page.rows)).toEqual(expectedOrder(whole, bySize).slice(0, 10));
  });
});

/** A listing handed over in `steps` parts, each when the test releases it. */
function steppedListing(entries: readonly FileEntry[], steps: number): { source: ListingSource; release: () => Promise<void> } {
  const size = Math.ceil(entries.length / steps);
  const gates: (() => void)[] = [];
  const opened: Promise<void>[] = [];
  for (let step = 0; step < steps; step++) opened.push(new Promise((resolve) => gates.push(resolve)));
  let released = 0;
  return {
    source: {
      async streamFiles(_request, onEntries) {
        for (let step = 0; step < steps; step++) {
          await opened[step];
          await onEntries(entries.slice(step * size, (step + 1) * size));
        }
      },
    },
    release: async () => {
      gates[released++]!();
      await Promise.resolve();
    },
  };
}
