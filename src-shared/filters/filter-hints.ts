// The line under each filter field: what the typed value means, or an example while it is empty.
// Pure functions of the value and the current instant, so they read the same in the window and in tests.
import { carringtonRotationAt, carringtonRotationSpan } from '../astro/carrington';
import { plural } from '../format/counts';
import { utMinute } from '../format/ut-minute';
import { parseEvery } from './every';
import { checkFilterValue, type FilterName } from './filter-rules';

export type FilterHint = (value: string, nowMs: number) => string;

const DATE_HINT = 'YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UT';

/** One hint per filter of the table; a filter added there without one here does not compile. */
export const FILTER_HINTS: Readonly<Record<FilterName, FilterHint>> = {
  'start-date': () => DATE_HINT,
  'end-date': () => DATE_HINT,
  cr: (value, nowMs) => {
    const checked = value.trim() === '' ? null : checkFilterValue('cr', value);
    if (!checked?.ok) return `e.g. ${carringtonRotationAt(nowMs)} (the rotation now)`;
    const span = carringtonRotationSpan(Number(checked.value));
    return `${utMinute(span.start)} – ${utMinute(span.end)} UT`;
  },
  every: (value) => {
    const every = parseEvery(value);
    return every ? `At most one file every ${plural(every.count, every.unit)}` : 'e.g. 2hours, 30minutes, 1day';
  },
  'wave-region': () => 'Centre wavelength in nm',
  'obs-plan': () => 'e.g. synoptic or waves',
};

export function filterHint(name: FilterName, value: string, nowMs: number): string {
  return FILTER_HINTS[name](value, nowMs);
}
