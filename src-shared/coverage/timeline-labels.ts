// What the coverage timeline says in words: a bin's span, the size of its bins, the date marks along its axis and
// the Carrington rotations it crosses. Pure functions of the scale, in UT, so they read the same in tests.
import { carringtonRotationAt, carringtonRotationStart } from '../../src-science/astro/carrington';
import { plural } from '../format/counts';
import { formatUtTimestamp } from '../filters/ut-timestamp';
import type { TimeRange } from '../filters/ut-timestamp';
import { DAY_MS, HOUR_MS, MINUTE_MS, type BinSize, type TimelineBins, type TimelineScale } from './timeline-bins';

const ADVERBS: Partial<Record<BinSize['unit'], string>> = { hour: 'hourly', day: 'daily', week: 'weekly', month: 'monthly' };

/** "10-minute", "hourly", "2-day", "weekly", "3-month", "yearly". */
export function binSizeAdjective(size: BinSize): string {
  if (size.unit === 'month' && size.step % 12 === 0) return size.step === 12 ? 'yearly' : `${size.step / 12}-year`;
  if (size.step === 1) return ADVERBS[size.unit] ?? `1-${size.unit}`;
  return `${size.step}-${size.unit}`;
}

/** The accessible summary: "Coverage: 1,204 files in 87 of 120 hourly bins". */
export function coverageSummary(bins: TimelineBins): string {
  return `Coverage: ${plural(bins.total, 'file')} in ${bins.filled} of ${plural(bins.counts.length, `${binSizeAdjective(bins.size)} bin`)}`;
}

const day = (ms: number): string => formatUtTimestamp(ms).slice(0, 10);
const minute = (ms: number): string => formatUtTimestamp(ms).slice(0, 16).replace('T', ' ');
const month = (ms: number): string => formatUtTimestamp(ms).slice(0, 7);

/** A bin's span as people read it: "2025-03-21 18:00 – 19:00 UT", "2025-03-21 UT", "2025-01 – 2025-03 UT". */
export function describeBin(scale: TimelineScale, index: number): string {
  return describeBins(scale, index, index);
}

/** The span from bin `first` to bin `last` (inclusive), written as describeBin writes one. */
export function describeBins(scale: TimelineScale, first: number, last: number): string {
  const start = scale.edges[Math.min(first, last)];
  const end = scale.edges[Math.max(first, last) + 1];
  if (start === undefined || end === undefined) return '';
  const { unit } = scale.size;
  if (unit === 'minute' || unit === 'hour') {
    const to = minute(end);
    // The end's day is left out when it is the start's.
    return `${minute(start)} – ${to.startsWith(day(start)) ? to.slice(11) : to} UT`;
  }
  if (unit === 'month') {
    const lastMonth = month(end - 1);
    return lastMonth === month(start) ? `${lastMonth} UT` : `${month(start)} – ${lastMonth} UT`;
  }
  // Days and weeks end at midnight: the last day they hold is the one before.
  const lastDay = day(end - DAY_MS);
  return lastDay === day(start) ? `${lastDay} UT` : `${day(start)} – ${lastDay} UT`;
}

/** A bin's span and what it holds, for the tooltip and the screen reader. */
export function describeBinCount(scale: TimelineScale, index: number, count: number): string {
  return `${describeBin(scale, index)}: ${count === 0 ? 'no files' : plural(count, 'file')}`;
}

export interface AxisMark {
  ms: number;
  label: string;
}

type Interval = { kind: 'fixed'; ms: number; origin?: number } | { kind: 'months'; step: number };

/** Mark intervals from the finest up; the axis takes the finest that gives no more marks than fit. */
const MARK_INTERVALS: readonly Interval[] = [
  ...[10, 15, 30].map((minutes) => ({ kind: 'fixed' as const, ms: minutes * MINUTE_MS })),
  ...[1, 2, 3, 6, 12].map((hours) => ({ kind: 'fixed' as const, ms: hours * HOUR_MS })),
  { kind: 'fixed', ms: DAY_MS },
  { kind: 'fixed', ms: 2 * DAY_MS },
  // Mondays: 1970-01-05 was one.
  { kind: 'fixed', ms: 7 * DAY_MS, origin: 4 * DAY_MS },
  ...[1, 3, 6, 12, 24, 60, 120, 240, 600].map((step) => ({ kind: 'months' as const, step })),
];

/** The first instant of a month counted from January of year 0. */
const monthStart = (index: number): number => Date.UTC(Math.floor(index / 12), index % 12, 1);

function marksOf(interval: Interval, range: TimeRange): number[] {
  const marks: number[] = [];
  if (interval.kind === 'fixed') {
    const origin = interval.origin ?? 0;
    for (let ms = origin + Math.ceil((range.startMs - origin) / interval.ms) * interval.ms; ms <= range.endMs; ms += interval.ms) marks.push(ms);
    return marks;
  }
  // The first month that begins inside the range, then up to a whole step (quarters, half-years, years).
  const start = new Date(range.startMs);
  let index = start.getUTCFullYear() * 12 + start.getUTCMonth();
  if (monthStart(index) < range.startMs) index += 1;
  for (index = Math.ceil(index / interval.step) * interval.step; monthStart(index) <= range.endMs; index += interval.step) marks.push(monthStart(index));
  return marks;
}

/** How a mark reads: the clock within a day, the day at midnight, the month on its first, the year in January. */
function markLabel(ms: number, interval: Interval): string {
  const text = formatUtTimestamp(ms);
  if (interval.kind === 'months') return interval.step % 12 === 0 || text.slice(5, 7) === '01' ? text.slice(0, 4) : text.slice(0, 7);
  if (interval.ms < DAY_MS && ms % DAY_MS !== 0) return text.slice(11, 16);
  return text.slice(5, 10);
}

/** Date marks for the axis: at most `most` of them, at round instants no finer than the bins. */
export function axisMarks(scale: TimelineScale, most: number): AxisMark[] {
  const range = { startMs: scale.edges[0] ?? 0, endMs: scale.edges.at(-1) ?? 0 };
  const binMs = (scale.edges[1] ?? range.endMs) - range.startMs;
  for (const interval of MARK_INTERVALS) {
    if (interval.kind === 'fixed' && interval.ms < binMs) continue;
    if (interval.kind === 'months' && interval.step < (scale.size.unit === 'month' ? scale.size.step : 0)) continue;
    const marks = marksOf(interval, range);
    if (marks.length <= most) return marks.map((ms) => ({ ms, label: markLabel(ms, interval) }));
  }
  return [];
}

export interface RotationMark {
  rotation: number;
  /** Where the rotation begins, or the range's start for the rotation already under way there. */
  ms: number;
  /** False for the rotation in progress at the range's start. */
  starts: boolean;
}

/** The Carrington rotations a range crosses: the one under way at its start, then each that begins inside it. */
export function rotationMarks(range: TimeRange): RotationMark[] {
  const first = carringtonRotationAt(range.startMs);
  const marks: RotationMark[] = [{ rotation: first, ms: range.startMs, starts: carringtonRotationStart(first) === range.startMs }];
  for (let rotation = first + 1; ; rotation++) {
    const ms = carringtonRotationStart(rotation);
    if (ms >= range.endMs) break;
    marks.push({ rotation, ms, starts: true });
  }
  return marks;
}
