// The `every` filter: an integer followed by a period name, optionally plural ("2hours", "1day").

export const EVERY_UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type EveryUnit = (typeof EVERY_UNITS)[number];

export interface Every {
  count: number;
  unit: EveryUnit;
  /** The compact form the service takes, e.g. `2hours`. */
  text: string;
}

// Whitespace between number and unit is tolerated ("2 hours") and dropped when sent.
const EVERY = new RegExp(`^(\\d+)\\s*(${EVERY_UNITS.join('|')})(s?)$`, 'i');

export function parseEvery(raw: string): Every | null {
  const match = EVERY.exec(raw.trim());
  if (!match) return null;
  const count = Number(match[1]);
  if (!Number.isSafeInteger(count) || count < 1) return null;
  const unit = match[2]!.toLowerCase() as EveryUnit;
  return { count, unit, text: `${count}${unit}${match[3]!.toLowerCase()}` };
}

/**
 * The example every explanation of `every` gives (the hint, the CLI help, the README): the service keeps the first
 * file of each period of the UT clock, so the files either side of a boundary can be minutes apart. The times are
 * what the demo server lists for KCor pB on that day; test/emulator/file-listing.test.ts holds them to it.
 */
export const EVERY_EXAMPLE = { every: '2hours', day: '2025-03-21', times: ['17:55:59', '18:00:00', '20:00:03'] } as const;

/** "2hours on 2025-03-21 gave 17:55:59, 18:00:00 and 20:00:03 UT" */
export const EVERY_EXAMPLE_TEXT = `${EVERY_EXAMPLE.every} on ${EVERY_EXAMPLE.day} gave ${EVERY_EXAMPLE.times.slice(0, -1).join(', ')} and ${EVERY_EXAMPLE.times.at(-1)} UT`;
