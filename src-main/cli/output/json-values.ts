// Numbers in the command line's JSON (`header --json`, `pixel --json`) as a FITS reader gives them. JSON.stringify
// writes the real 32768.0 as 32768, which Python's json and jq read as an integer; so reals are written with a point
// or an exponent (32768.0, -0.0, 1e+47) and read as floats, as astropy and numpy give them. JSON has no number for
// Infinity or NaN (JSON.stringify writes null for all three), so they are the strings "Infinity", "-Infinity" and
// "NaN"; and integers past 2^53, which a double cannot hold, are strings of their exact digits.
import { realText } from '../../../src-science/fits/card-value-text';

/** A real number, written as one. */
export class JsonReal {
  constructor(readonly value: number) {}
}

/** A real in JSON: a JsonReal when finite, else "Infinity", "-Infinity" or "NaN". */
export function jsonReal(value: number): JsonReal | string {
  return Number.isFinite(value) ? new JsonReal(value) : String(value);
}

/** An integer in JSON: a number while a double holds it exactly, else its exact decimal digits as a string. */
export function jsonInteger(value: bigint): number | string {
  return value >= -MAX_SAFE && value <= MAX_SAFE ? Number(value) : value.toString();
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** As JSON.stringify(value, null, 2) writes it, except that a JsonReal is written as a real. */
export function jsonText(value: unknown, indent = ''): string {
  if (value instanceof JsonReal) return realText(value.value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${jsonText(item, inner)}`).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${jsonText(item, inner)}`).join(',\n')}\n${indent}}`;
}
