// Instants shown to the minute, as the filter hints and the app write them.

const MINUTE_MS = 60_000;

/** An instant as `YYYY-MM-DD HH:MM` UT, seconds dropped (a clock's reading: what time it was). */
export function utMinute(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ');
}

/** An instant rounded to the nearest whole minute (half a minute up), so a day's last seconds show the next day's 00:00. */
export function nearestMinute(epochMs: number): number {
  return Math.round(epochMs / MINUTE_MS) * MINUTE_MS;
}

/**
 * A computed instant (a rotation's start) as `YYYY-MM-DD HH:MM` UT, rounded to the nearest minute: within 30 seconds
 * of the instant, where dropping the seconds would put 11:59:56.7 at 11:59.
 */
export function nearestUtMinute(epochMs: number): string {
  return utMinute(nearestMinute(epochMs));
}
