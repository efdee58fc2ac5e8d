// Parsers for option values typed on the command line; each refuses bad input with the accepted form.
import { InvalidArgumentError } from 'commander';
import { parseUtTimestamp } from '../../src-shared/filters/ut-timestamp';

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3 };

/** "25MB", "512k", "1000" (bytes); a trailing "/s" is allowed for rates. Binary multiples, as sizes are shown. */
export function parseByteSize(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)(?:\/s)?$/i.exec(value.trim());
  const factor = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || factor === undefined) throw new InvalidArgumentError('Use a size such as 25MB, 512KB or 1000 (bytes).');
  return Math.round(Number(match[1]) * factor);
}

const DURATION_UNITS: Record<string, number> = { '': 1, ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** "30s", "10m", "2h", "1d", "250ms" or plain seconds; returns seconds. */
export function parseDurationSeconds(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/i.exec(value.trim());
  if (!match) throw new InvalidArgumentError('Use a duration such as 30s, 10m, 2h or 250ms.');
  return Number(match[1]) * DURATION_UNITS[(match[2] ?? '').toLowerCase()]!;
}

export function parseFraction(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1) throw new InvalidArgumentError('Use a number from 0 to 1, e.g. 0.3.');
  return number;
}

export function integerParser(min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`Use a whole number from ${min} to ${max}.`);
    }
    return Number(value);
  };
}

/** A day as YYYY-MM-DD (zero-padded on the way out), held to the date filters' rule: a real calendar day. */
export function parseCalendarDay(value: string): string {
  const parsed = parseUtTimestamp(value);
  if (parsed.ok && !parsed.value.hasTime) return parsed.value.text;
  const problem = !parsed.ok && parsed.reason === 'calendar' ? 'is not a real calendar day' : 'is not a day';
  throw new InvalidArgumentError(`"${value}" ${problem}: use YYYY-MM-DD, e.g. 2025-03-24.`);
}
