// The span a search covered (what the timeline spreads over), and a dragged span written back as date filters.
import { describe, expect, it } from 'vitest';
import { carringtonRotationSpan } from '../../../src-science/astro/carrington';
import { listingSpan, rangeAsDateFilters, searchedRange } from '../../../src-shared/coverage/searched-range';

const ms = (text: string): number => Date.parse(`${text}${text.length === 10 ? 'T00:00:00' : ''}Z`);
const FILES = ['2025-03-22T18:00:00', '2025-03-23T19:30:15', '2025-03-24T21:04:45'];

describe('searchedRange', () => {
  it('is the date filters when both are set (the end exclusive, as the service reads it)', () => {
    expect(searchedRange({ 'start-date': '2025-03-20', 'end-date': '2025-03-25' }, FILES)).toEqual({ startMs: ms('2025-03-20'), endMs: ms('2025-03-25') });
    expect(searchedRange({ 'start-date': '2025-03-20T06:00:00', 'end-date': '2025-03-25T12:00:00' }, [])).toEqual({
      startMs: ms('2025-03-20T06:00:00'),
      endMs: ms('2025-03-25T12:00:00'),
    });
  });

  it('follows the listing where a bound is missing: to just after the last file, or from the first', () => {
    expect(searchedRange({ 'start-date': '2025-03-20' }, FILES)).toEqual({ startMs: ms('2025-03-20'), endMs: ms('2025-03-24T21:04:46') });
    expect(searchedRange({ 'end-date': '2025-03-25' }, FILES)).toEqual({ startMs: ms('2025-03-22T18:00:00'), endMs: ms('2025-03-25') });
    expect(searchedRange({}, FILES)).toEqual({ startMs: ms('2025-03-22T18:00:00'), endMs: ms('2025-03-24T21:04:46') });
  });

  it('is the rotation’s span for a Carrington rotation, narrowed by dates set with it', () => {
    const span = carringtonRotationSpan(2295);
    expect(searchedRange({ cr: '2295' }, [])).toEqual({ startMs: span.start, endMs: span.end });
    expect(searchedRange({ cr: '2295', 'start-date': '2025-03-10' }, [])).toEqual({ startMs: ms('2025-03-10'), endMs: span.end });
  });

  it('widens to hold every listed file, even one the server sent from outside the range', () => {
    expect(searchedRange({ 'start-date': '2025-03-23', 'end-date': '2025-03-24' }, FILES)).toEqual({
      startMs: ms('2025-03-22T18:00:00'),
      endMs: ms('2025-03-24T21:04:46'),
    });
  });

  it('is nothing without dates, rotation or files; a lone bound with no files gets a day beside it', () => {
    expect(searchedRange({}, [])).toBeNull();
    expect(searchedRange({ every: '1hour' }, ['not a date'])).toBeNull();
    expect(searchedRange({ 'start-date': '2025-03-20' }, [])).toEqual({ startMs: ms('2025-03-20'), endMs: ms('2025-03-21') });
    expect(searchedRange({ 'end-date': '2025-03-20' }, [])).toEqual({ startMs: ms('2025-03-19'), endMs: ms('2025-03-20') });
  });
});

describe('listingSpan', () => {
  it('finds the first and last file in any order, skipping unreadable date-obs', () => {
    expect(listingSpan(['2025-03-24T10:00:00', 'junk', '2025-03-20T10:00:00', '2025-03-22T10:00:00'])).toEqual({
      firstMs: ms('2025-03-20T10:00:00'),
      lastMs: ms('2025-03-24T10:00:00'),
    });
    expect(listingSpan([])).toBeNull();
  });
});

describe('rangeAsDateFilters', () => {
  it('writes midnights as bare days and other instants as full timestamps, the end still exclusive', () => {
    expect(rangeAsDateFilters({ startMs: ms('2025-03-21'), endMs: ms('2025-03-23') })).toEqual({ 'start-date': '2025-03-21', 'end-date': '2025-03-23' });
    expect(rangeAsDateFilters({ startMs: ms('2025-03-21T18:00:00'), endMs: ms('2025-03-22') })).toEqual({
      'start-date': '2025-03-21T18:00:00',
      'end-date': '2025-03-22',
    });
  });
});

describe('listingSpan with text that only looks like a date-obs', () => {
  it('reads every file when such a text sorts to an end', () => {
    expect(listingSpan(['2025-03-22T10:00:00', '9999-99-99T99:99:99', '2025-03-20T10:00:00', '0000-x'])).toEqual({
      firstMs: ms('2025-03-20T10:00:00'),
      lastMs: ms('2025-03-22T10:00:00'),
    });
  });
});
