// The line under each filter field: what the typed value means, or an example while it is empty.
// Pure functions of the value, the current instant and the chosen instrument's coverage, so they read the same in
// the renderer and in tests.
import { carringtonRotationAt, carringtonRotationSpan } from '../../src-science/astro/carrington';
import type { TimeRange } from './ut-timestamp';
import { plural } from '../format/counts';
import { nearestUtMinute } from '../format/ut-minute';
import { EVERY_EXAMPLE_TEXT, parseEvery } from './every';
import { checkFilterValue, type FilterName } from './filter-rules';

/** `coverage`: the span the chosen instrument's data cover (its first to last observation), when known. */
export type FilterHint = (value: string, nowMs: number, coverage: TimeRange | null) => string;

const DATE_HINT = 'YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UT';

/** One hint per filter of the table; a filter added there without one here does not compile. */
export const FILTER_HINTS: Readonly<Record<FilterName, FilterHint>> = {
  'start-date': () => DATE_HINT,
  'end-date': () => DATE_HINT,
  cr: (value, nowMs, coverage) => {
    const covered = coverage && rotationsCovered(coverage);
    const checked = value.trim() === '' ? null : checkFilterValue('cr', value);
    // The rotations the data cover are the useful example: the one now may be long after the data end.
    if (!checked?.ok) return covered ? `${covered} (the data's span)` : `e.g. ${carringtonRotationAt(nowMs)} (the rotation now)`;
    const span = carringtonRotationSpan(Number(checked.value));
    // A rotation so far ahead that its dates leave the calendar (past the year 275,760): no date to show.
    if (!isCalendarInstant(span.start) || !isCalendarInstant(span.end)) return `Rotation ${checked.value} is far beyond any data`;
    const dates = `${nearestUtMinute(span.start)} – ${nearestUtMinute(span.end)} UT`;
    const outside = coverage !== null && (span.end <= coverage.startMs || span.start > coverage.endMs);
    return outside ? `${dates}, outside the data (${covered})` : dates;
  },
  every: (value) => {
    const every = parseEvery(value);
    // Not "at most one per interval": periods are cut by the clock, so neighbours across a boundary can be close.
    if (!every) return 'e.g. 2hours, 30minutes, 1day';
    return `The first file of each period of ${plural(every.count, every.unit)} on the UT clock, so two can be minutes apart: ${EVERY_EXAMPLE_TEXT}`;
  },
  'wave-region': () => 'Centre wavelength in nm',
  'obs-plan': () => 'e.g. synoptic or waves',
};

/** Whether a Date can hold the instant (within 100,000,000 days of 1970): beyond, it has no text. */
const isCalendarInstant = (epochMs: number): boolean => Math.abs(epochMs) <= 8.64e15;

/** "2142 to 2295", or one number when the data fit in one rotation. */
function rotationsCovered(coverage: TimeRange): string {
  const first = carringtonRotationAt(coverage.startMs);
  const last = carringtonRotationAt(coverage.endMs);
  return first === last ? String(first) : `${first} to ${last}`;
}

export function filterHint(name: FilterName, value: string, nowMs: number, coverage: TimeRange | null = null): string {
  return FILTER_HINTS[name](value, nowMs, coverage);
}
