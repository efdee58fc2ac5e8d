// A listing over a long span asked for in time windows (calendar months, split further in halves by time), so no
// single answer has to hold the whole span: a million-entry answer is some 250 MB. A closed span of more than a
// month is asked for by month from the start; any other query is asked for as it is, and once its answer grows
// large the client stops reading it and asks for the rest, from the last entry it handed over, by month up to now
// (an open-ended query) or in halves. Together the windows list exactly what one answer would, in the same order:
// - the first window sends the query's own start-date and the last its own end-date (or none), so the outer bounds
//   mean what they mean in one listing, and the echoed dates are those of one listing;
// - at an inner edge E the window before sends end-date=E and the one after start-date=E minus one second, and
//   each keeps only the entries with E on its side (date-obs >= E after, < E before). The spec does not say whether
//   a bound includes its instant: this way a file taken exactly at E is listed once whichever it is.
// - the entries of one date-obs come in the same order in every answer (the service sorts by date-obs), so a window
//   that goes on from the last entry handed over skips as many entries of that date-obs as were handed over.
// Queries never windowed: `every` (the service picks one file per period and where the periods begin is not
// documented, so a window could change which file is picked) and `cr` (one rotation, some 27 days).
import type { FilterQuery } from '../../../src-shared/filters/filter-rules';
import { formatUtTimestamp, parseUtTimestamp } from '../../../src-shared/filters/ut-timestamp';

export interface ListingWindow {
  /** The query sent for this window: the user's, with its own start-date and end-date. */
  query: FilterQuery;
  /** Entries whose date-obs is before this are left out (an inner edge, YYYY-MM-DDTHH:MM:SS). */
  keepFrom?: string;
  /** Entries whose date-obs is at or after this are left out (an inner edge). */
  keepBefore?: string;
}

const SECOND_MS = 1000;

/**
 * The windows a query is first asked for in, or undefined when it is asked for as it is, in one answer that is never
 * split (`every`, `cr`). A closed span of more than a month is asked for by calendar month; any other query whole, in
 * one window that is split only once its answer grows large (see restOf): a short query is one request, as the
 * official client sends it, and an open-ended one is windowed up to now only if it turns out to be long.
 */
export function listingWindows(query: FilterQuery): ListingWindow[] | undefined {
  if (query.every !== undefined || query.cr !== undefined) return undefined;
  const start = instantOf(query['start-date']);
  const end = instantOf(query['end-date']);
  if (start === undefined || end === undefined) return [{ query }];
  const edges = monthEdges(start, end);
  // A span that ends within the month after the one it starts in is one answer, as short queries always were.
  return edges.length < 2 ? [{ query }] : windowsBetween(query, edges);
}

/**
 * Windows of `query` with inner edges at `edges` (epoch ms, ascending): the first keeps the query's start-date and
 * `outer.keepFrom`, the last its end-date and `outer.keepBefore`.
 */
function windowsBetween(query: FilterQuery, edges: readonly number[], outer: Pick<ListingWindow, 'keepFrom' | 'keepBefore'> = {}): ListingWindow[] {
  const windows: ListingWindow[] = [];
  let from: ListingWindow = { query: withDate(query, 'end-date', undefined), ...(outer.keepFrom ? { keepFrom: outer.keepFrom } : {}) };
  for (const edge of edges) {
    windows.push({ ...from, query: withDate(from.query, 'end-date', formatUtTimestamp(edge)), keepBefore: formatUtTimestamp(edge) });
    from = { query: withDate(query, 'start-date', formatUtTimestamp(edge - SECOND_MS)), keepFrom: formatUtTimestamp(edge) };
  }
  windows.push({ ...from, query: withDate(from.query, 'end-date', query['end-date']), ...(outer.keepBefore ? { keepBefore: outer.keepBefore } : {}) });
  return windows;
}

/** A window of fixed bounds, the same at every listing of the query: what a campaign remembers listings by. */
export interface FixedWindow extends ListingWindow {
  /** Its first instant (YYYY-MM-DDTHH:MM:SS): the query's start, or a month's first instant. */
  start: string;
  /** The instant it ends at: the next month's first instant, or the query's end. */
  end: string;
}

/**
 * The windows a campaign lists a query in, with bounds that depend only on the query (and, for an open end, on the
 * month it is now): calendar months from its start-date (`firstMs` when it has none: the instrument's first day)
 * to its end-date, or, open-ended, to the end of the current month, the last window asking with no end-date at all
 * so that it holds whatever the archive has by now. Each window is still split further when its answer grows large
 * (streamFiles' restOf), invisibly. Undefined for the queries never windowed (`every`, `cr`).
 */
export function fixedWindows(query: FilterQuery, firstMs: number, nowMs: number): FixedWindow[] | undefined {
  if (query.every !== undefined || query.cr !== undefined) return undefined;
  const start = instantOf(query['start-date']) ?? firstMs;
  const end = instantOf(query['end-date']);
  const edges = monthEdges(start, end ?? nowMs);
  const bounds = [start, ...edges, end ?? nextMonthStart(Math.max(start, nowMs))];
  return windowsBetween(query, edges).map((window, index) => ({
    ...window,
    start: formatUtTimestamp(bounds[index]!),
    end: formatUtTimestamp(bounds[index + 1]!),
  }));
}

/** Whether an entry taken at `dateObs` belongs to the window (its inner edges; the outer bounds are the server's). */
export function inWindow(window: ListingWindow, dateObs: string): boolean {
  return (window.keepFrom === undefined || dateObs >= window.keepFrom) && (window.keepBefore === undefined || dateObs < window.keepBefore);
}

/**
 * The window's rest from `dateObs` on: how a window whose answer grew too large goes on from the last entry it handed
 * over (the caller skips the entries at `dateObs` already handed over, the first ones of the rest). By calendar month
 * when the rest spans more than one, up to `nowMs` when the window is open-ended; in two halves by time otherwise.
 */
export function restOf(window: ListingWindow, dateObs: string, nowMs: number): ListingWindow[] {
  const from = instantOf(dateObs) ?? Number.NaN;
  const rest: ListingWindow = { ...window, query: withDate(window.query, 'start-date', formatUtTimestamp(from - SECOND_MS)), keepFrom: dateObs };
  const edges = monthEdges(from, windowEnd(window, nowMs));
  return edges.length >= 2 ? windowsBetween(rest.query, edges, rest) : inHalves(rest, nowMs);
}

/** The window in two halves by time, each with the window's own bounds outside (the window itself when too short). */
function inHalves(window: ListingWindow, nowMs: number): ListingWindow[] {
  const from = instantOf(window.keepFrom ?? window.query['start-date']);
  const endMs = windowEnd(window, nowMs);
  if (from === undefined) return [window];
  const middle = from + Math.floor((endMs - from) / 2 / SECOND_MS) * SECOND_MS;
  if (!(middle > from && middle < endMs)) return [window];
  return windowsBetween(window.query, [middle], window);
}

/** Where a window ends (epoch ms): its inner edge, its end-date, or `nowMs` when it is open. */
function windowEnd(window: ListingWindow, nowMs: number): number {
  return instantOf(window.keepBefore) ?? instantOf(window.query['end-date']) ?? nowMs;
}

function instantOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const parsed = parseUtTimestamp(text.slice(0, 19));
  return parsed.ok ? parsed.value.epochMs : undefined;
}

/** The first instants of the months after `from` and before `to`. */
function monthEdges(from: number, to: number): number[] {
  const edges: number[] = [];
  for (let edge = nextMonthStart(from); edge < to; edge = nextMonthStart(edge)) edges.push(edge);
  return edges;
}

function nextMonthStart(epochMs: number): number {
  const date = new Date(epochMs);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

function withDate(query: FilterQuery, name: 'start-date' | 'end-date', value: string | undefined): FilterQuery {
  const { [name]: _dropped, ...rest } = query;
  return value === undefined ? rest : { ...rest, [name]: value };
}
