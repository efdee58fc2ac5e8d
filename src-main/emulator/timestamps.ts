// UT timestamps in the forms the API uses. Times are kept as whole epoch seconds: the API has second resolution.

export const SECONDS_PER_DAY = 86400;

/** 'YYYY-MM-DD' -> epoch seconds of its 00:00:00 UT. */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

/** Epoch seconds -> 'YYYY-MM-DDTHH:MM:SS', the API's timestamp form. */
export function formatTimestamp(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 19);
}

/** Epoch seconds -> 'YYYY-MM-DD'. */
export function formatDay(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10);
}

/** Epoch seconds -> ['YYYYMMDD', 'HHMMSS'], the pieces of MLSO file names. */
export function compactDateTime(epochSeconds: number): [string, string] {
  const iso = formatTimestamp(epochSeconds);
  return [iso.slice(0, 10).replaceAll('-', ''), iso.slice(11).replaceAll(':', '')];
}

/** An HTTP date as used by cookie Expires attributes, e.g. 'Fri, 25 Jul 2025 15:51:18 GMT'. */
export function httpDate(epochMs: number): string {
  return new Date(epochMs).toUTCString();
}

// The service parses dates with Python's strptime, whose directives are looser than ISO 8601: %m and %d take one or
// two digits (the real service echoes "2025-3-24"), %d even a space-padded digit, %H/%M/%S one or two digits, and the
// whole match ignores case (so 't' works as the separator). These are the alternations of CPython's _strptime.
const Y = '(\\d{4})';
const M = '(1[0-2]|0[1-9]|[1-9])';
const D = '(3[01]|[12]\\d|0[1-9]|[1-9]| [1-9])';
const HH = '(2[0-3]|[0-1]\\d|\\d)';
const MM = '([0-5]\\d|\\d)';
const SS = '(6[0-1]|[0-5]\\d|\\d)';
const DATE_TIME = new RegExp(`^${Y}-${M}-${D}T${HH}:${MM}:${SS}$`, 'i');
const DATE_ONLY = new RegExp(`^${Y}-${M}-${D}$`);

/**
 * Parses `%Y-%m-%dT%H:%M:%S` or `%Y-%m-%d` as Python's datetime.strptime would, returning epoch seconds (UT) or null
 * when neither form matches or the date does not exist (Feb 30, second 60, year 0).
 */
export function parseQueryDate(text: string): number | null {
  const m = DATE_TIME.exec(text) ?? DATE_ONLY.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((part) => (part === undefined ? 0 : Number(part.trim())));
  if (year === undefined || month === undefined || day === undefined) return null;
  if (year < 1 || (second ?? 0) > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour ?? 0, minute ?? 0, second ?? 0, 0);
  // Date rolls Feb 30 over into March; strptime refuses it, so compare the fields back.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.getTime() / 1000;
}
