// Instants shown to the minute, as the filter hints and the window write them.

/** An instant as `YYYY-MM-DD HH:MM` UT. */
export function utMinute(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ');
}
