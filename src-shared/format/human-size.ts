// Sizes for people: binary multiples (as the official client prints them), one decimal above bytes.

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

export function humanSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return 'unknown';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${bytes} B`;
  // 1023.96 KB would print as "1024.0 KB"; carry it into the next unit instead.
  if (Number(value.toFixed(1)) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** A listed file's size: the service sends 0 when it does not know it. */
export function humanFileSize(bytes: number): string {
  return bytes > 0 ? humanSize(bytes) : 'unknown';
}

/**
 * The total of a listing. When any file's size is unknown (0), the sum undercounts and is shown as a
 * lower bound.
 */
export function listingTotal(sizes: readonly number[]): { bytes: number; lowerBound: boolean; text: string } {
  let bytes = 0;
  let lowerBound = false;
  for (const size of sizes) {
    if (size > 0) bytes += size;
    else lowerBound = true;
  }
  return { bytes, lowerBound, text: totalText(bytes, lowerBound) };
}

/** A listing's total as text: "2.9 GB", or "≥ 2.9 GB" when some sizes are unknown and the sum undercounts. */
export function totalText(bytes: number, lowerBound: boolean): string {
  return `${lowerBound ? '≥ ' : ''}${humanSize(bytes)}`;
}
