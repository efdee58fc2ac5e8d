// "Sync automatically every N hours while the app is open": the one rule for N, judged alike by the form and the core.

/** The longest period accepted: a year. */
const LONGEST_AUTO_SYNC_HOURS = 24 * 365;

/** Null when `hours` is a whole number of hours from 1 to a year's worth; otherwise what to type instead. */
export function autoSyncHoursProblem(hours: number | null): string | null {
  if (hours === null || !Number.isInteger(hours) || hours < 1 || hours > LONGEST_AUTO_SYNC_HOURS) {
    return `Automatic sync runs every 1 to ${LONGEST_AUTO_SYNC_HOURS} whole hours, e.g. 6.`;
  }
  return null;
}
