// `header --json`: each card with its FITS type and a value a script can take as it is, numbers written by the rule
// `pixel --json` shares (json-values.ts): reals as reals, Infinity as a string, integers past 2^53 as exact digits.
import type { FitsCard, FitsValueType } from '../../../src-science/fits/fits-cards';
import { jsonInteger, jsonReal, type JsonReal } from '../output/json-values';

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
  if (card.type === 'integer') return jsonInteger(BigInt(card.exactInteger ?? (card.value as number)));
  // A real too large for a double (1.0E999) is infinite to astropy too: "Infinity" or "-Infinity".
  if (card.type === 'real') return jsonReal(card.value as number);
  if (card.type === 'complex' && card.complex) return { re: jsonReal(card.complex[0]), im: jsonReal(card.complex[1]) };
  return card.value;
}
