// The parser against astropy, card for card: test/fixtures/fits-header/typed-cards.fits holds every kind of
// value, and typed-cards.astropy.json what astropy 5.2 reads from each card (written by
// scripts/fixtures/make_fits_header_types.py; the tests never run Python).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FitsCard } from '../../../src-science/fits/fits-cards';
import { parseFitsHeader } from '../../../src-science/fits/fits-header';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/fits-header');

interface AstropyCard {
  keyword: string;
  /** type(value).__name__, or the exception astropy raises for a value it cannot parse. */
  type: string;
  repr: string | null;
  /** An int as its digits, a float as its repr, a complex as the reprs of its parts. */
  value: boolean | string | [string, string] | null;
  comment: string | null;
}

const reference = JSON.parse(readFileSync(path.join(FIXTURES, 'typed-cards.astropy.json'), 'utf8')) as { astropy: string; cards: AstropyCard[] };
const header = parseFitsHeader(new Uint8Array(readFileSync(path.join(FIXTURES, 'typed-cards.fits'))))!;

const COMMENTARY = new Set(['COMMENT', 'HISTORY', '']);
const TYPES: Record<string, string> = {
  bool: 'logical',
  int: 'integer',
  float: 'real',
  complex: 'complex',
  str: 'string',
  Undefined: 'undefined',
  VerifyError: 'malformed',
};

/** Python's float repr as a number: "inf" and "-0.0" too. */
const pythonFloat = (repr: string): number => (repr === 'inf' ? Infinity : repr === '-inf' ? -Infinity : Number(repr));

/** What astropy's card should be in our terms: commentary's text is our comment; an int's digits stay exact. */
function expected(card: AstropyCard): object {
  if (card.type === 'str' && COMMENTARY.has(card.keyword)) return { keyword: card.keyword, type: 'commentary', value: null, comment: card.value };
  let value: unknown = card.value;
  if (card.type === 'float') value = pythonFloat(card.value as string);
  if (card.type === 'complex') value = (card.value as [string, string]).map(pythonFloat);
  return { keyword: card.keyword, type: TYPES[card.type] ?? card.type, value, comment: card.comment };
}

/** Our card in the same terms: integers as their exact digits, complex values as their two parts. */
function ours(card: FitsCard): object {
  let value: unknown = card.value;
  if (card.type === 'integer') value = card.exactInteger ?? String(card.value);
  if (card.type === 'complex') value = card.complex;
  if (card.type === 'malformed') value = null; // astropy refuses to give one
  return { keyword: card.keyword, type: card.type, value, comment: card.comment };
}

describe(`card types and values as astropy ${reference.astropy} reads them`, () => {
  it('the same cards in the same order, CONTINUE cards joined into the card they continue', () => {
    expect(header.cardList.map((card) => card.keyword)).toEqual(reference.cards.map((card) => card.keyword));
  });

  it.each(reference.cards.map((card, index) => [card.keyword || '(blank)', card.repr, index] as const))('%s = %s', (_keyword, _repr, index) => {
    expect(ours(header.cardList[index]!)).toEqual(expected(reference.cards[index]!));
  });

  it('a keyword written in lower case is found under astropy’s name (date-obs as DATE-OBS)', () => {
    expect(header.cards.get('DATE-OBS')).toBe('2025-03-24T21:03:04');
    expect(header.cards.get('EXPTIME')).toBe(1.5);
  });

  it('the fixture holds every type', () => {
    expect(new Set(header.cardList.map((card) => card.type))).toEqual(
      new Set(['logical', 'integer', 'real', 'complex', 'string', 'undefined', 'commentary', 'malformed']),
    );
  });
});
