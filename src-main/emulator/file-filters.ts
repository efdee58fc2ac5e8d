// The filter parameters of the files endpoint: validation (with messages that say what is allowed) and application.
import { carringtonRotationStart } from './carrington';
import { parseQueryDate } from './timestamps';
import { WAVE_REGIONS, type ProductDefinition, type InstrumentDefinition } from './instruments';
import type { FileRecord } from './catalog';

const FILTER_NAMES = ['start-date', 'end-date', 'cr', 'every', 'wave-region', 'obs-plan'] as const;

const DATE_FORMS = 'use %Y-%m-%dT%H:%M:%S or %Y-%m-%d (UT), e.g. 2025-01-01T10:30:00 or 2025-01-01';
const EVERY = /^([0-9]+)(second|minute|hour|day|week|month|quarter|year)s?$/;
const SECONDS_PER: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800 };
const MONTHS_PER: Record<string, number> = { month: 1, quarter: 3 };

export interface EmulatorFileFilters {
  /** Epoch seconds; files with date-obs >= start and < end. */
  start?: number;
  end?: number;
  cr?: number;
  every?: { count: number; unit: string };
  waveRegion?: string;
  obsPlan?: string;
}

export type ParsedFilters = { ok: true; filters: EmulatorFileFilters } | { ok: false; message: string };

/** Reads the filters from a query. Parameters that are not filters (e.g. `client`) are ignored, as the service does. */
export function parseFileFilters(query: URLSearchParams, instrument: InstrumentDefinition, product: ProductDefinition): ParsedFilters {
  for (const name of FILTER_NAMES) {
    if (query.has(name) && !product.filters.includes(name)) {
      return {
        ok: false,
        message: `filter "${name}" is not available for product "${product.id}" of instrument "${instrument.id}"; it accepts: ${product.filters.join(', ')}`,
      };
    }
  }
  const filters: EmulatorFileFilters = {};
  const value = (name: string): string | null => query.get(name);

  for (const [name, key] of [
    ['start-date', 'start'],
    ['end-date', 'end'],
  ] as const) {
    const text = value(name);
    if (text === null) continue;
    const seconds = parseQueryDate(text);
    if (seconds === null) return { ok: false, message: `invalid ${name} "${text}": ${DATE_FORMS}` };
    filters[key] = seconds;
  }

  const cr = value('cr');
  if (cr !== null) {
    if (!/^[0-9]+$/.test(cr) || Number(cr) < 1 || !Number.isSafeInteger(Number(cr))) {
      return { ok: false, message: `invalid cr "${cr}": must be a positive integer Carrington rotation number, e.g. 2295` };
    }
    filters.cr = Number(cr);
  }

  const every = value('every');
  if (every !== null) {
    const m = EVERY.exec(every);
    if (!m || Number(m[1]) < 1) {
      return {
        ok: false,
        message: `invalid every "${every}": must be a positive integer followed by one of second, minute, hour, day, week, month, quarter, year, optionally ending in "s", e.g. 2hours or 1day`,
      };
    }
    filters.every = { count: Number(m[1]), unit: m[2] ?? 'day' };
  }

  const waveRegion = value('wave-region');
  if (waveRegion !== null) {
    if (!(WAVE_REGIONS as readonly string[]).includes(waveRegion)) {
      return { ok: false, message: `invalid wave-region "${waveRegion}": must be one of ${WAVE_REGIONS.join(', ')}` };
    }
    filters.waveRegion = waveRegion;
  }

  const obsPlan = value('obs-plan');
  if (obsPlan !== null) {
    if (obsPlan.length === 0) {
      return { ok: false, message: 'invalid obs-plan "": must be an observing plan name or its beginning, e.g. waves or synoptic' };
    }
    filters.obsPlan = obsPlan;
  }
  return { ok: true, filters };
}

/** The files (sorted by date-obs) that pass the filters, still sorted. */
export function applyFileFilters(files: readonly FileRecord[], filters: EmulatorFileFilters): FileRecord[] {
  let from = filters.start ?? -Infinity;
  let to = filters.end ?? Infinity;
  if (filters.cr !== undefined) {
    from = Math.max(from, carringtonRotationStart(filters.cr));
    to = Math.min(to, carringtonRotationStart(filters.cr + 1));
  }
  let selected = files.slice(lowerBound(files, from), lowerBound(files, to));
  if (filters.waveRegion !== undefined) selected = selected.filter((f) => f.waveRegion === filters.waveRegion);
  const plan = filters.obsPlan;
  if (plan !== undefined) selected = selected.filter((f) => f.obsPlan !== undefined && f.obsPlan.startsWith(plan));
  if (filters.every) selected = onePerPeriod(selected, filters.every.count, filters.every.unit);
  return selected;
}

/** Index of the first file with time >= t (files sorted by time). */
function lowerBound(files: readonly FileRecord[], t: number): number {
  let lo = 0;
  let hi = files.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((files[mid]?.time ?? Infinity) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Keeps the earliest file of each period. Periods are aligned to UT calendar boundaries: multiples of the period since
 * the Unix epoch for seconds to weeks, calendar months, quarters and years (counted from year 0) otherwise.
 */
function onePerPeriod(files: readonly FileRecord[], count: number, unit: string): FileRecord[] {
  const periodOf = periodFunction(count, unit);
  const kept: FileRecord[] = [];
  let previous: number | undefined;
  for (const file of files) {
    const period = periodOf(file.time);
    if (period !== previous) kept.push(file);
    previous = period;
  }
  return kept;
}

function periodFunction(count: number, unit: string): (t: number) => number {
  const seconds = SECONDS_PER[unit];
  if (seconds !== undefined) return (t) => Math.floor(t / (seconds * count));
  const months = MONTHS_PER[unit];
  if (months !== undefined) {
    return (t) => {
      const d = new Date(t * 1000);
      return Math.floor((d.getUTCFullYear() * 12 + d.getUTCMonth()) / (months * count));
    };
  }
  return (t) => Math.floor(new Date(t * 1000).getUTCFullYear() / count);
}
