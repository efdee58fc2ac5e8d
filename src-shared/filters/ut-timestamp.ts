// Dates of the files endpoint: `YYYY-MM-DDTHH:MM:SS` or `YYYY-MM-DD`, always UT.
// Single-digit months, days and hours (`2025-3-24`, as the official client's examples type them) are
// accepted and sent zero-padded; anything that is not a real calendar instant is refused.

export const DATE_FORMS = 'YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UT)';

const TIMESTAMP = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{1,2}):(\d{1,2}))?Z?$/;

/** An interval of UT instants, [startMs, endMs). */
export interface TimeRange {
  readonly startMs: number;
  readonly endMs: number;
}

export interface UtTimestamp {
  /** The zero-padded text sent to the service. */
  text: string;
  /** Milliseconds since the epoch, for comparisons. */
  epochMs: number;
  hasTime: boolean;
}

export type TimestampParse = { ok: true; value: UtTimestamp } | { ok: false; reason: 'form' | 'calendar' };

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function parseUtTimestamp(raw: string): TimestampParse {
  const match = TIMESTAMP.exec(raw.trim());
  if (!match) return { ok: false, reason: 'form' };
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => (part === undefined ? 0 : Number(part))) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const hasTime = match[4] !== undefined;
  // Date.UTC takes years 0 to 99 as 1900 to 1999: set the year on its own. Then 2025-02-30 rolls over into March,
  // while a real date (2024-02-29, 0004-02-29) survives the round trip unchanged.
  const check = new Date(Date.UTC(2000, 0, 1, hour, minute, second));
  check.setUTCFullYear(year, month - 1, day);
  const epochMs = check.getTime();
  const real = check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
  if (!real) return { ok: false, reason: 'calendar' };
  const date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  const text = hasTime ? `${date}T${pad(hour)}:${pad(minute)}:${pad(second)}` : date;
  return { ok: true, value: { text, epochMs, hasTime } };
}

/** Formats an instant as the service's timestamp form, `YYYY-MM-DDTHH:MM:SS` in UT. */
export function formatUtTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19);
}
