// The span an instrument's data cover, from its details (catalog:instruments gives each instrument's first and last
// observation), as the hints and the timeline read it.
import { parseUtTimestamp } from '../filters/ut-timestamp';
import type { TimeRange } from '../filters/ut-timestamp';

/** The instrument's first to last observation (the end is the last file's instant); null when either is unreadable. */
export function instrumentCoverage(instrument: { readonly 'start-date': string; readonly 'end-date': string } | null): TimeRange | null {
  if (!instrument) return null;
  const start = parseUtTimestamp(instrument['start-date']);
  const end = parseUtTimestamp(instrument['end-date']);
  if (!start.ok || !end.ok || end.value.epochMs < start.value.epochMs) return null;
  return { startMs: start.value.epochMs, endMs: end.value.epochMs };
}
