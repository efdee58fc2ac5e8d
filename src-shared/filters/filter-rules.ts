// The one set of rules for the files endpoint's filters, used by the core client, the command line
// and the renderer, so a value is judged the same way wherever it is typed.
// The filters themselves (names, labels, options, fields) are listed once, in filter-table.ts.
import { displayName } from '../format/display-text';
import { DATE_FORMS, parseUtTimestamp } from './ut-timestamp';
import { EVERY_UNITS, parseEvery } from './every';
import { FILTER_DEFINITIONS, FILTER_NAMES, WAVE_REGIONS, type FilterName } from './filter-table';

export { FILTER_NAMES, WAVE_REGIONS, type FilterName };

/** Filter values as typed: any may be absent or empty (both mean "not set"). */
export type FileFilters = Partial<Record<FilterName, string | number | null | undefined>>;
/** Filter values checked and normalised, ready to be sent as the files endpoint's query. */
export type FilterQuery = Partial<Record<FilterName, string>>;

export interface FilterProblem {
  filter: FilterName;
  message: string;
}

export type FilterCheck = { ok: true; query: FilterQuery } | { ok: false; problems: FilterProblem[] };

/** The names people see for each filter (the app's field labels; the CLI shows them too). */
export const FILTER_LABELS = Object.fromEntries(FILTER_DEFINITIONS.map((filter) => [filter.name, filter.label])) as Readonly<Record<FilterName, string>>;

export const EVERY_FORM = `a whole number followed by ${EVERY_UNITS.slice(0, -1).join(', ')} or ${EVERY_UNITS.at(-1)} (plural allowed), e.g. 2hours`;

type SingleCheck = { ok: true; value: string } | { ok: false; message: string };

/** Checks one filter value on its own; the inline check of a form field. */
export function checkFilterValue(filter: FilterName, raw: string | number): SingleCheck {
  const text = String(raw).trim();
  // Messages quote what was typed shortened and with control characters escaped: a pasted megabyte, or an
  // escape sequence, must not become the message.
  const shown = displayName(text);
  const label = FILTER_LABELS[filter];
  switch (filter) {
    case 'start-date':
    case 'end-date': {
      const parsed = parseUtTimestamp(text);
      if (parsed.ok) return { ok: true, value: parsed.value.text };
      return parsed.reason === 'form'
        ? { ok: false, message: `${label} "${shown}" is not a date: use ${DATE_FORMS}, e.g. 2025-03-24.` }
        : { ok: false, message: `${label} "${shown}" is not a real calendar date and time: use ${DATE_FORMS}.` };
    }
    case 'cr': {
      if (/^\d+$/.test(text) && Number(text) >= 1 && Number.isSafeInteger(Number(text))) {
        return { ok: true, value: String(Number(text)) };
      }
      return { ok: false, message: `${label} "${shown}" must be a positive whole number, e.g. 2295.` };
    }
    case 'every': {
      const every = parseEvery(text);
      if (every) return { ok: true, value: every.text };
      return { ok: false, message: `${label} "${shown}" must be ${EVERY_FORM}.` };
    }
    case 'wave-region': {
      if ((WAVE_REGIONS as readonly string[]).includes(text)) return { ok: true, value: text };
      return { ok: false, message: `${label} "${shown}" must be one of ${WAVE_REGIONS.join(', ')}.` };
    }
    case 'obs-plan': {
      if (text.length > 0) return { ok: true, value: text };
      return { ok: false, message: `${label} must not be empty, e.g. waves or synoptic.` };
    }
  }
}

function isSet(value: string | number | null | undefined): value is string | number {
  return value !== undefined && value !== null && String(value).trim() !== '';
}

/**
 * Checks a whole set of filters. `accepted` is the product metadata's `filters` list, when the server
 * gives one: a filter outside it is refused with a message naming those it does accept.
 */
export function checkFilters(filters: FileFilters, accepted?: readonly string[], productLabel = 'This product'): FilterCheck {
  const problems: FilterProblem[] = [];
  const query: FilterQuery = {};
  for (const filter of FILTER_NAMES) {
    const raw = filters[filter];
    if (!isSet(raw)) continue;
    if (accepted && !accepted.includes(filter)) {
      const offered = accepted.length > 0 ? `it accepts ${namesOf(accepted)}` : 'it accepts no filters';
      problems.push({ filter, message: `${displayName(productLabel)} does not accept the ${filter} filter; ${offered}.` });
      continue;
    }
    const checked = checkFilterValue(filter, raw);
    if (checked.ok) query[filter] = checked.value;
    else problems.push({ filter, message: checked.message });
  }
  const order = checkDateOrder(query['start-date'], query['end-date']);
  if (order) problems.push(order);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, query };
}

/** The server's list of filters, as a message names them: a few, each shortened and escaped (the list is the server's). */
function namesOf(accepted: readonly string[]): string {
  const shown = accepted.slice(0, MOST_NAMES_SHOWN).map(displayName).join(', ');
  return accepted.length > MOST_NAMES_SHOWN ? `${shown} and ${accepted.length - MOST_NAMES_SHOWN} more` : shown;
}

const MOST_NAMES_SHOWN = 8;

/** Start must not be after end; both are compared as UT instants. */
export function checkDateOrder(start: string | undefined, end: string | undefined): FilterProblem | null {
  if (!start || !end) return null;
  const from = parseUtTimestamp(start);
  const to = parseUtTimestamp(end);
  if (!from.ok || !to.ok || from.value.epochMs <= to.value.epochMs) return null;
  return { filter: 'start-date', message: `Start date ${from.value.text} is after end date ${to.value.text}: swap them or widen the range.` };
}
