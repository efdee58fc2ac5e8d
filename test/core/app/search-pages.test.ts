// Browse's search through the app core's channels: a search past the listing size limit works without changing
// Settings (the search keeps the rows; the listing asked for whole, as the client's files() does, stops at it), its
// count grows in throttled search:progress events and ends saying it is complete, pages come in any order, and
// "download all" or chosen rows go from the kept rows to the queue by the search's id.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilesQuery } from '../../../src-shared/contract/contract';
import { downloadedFrames } from '../../../src-shared/downloads/downloaded-frames';
import type { SearchProgress } from '../../../src-shared/search/result-page';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { coreHarness, type CoreHarness } from '../../helpers/app-core-harness';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { completedSearch } from '../../helpers/kept-search';
import { waitFor } from '../../helpers/wait-for';

// About 11,000 KCor pB files over 120 days, some 3.5 MB of listing: past a 1 MB listing size limit.
const emulator = useEmulator({ days: 120, cadenceSeconds: 120, imageSize: 16 });
const months: FilesQuery = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2024-11-25', 'end-date': '2025-03-25' } };
let h: CoreHarness;

beforeAll(async () => {
  h = await coreHarness(emulator(), { settings: { maxListingMegabytes: 1 } });
  await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
});

afterAll(async () => {
  await h?.core.close();
});

const progressEvents = (searchId: string): SearchProgress[] =>
  h.events
    .filter((event) => event.event === 'search:progress' && (event.payload as SearchProgress).searchId === searchId)
    .map((event) => event.payload as SearchProgress);

describe('a search kept by the app core', () => {
  it('lists past the listing size limit without a change of Settings, its count growing to complete', async () => {
    await expect(new MlsoClient({ baseUrl: emulator().url, maxListingBytes: 1024 * 1024 }).files(months)).rejects.toThrow(/larger than the 1 MB limit/);
    const started = await h.core.handlers['search:start'](months);
    expect(started.count).toBeGreaterThan(0);
    await waitFor(() => progressEvents(started.searchId).some((progress) => progress.complete), 'the search to complete');
    const events = progressEvents(started.searchId);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ complete: true, failure: null });
    expect(last.count).toBeGreaterThan(10_000);
    // The count only grows, and the events are paced: far fewer than the batches of rows that came.
    expect(events.map((progress) => progress.count)).toEqual([...events.map((progress) => progress.count)].sort((a, b) => a - b));
    expect(events.length).toBeLessThan(last.count / 1000);
    const page = await h.core.handlers['search:page']({
      searchId: started.searchId,
      offset: last.count - 2,
      limit: 100,
      sort: { key: 'listed', direction: 'ascending' },
    });
    expect(page).toMatchObject({ count: last.count, complete: true, offset: last.count - 2 });
    expect(page.rows.map((row) => row.position)).toEqual([last.count - 2, last.count - 1]);
    const biggest = await h.core.handlers['search:page']({
      searchId: started.searchId,
      offset: 0,
      limit: 3,
      sort: { key: 'filesize', direction: 'descending' },
    });
    expect(biggest.rows[0]!.entry.filesize).toBeGreaterThanOrEqual(biggest.rows[2]!.entry.filesize);
    // A shift-click range over those rows: their listing positions, as runs in listing order.
    const positions = await h.core.handlers['search:positions']({
      searchId: started.searchId,
      sort: { key: 'filesize', direction: 'descending' },
      first: 0,
      last: 2,
    });
    expect(positions.flatMap((run) => Array.from({ length: run.last - run.first + 1 }, (_unused, at) => run.first + at))).toEqual(
      biggest.rows.map((row) => row.position).sort((a, b) => a - b),
    );
    const timeline = await h.core.handlers['search:timeline']({ searchId: started.searchId });
    expect(timeline!.counts.reduce((sum, count) => sum + count, 0)).toBe(last.count);
    expect(last.summary).toMatchObject({ firstDateObs: expect.stringMatching(/^2024-11-25T/), lastDateObs: expect.stringMatching(/^2025-03-24T/) });
  });

  it('stops a search whose first rows have not come yet, when the window asks with no id', async () => {
    emulator().setOptions({ latencyMs: 60_000 });
    try {
      const starting = h.core.handlers['search:start'](months);
      await waitFor(() => emulator().stats().requests > 0, 'the listing asked for');
      expect(await h.core.handlers['search:cancel']({})).toBe(true);
      expect(await starting).toMatchObject({ count: 0, complete: false, failure: { kind: 'cancelled' } });
      expect(await h.core.handlers['search:cancel']({})).toBe(false);
    } finally {
      emulator().setOptions({ latencyMs: 0 });
    }
  });

  it('refuses a search whose filters the product does not take, in the service check’s words', async () => {
    await expect(h.core.handlers['search:start']({ ...months, filters: { ...months.filters, 'wave-region': '1074' } })).rejects.toMatchObject({
      kind: 'invalid-input',
    });
  });

  it('queues every file of the search, or the chosen rows, by its id', async () => {
    const day: FilesQuery = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', every: '1hour' } };
    const listing = await completedSearch(h.core.handlers, day);
    const { searchId } = listing;
    const count = listing.files.length;
    const chosen = await h.core.handlers['downloads:enqueue']({
      searchId,
      selection: {
        sort: { key: 'listed', direction: 'ascending' },
        ranges: [
          { first: 0, last: 0 },
          { first: 2, last: 2 },
        ],
      },
    });
    expect(chosen.queued).toBe(2);
    const all = await h.core.handlers['downloads:enqueue']({ searchId });
    // The two chosen are queued already (or done): the rest are new.
    expect(all.queued + all.skipped.length).toBe(count);
    await waitFor(async () => (await h.core.handlers['downloads:snapshot']()).overall.done === count, 'every file of the search');
    // Play finds the downloaded files as the window would from the listing's rows (downloadedFrames).
    const finished = await h.core.handlers['downloads:finished-of']({ filenames: listing.files.map((file) => file.filename) });
    const frames = await h.core.handlers['search:downloaded']({ searchId });
    expect(frames).toHaveLength(count);
    expect(frames).toEqual(downloadedFrames(listing.files, finished));
  });
});

describe('the kept search’s file', () => {
  it('ends a start it cannot be made at, letting go of the state folder', async () => {
    const stateFolder = await temporaryFolder();
    await mkdir(path.join(stateFolder, 'search-results.sqlite'));
    await expect(coreHarness(emulator(), { stateFolder })).rejects.toThrow();
    // The state folder was let go: a core opens it once the file can be made.
    await rm(path.join(stateFolder, 'search-results.sqlite'), { recursive: true });
    const next = await coreHarness(emulator(), { stateFolder });
    await next.core.close();
  });
});
