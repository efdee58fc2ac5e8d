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
