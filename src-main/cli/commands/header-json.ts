// `header --json`: each card with its FITS type and a value a script can take as it is. JSON.stringify writes the
// real 32768.0 as 32768, which Python's json and jq read as an integer; so reals are written here with a point or
// an exponent (32768.0, -0.0, 1e+47) and read as floats, as astropy gives them, and the `type` says which it is
// for readers (JavaScript's JSON.parse) that make one number of both. Integers past 2^53, which a double cannot
// hold, are strings of their exact digits.
import { realText } from '../../../src-shared/fits/card-value-text';
import type { FitsCard, FitsValueType } from '../../../src-shared/fits/fits-cards';

/** A real number, written as one. */
export class JsonReal {
  constructor(readonly value: number) {}
}

type JsonCardValue = string | number | boolean | null | JsonReal | { re: JsonReal | string; im: JsonReal | string };

/** One card in --json: a commentary card (COMMENT, HISTORY) has a null value and its text as the comment. */
export interface JsonCard {
  keyword: string;
  type: FitsValueType;
  value: JsonCardValue;
  comment: string;
}

export function jsonCard(card: FitsCard): JsonCard {
  return { keyword: card.keyword, type: card.type, value: jsonValue(card), comment: card.comment };
}

function jsonValue(card: FitsCard): JsonCardValue {
  if (card.type === 'integer') return card.exactInteger ?? card.value;
  if (card.type === 'real') return real(card.value as number);
  if (card.type === 'complex' && card.complex) return { re: real(card.complex[0]), im: real(card.complex[1]) };
  return card.value;
}

/** A real too large for a double (1.0E999, infinite to astropy too) has no JSON number: "Infinity" or "-Infinity". */
function real(value: number): JsonReal | string {
  return Number.isFinite(value) ? new JsonReal(value) : String(value);
}

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
