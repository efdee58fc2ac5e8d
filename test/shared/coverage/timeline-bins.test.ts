// The coverage timeline's binning at each scale the brief names (two hours, a day, a week, a year, ten years):
// the size chosen from the span, bins on UT clock and calendar boundaries, every file counted once, gaps and the
// empty bins at both ends kept, one file on its own, and no Date made per file.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BIN_SIZES,
  binEdges,
  binIndexOf,
  binSizeMs,
  chooseBinSize,
  countPerBin,
  coverageBins,
  dateObsMs,
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  timelineScale,
} from '../../../src-shared/coverage/timeline-bins';
import type { TimeRange } from '../../../src-shared/filters/ut-timestamp';

const ms = (text: string): number => Date.parse(`${text}${text.length === 10 ? 'T00:00:00' : ''}Z`);
const stamp = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 19);
const range = (start: string, end: string): TimeRange => ({ startMs: ms(start), endMs: ms(end) });

/** Date-obs every `cadenceSeconds` from `from` (inclusive) to `to` (exclusive). */
function observations(from: string, to: string, cadenceSeconds: number): string[] {
  const out: string[] = [];
  for (let t = ms(from); t < ms(to); t += cadenceSeconds * 1000) out.push(stamp(t));
  return out;
}

/** Observing days like KCor's: 17:50 to 21:05 UT each day of [firstDay, lastDay], nothing at night. */
function observingDays(firstDay: string, days: number, cadenceSeconds: number): string[] {
  const out: string[] = [];
  for (let d = 0; d < days; d++) {
    const day = stamp(ms(firstDay) + d * DAY_MS).slice(0, 10);
    for (const dateObs of observations(`${day}T17:50:00`, `${day}T21:05:00`, cadenceSeconds)) out.push(dateObs);
  }
  return out;
}

const filledIndices = (counts: Uint32Array): number[] => [...counts.keys()].filter((i) => counts[i]! > 0);

describe('binning at each scale', () => {
  it('two hours: 1-minute bins, with the empty minutes before and after the files kept', () => {
    const files = observations('2025-03-24T19:30:00', '2025-03-24T20:30:00', 15);
    const bins = coverageBins(files, range('2025-03-24T19:00:00', '2025-03-24T21:00:00'));
    expect(bins.size).toEqual({ unit: 'minute', step: 1 });
    expect(bins.counts.length).toBe(120);
    expect(bins.edges[0]).toBe(ms('2025-03-24T19:00:00'));
    expect(bins.edges.at(-1)).toBe(ms('2025-03-24T21:00:00'));
    expect(filledIndices(bins.counts)).toEqual(Array.from({ length: 60 }, (_, i) => 30 + i));
    expect([...bins.counts.slice(30, 90)].every((count) => count === 4)).toBe(true);
    expect(bins.counts[0]).toBe(0);
    expect(bins.counts[119]).toBe(0);
    expect({ total: bins.total, filled: bins.filled, max: bins.max }).toEqual({ total: 240, filled: 60, max: 4 });
  });

  it('a day: 10-minute bins from midnight to midnight, the night empty', () => {
    const files = observingDays('2025-03-24', 1, 15);
    const bins = coverageBins(files, range('2025-03-24', '2025-03-25'));
    expect(bins.size).toEqual({ unit: 'minute', step: 10 });
    expect(bins.counts.length).toBe(144);
    // 17:50 is bin 107, 21:00 (the last files, to 21:04:45) is bin 126.
    expect(filledIndices(bins.counts)).toEqual(Array.from({ length: 20 }, (_, i) => 107 + i));
    expect(bins.total).toBe(files.length);
    expect(bins.counts[107]).toBe(40);
  });

  it('a week: hourly bins, three filled each day and the nights between them empty', () => {
    const files = observingDays('2025-03-17', 7, 15);
    const bins = coverageBins(files, range('2025-03-17', '2025-03-24'));
    expect(bins.size).toEqual({ unit: 'hour', step: 1 });
    expect(bins.counts.length).toBe(168);
    const expected = Array.from({ length: 7 }, (_, d) => [17, 18, 19, 20, 21].map((hour) => d * 24 + hour)).flat();
    expect(filledIndices(bins.counts)).toEqual(expected);
    expect(bins.counts[17]).toBe(40); // 17:50-18:00
    expect(bins.counts[21]).toBe(20); // 21:00-21:05
    expect(bins.total).toBe(files.length);
  });

  it('a year: 2-day bins from the range’s first midnight, with a month-long gap inside', () => {
    const files = [...observingDays('2024-01-01', 150, 300), ...observingDays('2024-07-01', 184, 300)];
    const bins = coverageBins(files, range('2024-01-01', '2025-01-01'));
    expect(bins.size).toEqual({ unit: 'day', step: 2 });
    expect(bins.counts.length).toBe(183);
    expect(bins.edges[0]).toBe(ms('2024-01-01'));
    expect(bins.edges.at(-1)).toBe(ms('2025-01-01'));
    // 2024-05-30 to 2024-07-01 (32 days, 16 bins) has no file.
    const gapFirst = (ms('2024-05-30') - ms('2024-01-01')) / (2 * DAY_MS);
    expect(filledIndices(bins.counts)).toEqual([
      ...Array.from({ length: gapFirst }, (_, i) => i),
      ...Array.from({ length: 183 - gapFirst - 16 }, (_, i) => gapFirst + 16 + i),
    ]);
    expect(bins.total).toBe(files.length);
  });

  it('ten years: calendar-month bins, each edge a month’s first instant, a missing year empty', () => {
    const files = [...observations('2015-01-01', '2019-01-01', 86_400), ...observations('2020-01-01', '2025-01-01', 86_400)];
    const bins = coverageBins(files, range('2015-01-01', '2025-01-01'));
    expect(bins.size).toEqual({ unit: 'month', step: 1 });
    expect(bins.counts.length).toBe(120);
    for (let i = 0; i <= 120; i++) expect(bins.edges[i]).toBe(Date.UTC(2015, i, 1));
    // A file a day: each bin holds its month's days (February 2016 has 29).
    expect(bins.counts[0]).toBe(31);
    expect(bins.counts[13]).toBe(29);
    expect(filledIndices(bins.counts)).toEqual([...Array.from({ length: 48 }, (_, i) => i), ...Array.from({ length: 60 }, (_, i) => 60 + i)]);
    expect(bins.total).toBe(files.length);
  });

  it('a single file in a searched day: one filled bin among empty ones', () => {
    const bins = coverageBins(['2025-03-24T21:03:04'], range('2025-03-24', '2025-03-25'));
    expect(bins.counts.length).toBe(144);
    expect(filledIndices(bins.counts)).toEqual([126]);
    expect({ total: bins.total, filled: bins.filled, max: bins.max }).toEqual({ total: 1, filled: 1, max: 1 });
  });

  it('a single file with no range around it: one one-minute bin holding it', () => {
    const at = ms('2025-03-24T21:03:04');
    const bins = coverageBins(['2025-03-24T21:03:04'], { startMs: at, endMs: at + 1000 });
    expect(bins.size).toEqual({ unit: 'minute', step: 1 });
    expect(bins.edges).toEqual([ms('2025-03-24T21:03:00'), ms('2025-03-24T21:04:00')]);
    expect([...bins.counts]).toEqual([1]);
  });

  it('nothing listed: every bin empty', () => {
    const bins = coverageBins([], range('2025-03-17', '2025-03-24'));
    expect(bins.counts.length).toBe(168);
    expect({ total: bins.total, filled: bins.filled, max: bins.max }).toEqual({ total: 0, filled: 0, max: 0 });
  });

  it('counts files in any order, and leaves out date-obs it cannot read', () => {
    const files = ['2025-03-24T20:00:00', '2025-03-24T18:00:00', 'not a date', '2025-03-24T20:00:30', '', '2025-13-01T00:00:00', '2025-03-24T18:00:59'];
    const bins = coverageBins(files, range('2025-03-24T17:00:00', '2025-03-24T21:00:00'));
    expect(bins.size).toEqual({ unit: 'minute', step: 2 });
    expect(bins.total).toBe(4);
    expect(bins.counts[30]).toBe(2); // 18:00-18:02
    expect(bins.counts[90]).toBe(2); // 20:00-20:02
  });
});

describe('the bin size', () => {
  it('gives 80 to about 200 bins for every span from three hours to two centuries', () => {
    for (let span = 3 * HOUR_MS; span < 200 * 365 * DAY_MS; span *= 1.07) {
      const bins = timelineScale({ startMs: ms('1980-01-01') + 12_345, endMs: ms('1980-01-01') + 12_345 + span }).edges.length - 1;
      expect(bins, `span ${span / DAY_MS} days`).toBeGreaterThanOrEqual(80);
      expect(bins, `span ${span / DAY_MS} days`).toBeLessThanOrEqual(202);
    }
  });

  it('is one minute for spans under an hour, and whole years beyond the ladder', () => {
    expect(chooseBinSize(0)).toEqual({ unit: 'minute', step: 1 });
    expect(chooseBinSize(40 * MINUTE_MS)).toEqual({ unit: 'minute', step: 1 });
    expect(chooseBinSize(900 * 365.25 * DAY_MS)).toEqual({ unit: 'month', step: 60 });
  });

  it('offers sizes that divide the next unit, finest first', () => {
    for (let i = 1; i < BIN_SIZES.length; i++) expect(binSizeMs(BIN_SIZES[i]!)).toBeGreaterThan(binSizeMs(BIN_SIZES[i - 1]!));
    for (const size of BIN_SIZES) {
      if (size.unit === 'minute') expect(60 % size.step).toBe(0);
      if (size.unit === 'hour') expect(24 % size.step).toBe(0);
      if (size.unit === 'month') expect(12 % size.step).toBe(0);
    }
  });

  it('puts weeks on Mondays and quarters on January, April, July and October', () => {
    expect(binEdges(range('2025-03-19', '2025-03-27'), { unit: 'week', step: 1 }).map(stamp)).toEqual([
      '2025-03-17T00:00:00',
      '2025-03-24T00:00:00',
      '2025-03-31T00:00:00',
    ]);
    expect(binEdges(range('2025-02-10', '2025-07-01'), { unit: 'month', step: 3 }).map(stamp)).toEqual([
      '2025-01-01T00:00:00',
      '2025-04-01T00:00:00',
      '2025-07-01T00:00:00',
    ]);
  });
});

describe('reading date-obs and finding bins', () => {
  const instants = fc.integer({ min: Date.UTC(1900, 0, 1) / 1000, max: Date.UTC(2200, 0, 1) / 1000 }).map((seconds) => seconds * 1000);

  it('reads a date-obs as Date.parse reads it in UT, bare days as their midnight', () => {
    fc.assert(fc.property(instants, (at) => dateObsMs(stamp(at)) === at));
    expect(dateObsMs('2025-03-24')).toBe(ms('2025-03-24'));
    expect(dateObsMs('2025-03-24T21:03:04.250Z')).toBe(ms('2025-03-24T21:03:04'));
    for (const bad of ['', '2025', '25-03-24', '2025/03/24', '2025-03-24T2x:00:00', '2025-00-10']) expect(dateObsMs(bad)).toBeNaN();
  });

  it('counts every file inside the range exactly once, in the bin whose edges hold it', () => {
    fc.assert(
      fc.property(
        instants,
        fc.integer({ min: 1, max: 4000 * DAY_MS }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { maxLength: 200 }),
        (start, span, offsets) => {
          const files = offsets.map((offset) => Math.floor((start + offset * span) / 1000) * 1000).filter((at) => at >= start);
          const bins = coverageBins(files.map(stamp), { startMs: start, endMs: start + span });
          expect(bins.total).toBe(files.length);
          const edges = bins.edges;
          expect(edges[0]).toBeLessThanOrEqual(start);
          expect(edges.at(-1)).toBeGreaterThanOrEqual(start + span);
          for (const at of files) {
            const index = binIndexOf(edges, at);
            expect(edges[index]! <= at && at < edges[index + 1]!).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives -1 outside the edges, whatever the guess', () => {
    const edges = [0, 10, 20, 30];
    expect(binIndexOf(edges, -1, 0)).toBe(-1);
    expect(binIndexOf(edges, 30, 2)).toBe(-1);
    expect(binIndexOf(edges, NaN, 1)).toBe(-1);
    expect(binIndexOf(edges, 25, 0)).toBe(2);
    expect(binIndexOf(edges, 5, 2)).toBe(0);
  });
});

describe('work per file', () => {
  const RealDate = Date;
  afterEach(() => {
    globalThis.Date = RealDate;
  });

  it('makes no Date per file: 100,000 files are read from their text', () => {
    const files = observingDays('2024-11-12', 133, 15).slice(0, 100_000);
    expect(files.length).toBe(100_000);
    let made = 0;
    globalThis.Date = class extends RealDate {
      constructor(...args: ConstructorParameters<DateConstructor>) {
        super(...args);
        made += 1;
      }
    } as DateConstructor;
    const scale = timelineScale(range('2024-11-12', '2025-03-25'));
    const counts = countPerBin(scale, files);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(100_000);
    // A few per bin edge at most (129 daily bins here), none per file.
    expect(made).toBeLessThan(2 * scale.edges.length);
  });
});
