// The coverage timeline's bins: a bin size chosen from the searched span (minutes to months, about 60 to 200
// bins), bins on natural UT boundaries (whole hours, days, Mondays, calendar months), and the files counted per
// bin in one pass over their date-obs text. A listing can hold 100,000 files, so no Date is made per file.

import type { TimeRange } from '../filters/ut-timestamp';

type BinUnit = 'minute' | 'hour' | 'day' | 'week' | 'month';

export interface BinSize {
  readonly unit: BinUnit;
  readonly step: number;
}

export interface TimelineScale {
  readonly size: BinSize;
  /** The bins' boundaries in epoch ms (UT), ascending: bin i is [edges[i], edges[i + 1]). */
  readonly edges: readonly number[];
}

export interface TimelineBins extends TimelineScale {
  /** Files per bin. */
  readonly counts: Uint32Array;
  /** Files counted (those whose date-obs could not be read, or fell outside the bins, are not). */
  readonly total: number;
  /** Bins holding at least one file. */
  readonly filled: number;
  /** The largest count of a bin (0 when every bin is empty). */
  readonly max: number;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;
/** A calendar month's average length, only for choosing a size; month bins follow the calendar. */
const MONTH_MS = 30.436875 * DAY_MS;
const UNIT_MS: Record<BinUnit, number> = { minute: MINUTE_MS, hour: HOUR_MS, day: DAY_MS, week: WEEK_MS, month: MONTH_MS };
/** Weeks start on Monday (ISO 8601); 1970-01-05, the fifth day of the epoch, was one. */
const FIRST_MONDAY_MS = 4 * DAY_MS;

const MAX_BINS = 200;

/**
 * The sizes offered, finest first. Each divides the next larger unit evenly (minutes the hour, hours the day,
 * months the year) so bins line up with clock and calendar, and neighbours differ at most 2.5 times, so the
 * chosen size gives 80 to 200 bins for any span longer than a few hours.
 */
export const BIN_SIZES: readonly BinSize[] = [
  ...[1, 2, 5, 10, 15, 30].map((step) => ({ unit: 'minute' as const, step })),
  ...[1, 2, 3, 6, 12].map((step) => ({ unit: 'hour' as const, step })),
  ...[1, 2, 3].map((step) => ({ unit: 'day' as const, step })),
  ...[1, 2].map((step) => ({ unit: 'week' as const, step })),
  ...[1, 2, 3, 6, 12].map((step) => ({ unit: 'month' as const, step })),
];

export function binSizeMs(size: BinSize): number {
  return size.step * UNIT_MS[size.unit];
}

/** The finest size that cuts `spanMs` into at most about 200 bins; spans of centuries get whole-year multiples. */
export function chooseBinSize(spanMs: number): BinSize {
  for (const size of BIN_SIZES) if (spanMs <= MAX_BINS * binSizeMs(size)) return size;
  const years = Math.ceil(spanMs / (MAX_BINS * 12 * MONTH_MS));
  return { unit: 'month', step: 12 * years };
}

/** Bins of `size` covering `range`: the first starts at or before its start, the last ends at or after its end. */
export function binEdges(range: TimeRange, size: BinSize): number[] {
  const endMs = Math.max(range.endMs, range.startMs + 1);
  if (size.unit === 'month') {
    const first = Math.floor(monthIndexOf(range.startMs) / size.step) * size.step;
    // The month holding the range's last instant (its end is exclusive), then up to a whole step.
    const last = (Math.floor(monthIndexOf(endMs - 1) / size.step) + 1) * size.step;
    const edges: number[] = [];
    for (let month = first; month <= last; month += size.step) edges.push(Date.UTC(Math.floor(month / 12), month % 12, 1));
    return edges;
  }
  const stepMs = binSizeMs(size);
  const first = firstEdge(range.startMs, size.unit, stepMs);
  const last = first + Math.ceil((endMs - first) / stepMs) * stepMs;
  const edges: number[] = [];
  for (let edge = first; edge <= last; edge += stepMs) edges.push(edge);
  return edges;
}

/**
 * Where the first bin starts. Minute and hour steps divide the day, so bins on multiples of the step from the
 * epoch fall on the clock's round times; several days or weeks have no such boundary, so they start at the range's
 * own midnight or Monday.
 */
function firstEdge(startMs: number, unit: Exclude<BinUnit, 'month'>, stepMs: number): number {
  if (unit === 'minute' || unit === 'hour') return Math.floor(startMs / stepMs) * stepMs;
  if (unit === 'day') return Math.floor(startMs / DAY_MS) * DAY_MS;
  return FIRST_MONDAY_MS + Math.floor((startMs - FIRST_MONDAY_MS) / WEEK_MS) * WEEK_MS;
}

/** Months since year 0 (January of year 0 is 0), in UT. */
function monthIndexOf(epochMs: number): number {
  const date = new Date(epochMs);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** The scale a range gets: the size chosen from its span and the bins' edges. */
export function timelineScale(range: TimeRange): TimelineScale {
  const size = chooseBinSize(range.endMs - range.startMs);
  return { size, edges: binEdges(range, size) };
}

const ZERO = 48;
const DASH = 45;

/** The number written by `length` digits at `at`, or -1 when any of them is not a digit. */
function digitsAt(text: string, at: number, length: number): number {
  let value = 0;
  for (let i = 0; i < length; i++) {
    const digit = text.charCodeAt(at + i) - ZERO;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil), without a Date. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * A date-obs (`YYYY-MM-DDTHH:MM:SS`, UT; a bare `YYYY-MM-DD` is its midnight) as epoch ms, or NaN when it is not
 * one. Anything after the seconds (fractions, a Z) is ignored: bins are far wider than a second.
 */
export function dateObsMs(text: string): number {
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH) return NaN;
  let seconds = 0;
  if (text.length > 10) {
    const hours = digitsAt(text, 11, 2);
    const minutes = digitsAt(text, 14, 2);
    const secs = text.length >= 19 ? digitsAt(text, 17, 2) : 0;
    if (hours < 0 || minutes < 0 || secs < 0) return NaN;
    seconds = hours * 3600 + minutes * 60 + secs;
  }
  return (daysFromCivil(year, month, day) * 86_400 + seconds) * 1000;
}

/**
 * The bin holding `ms`, or -1 outside the edges. `guess` (the last answer) is tried first: listings come in
 * date order, so it nearly always holds and the binary search is rarely needed.
 */
export function binIndexOf(edges: readonly number[], ms: number, guess = 0): number {
  const bins = edges.length - 1;
  if (guess >= 0 && guess < bins && ms >= edges[guess]! && ms < edges[guess + 1]!) return guess;
  if (!(ms >= edges[0]! && ms < edges[bins]!)) return -1;
  let low = 0;
  let high = bins - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (edges[middle]! <= ms) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * Finds the bin of each date-obs in turn. Listings come in date order, so a file nearly always falls in the bin of
 * the one before, which is tried first. (Comparing the text with the edges written as text, without reading the
 * number, measured slower than reading it: V8 compares strings slower than this parser reads 19 digits.)
 */
export function binFinder(edges: readonly number[]): (dateObs: string) => number {
  let last = 0;
  return (text) => {
    const found = binIndexOf(edges, dateObsMs(text), last);
    if (found >= 0) last = found;
    return found;
  };
}

/** Counts the date-obs values per bin of `scale`; those that are unreadable or outside the bins are left out. */
export function countPerBin(scale: TimelineScale, dateObs: readonly string[]): Uint32Array {
  const counts = new Uint32Array(Math.max(0, scale.edges.length - 1));
  const binOf = binFinder(scale.edges);
  for (const text of dateObs) {
    const found = binOf(text);
    if (found >= 0) counts[found] = (counts[found] ?? 0) + 1;
  }
  return counts;
}

/** The timeline of a listing: its files per bin over `range` (see searchedRange for the range a search covers). */
export function coverageBins(dateObs: readonly string[], range: TimeRange): TimelineBins {
  const scale = timelineScale(range);
  return binsOf(scale, countPerBin(scale, dateObs));
}

/** The timeline of counts per bin of `scale` (counted in one pass, or chunk by chunk and added up). */
export function binsOf(scale: TimelineScale, counts: Uint32Array): TimelineBins {
  let total = 0;
  let filled = 0;
  let max = 0;
  for (const count of counts) {
    total += count;
    if (count > 0) filled += 1;
    if (count > max) max = count;
  }
  return { ...scale, counts, total, filled, max };
}
