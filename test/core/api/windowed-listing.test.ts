// A listing over months asked for in windows (listing-windows.ts): the same entries, in the same order, with the
// same rest of the answer as one listing of the span, while each answer stays under a listing limit that one
// answer of the whole span would break.
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { MlsoClient, type FilesRequest } from '../../../src-main/core/api/mlso-client';
import { AnswerTooLargeError } from '../../../src-main/core/errors';
import { useEmulator } from '../../helpers/fixtures';

// Some 120 days ending 2025-03-24, a file every 2 minutes: about 11,000 KCor pB entries, some 3.5 MB of listing.
const emulator = useEmulator({ days: 120, cadenceSeconds: 120 });

async function listed(request: FilesRequest, settings: Partial<ConstructorParameters<typeof MlsoClient>[0]> = {}) {
  const requested: string[] = [];
  const client = new MlsoClient({ baseUrl: emulator().url, ...settings }, { log: (url) => requested.push(url) });
  const entries: FileEntry[] = [];
  const { listing, count } = await client.streamFiles(request, (batch) => {
    for (const entry of batch) entries.push(entry);
  });
  return { entries, listing, count, requested };
}

const span: FilesRequest = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2024-11-25', 'end-date': '2025-03-25' } };
const LOW_LIMIT = 1024 * 1024;

describe('a listing over months', () => {
  it('fails as one answer under a 1 MB limit (the reason for windows)', async () => {
    const client = new MlsoClient({ baseUrl: emulator().url, maxListingBytes: LOW_LIMIT });
    await expect(client.files(span)).rejects.toBeInstanceOf(AnswerTooLargeError);
  });

  it('is listed in windows under that limit, equal to one listing with no limit', async () => {
    const one = await new MlsoClient({ baseUrl: emulator().url }).files(span);
    expect(one.files.length).toBeGreaterThan(5000);
    const windowed = await listed(span, { maxListingBytes: LOW_LIMIT });
    // Months, and months split further: every answer held at most a share of the limit.
    expect(windowed.requested.length).toBeGreaterThan(5);
    expect(windowed.count).toBe(one.files.length);
    expect(windowed.entries).toEqual(one.files);
    const { files: _files, ...rest } = one;
    expect(windowed.listing).toEqual({ ...rest, files: [] });
  });

  it('lists an open-ended query as it is, and by month to now once its answer grows large, equal to one listing', async () => {
    const open: FilesRequest = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2024-11-25T18:30:00' } };
    const one = await listed(open);
    expect(one.requested.filter((url) => url.includes('/files/'))).toHaveLength(1);
    const windowed = await listed(open, { maxListingBytes: LOW_LIMIT });
    const listings = windowed.requested.filter((url) => url.includes('/files/')).map((url) => new URL(url).searchParams);
    expect(listings[0]!.get('end-date')).toBeNull();
    // The last window reaches now and is open-ended like the query.
    expect(listings.at(-1)!.get('end-date')).toBeNull();
    expect(listings.at(-1)!.get('start-date')! > new Date(Date.now() - 32 * 86_400_000).toISOString().slice(0, 10)).toBe(true);
    expect(windowed.entries).toEqual(one.entries);
    expect(windowed.listing).toEqual(one.listing);
  });

  it("lists a query with no dates at all the same way, echoing the instrument's first date", async () => {
    const all: FilesRequest = { instrument: 'kcor', product: 'pb' };
    const one = await listed(all);
    const windowed = await listed(all, { maxListingBytes: LOW_LIMIT });
    expect(windowed.requested.filter((url) => url.includes('/files/')).length).toBeGreaterThan(5);
    expect(windowed.entries).toEqual(one.entries);
    expect(windowed.listing).toEqual(one.listing);
  });

  it('goes on from the last entry handed over when several files share its date-obs, skipping those already handed over', async () => {
    // UCoMP's `all` lists several files taken at the same second; a 100 KB limit stops each answer after some 100 entries.
    const shared: FilesRequest = { instrument: 'ucomp', product: 'all', filters: { 'start-date': '2025-03-20' } };
    const one = await listed(shared);
    const times = one.entries.map((entry) => entry['date-obs']);
    expect(new Set(times).size).toBeLessThan(times.length);
    const windowed = await listed(shared, { maxListingBytes: 100 * 1024 });
    expect(windowed.requested.filter((url) => url.includes('/files/')).length).toBeGreaterThan(5);
    expect(windowed.entries).toEqual(one.entries);
    expect(windowed.listing).toEqual(one.listing);
  });

  it('sends the inner edges as end-date=E and start-date=E minus a second', async () => {
    const request: FilesRequest = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2024-12-10', 'end-date': '2025-02-15' } };
    const whole = await new MlsoClient({ baseUrl: emulator().url }).files(request);
    const windowed = await listed(request);
    const listings = windowed.requested.filter((url) => url.includes('/files/')).map((url) => new URL(url).searchParams);
    expect(listings.map((query) => [query.get('start-date'), query.get('end-date')])).toEqual([
      ['2024-12-10', '2025-01-01T00:00:00'],
      ['2024-12-31T23:59:59', '2025-02-01T00:00:00'],
      ['2025-01-31T23:59:59', '2025-02-15'],
    ]);
    expect(windowed.entries).toEqual(whole.files);
  });

  it('asks once for a cadence query, a rotation or a span within a month', async () => {
    for (const filters of [
      { 'start-date': '2024-11-25', 'end-date': '2025-03-25', every: '1day' },
      { cr: '2293' },
      { 'start-date': '2025-03-01', 'end-date': '2025-03-25' },
    ]) {
      const run = await listed({ instrument: 'kcor', product: 'pb', filters });
      expect(run.requested.filter((url) => url.includes('/files/'))).toHaveLength(1);
    }
  });
});
