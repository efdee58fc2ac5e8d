// The span a search covered, for the coverage timeline: the date filters and the Carrington rotation where they
// were set, the listing's own first and last files where not. Always wide enough to hold every listed file, so a
// server that answers a little outside the asked range still has all its files on the timeline.
import { carringtonRotationSpan } from '../../src-science/astro/carrington';
import type { FileFilters } from '../filters/filter-rules';
import { formatUtTimestamp, parseUtTimestamp, type TimeRange } from '../filters/ut-timestamp';
import { DAY_MS, dateObsMs } from './timeline-bins';

const SECOND_MS = 1000;

function filterInstant(value: FileFilters['start-date']): number | null {
  if (value === undefined || value === null) return null;
  const parsed = parseUtTimestamp(String(value));
  return parsed.ok ? parsed.value.epochMs : null;
}

/** The first and last date-obs of a listing in epoch ms (null when none can be read); one pass, in any order. */
export function listingSpan(dateObs: readonly string[]): { firstMs: number; lastMs: number } | null {
  // The service's timestamps all have one form, so text order is time order: compare, and read only the two ends.
  let first: string | null = null;
  let last: string | null = null;
  for (const text of dateObs) {
    if (!looksLikeTimestamp(text)) continue;
    if (first === null || text < first) first = text;
    if (last === null || text > last) last = text;
  }
  if (first === null || last === null) return null;
  const firstMs = dateObsMs(first);
  const lastMs = dateObsMs(last);
  if (!Number.isNaN(firstMs) && !Number.isNaN(lastMs)) return { firstMs, lastMs };
  // An unreadable text that merely looked right sorted to an end: read them all instead.
  return readableSpan(dateObs);
}

/** A cheap first check (a digit, then a dash after the year): what fails it cannot be a date-obs. */
function looksLikeTimestamp(text: string): boolean {
  const head = text.charCodeAt(0);
  return head >= 48 && head <= 57 && text.charCodeAt(4) === 45;
}

function readableSpan(dateObs: readonly string[]): { firstMs: number; lastMs: number } | null {
  let firstMs = Infinity;
  let lastMs = -Infinity;
  for (const text of dateObs) {
    const at = dateObsMs(text);
    if (Number.isNaN(at)) continue;
    firstMs = Math.min(firstMs, at);
    lastMs = Math.max(lastMs, at);
  }
  return firstMs <= lastMs ? { firstMs, lastMs } : null;
}

/**
 * The range a search with these (checked) filters covered, given what it listed: null when neither says anything
 * (no dates, no rotation, no files). The end is exclusive, as the service's end-date is.
 */
export function searchedRange(filters: FileFilters, dateObs: readonly string[]): TimeRange | null {
  let startMs = filterInstant(filters['start-date']);
  let endMs = filterInstant(filters['end-date']);
  const rotation = filters.cr === undefined || filters.cr === null || filters.cr === '' ? NaN : Number(filters.cr);
  if (Number.isSafeInteger(rotation) && rotation > 0) {
    const span = carringtonRotationSpan(rotation);
    startMs = startMs === null ? span.start : Math.max(startMs, span.start);
    endMs = endMs === null ? span.end : Math.min(endMs, span.end);
  }
  const listed = listingSpan(dateObs);
  if (listed) {
    // The last file's own second belongs to the range.
    startMs = startMs === null ? listed.firstMs : Math.min(startMs, listed.firstMs);
    endMs = endMs === null ? listed.lastMs + SECOND_MS : Math.max(endMs, listed.lastMs + SECOND_MS);
  }
  if (startMs === null && endMs === null) return null;
  // Only one bound and nothing listed: show the day beside it.
  startMs ??= endMs! - DAY_MS;
  endMs ??= startMs + DAY_MS;
  return endMs > startMs ? { startMs, endMs } : { startMs: endMs, endMs: startMs };
}

/**
 * A span as the Start and End date filters: a bare day where the edge is a UT midnight (bins of a day or more),
 * the full timestamp otherwise. The end stays exclusive, as the service reads it.
 */
export function rangeAsDateFilters(range: TimeRange): { 'start-date': string; 'end-date': string } {
  const asFilter = (ms: number): string => {
    const text = formatUtTimestamp(ms);
    return ms % DAY_MS === 0 ? text.slice(0, 10) : text;
  };
  return { 'start-date': asFilter(range.startMs), 'end-date': asFilter(range.endMs) };
}
