import { describe, expect, it } from 'vitest';
import { parseCards, parseRecord } from '../../../src-shared/fits/fits-cards';
import { parseFitsHeader } from '../../../src-shared/fits/fits-header';
import { formatCard, headerBytes } from './fits-writer';

const record = (text: string): string => text.padEnd(80);
const card = (text: string) => {
  const { keyword, value, comment } = parseRecord(record(text));
  return { keyword, value, comment };
};

describe('one card', () => {
  it.each([
    ["OBJECT  = 'Solar K-Corona'     / observed object", 'OBJECT', 'Solar K-Corona', 'observed object'],
    ["ORIGIN  = 'HAO/MLSO'", 'ORIGIN', 'HAO/MLSO', ''],
    ["QUOTED  = 'it''s ''here'''     / doubled quotes", 'QUOTED', "it's 'here'", 'doubled quotes'],
    ["LEADING = '   spaced   '", 'LEADING', '   spaced', ''],
    ["SLASH   = 'a/b/c'              / the slash is in the string", 'SLASH', 'a/b/c', 'the slash is in the string'],
    ["EMPTY   = ''", 'EMPTY', '', ''],
    ['SIMPLE  =                    T / conforms', 'SIMPLE', true, 'conforms'],
    ['FLAG    =                    F', 'FLAG', false, ''],
    ['BITPIX  =                  -32 / IEEE single', 'BITPIX', -32, 'IEEE single'],
    ['BZERO   =                32768', 'BZERO', 32768, ''],
    ['BSCALE  =             1.25E-03', 'BSCALE', 0.00125, ''],
    ['DEXP    =           -2.5D+02 / Fortran double exponent', 'DEXP', -250, 'Fortran double exponent'],
    ['POINT   =                  .5', 'POINT', 0.5, ''],
    ['UNDEF   =                      / no value given', 'UNDEF', null, 'no value given'],
    ['CPLX    = (1.5, -2)', 'CPLX', '(1.5, -2)', ''],
  ])('%s', (text, keyword, value, comment) => {
    expect(card(text)).toEqual({ keyword, value, comment });
  });

  it.each([
    ['COMMENT Synthetic image made by the emulator, not observed', 'COMMENT', 'Synthetic image made by the emulator, not observed'],
    ['HISTORY step 1 = calibrated', 'HISTORY', 'step 1 = calibrated'],
    ['        a blank keyword holds commentary too', '', 'a blank keyword holds commentary too'],
    ["COMMENT = 'not a value: COMMENT is always commentary'", 'COMMENT', "= 'not a value: COMMENT is always commentary'"],
    ['NOVALUE  no value indicator in columns 9-10', 'NOVALUE', ' no value indicator in columns 9-10'],
  ])('commentary: %s', (text, keyword, comment) => {
    expect(card(text)).toEqual({ keyword, value: null, comment });
  });

  it('a HIERARCH card gives its long keyword, as astropy does', () => {
    expect(card("HIERARCH ESO DET CHIP NAME = 'CCD-44' / detector")).toEqual({ keyword: 'ESO DET CHIP NAME', value: 'CCD-44', comment: 'detector' });
  });
});

describe('long strings continued over CONTINUE cards', () => {
  it('are joined into one card that keeps all its records and comments', () => {
    const records = [
      record("LONGSTR = 'The first part of a long string value that does not fit on one card, &'"),
      record("CONTINUE  'so it goes on here&'  / first comment"),
      record("CONTINUE  ' and ends here.' / second comment"),
      record("NEXT    = 'after'"),
    ];
    const cards = parseCards(records);
    expect(cards.map(({ keyword, value, comment }) => ({ keyword, value, comment }))).toEqual([
      {
        keyword: 'LONGSTR',
        value: 'The first part of a long string value that does not fit on one card, so it goes on here and ends here.',
        comment: 'first comment second comment',
      },
      { keyword: 'NEXT', value: 'after', comment: '' },
    ]);
    expect(cards[0]!.records).toEqual(records.slice(0, 3));
  });

  it('a CONTINUE card after a string without & is commentary, and a & with nothing after it stays', () => {
    const cards = parseCards([record("PLAIN   = 'whole'"), record("CONTINUE  'stray'"), record("AMP     = 'ends with &'")]);
    expect(cards.map(({ keyword, value }) => [keyword, value])).toEqual([
      ['PLAIN', 'whole'],
      ['CONTINUE', null],
      ['AMP', 'ends with &'],
    ]);
  });

  it('parseCards stops at END', () => {
    expect(parseCards([record("A       = 1"), record('END'), record("B       = 2")]).map((c) => c.keyword)).toEqual(['A']);
  });
});

describe('parseFitsHeader (what the download checks use)', () => {
  it('gives the first value of each keyword and every card in order', () => {
    const bytes = headerBytes([
      ['SIMPLE', true],
      ['BITPIX', 16],
      ['NAXIS', 0],
      'HISTORY one',
      'HISTORY two',
      ['DUP', 1],
      ['DUP', 2],
      'UNDEF   =                      / undefined',
    ]);
    const header = parseFitsHeader(bytes)!;
    expect(header.headerBytes).toBe(2880);
    expect([...header.cards]).toEqual([
      ['SIMPLE', true],
      ['BITPIX', 16],
      ['NAXIS', 0],
      ['DUP', 1],
    ]);
    expect(header.cardList.map((c) => c.keyword)).toEqual(['SIMPLE', 'BITPIX', 'NAXIS', 'HISTORY', 'HISTORY', 'DUP', 'DUP', 'UNDEF']);
  });

  it('returns null until END has come', () => {
    expect(parseFitsHeader(headerBytes([['SIMPLE', true]]).subarray(0, 80))).toBeNull();
  });

  it('reads back what the test writer formats', () => {
    expect(card(formatCard('BSCALE', 1e-7, 'tiny'))).toEqual({ keyword: 'BSCALE', value: 1e-7, comment: 'tiny' });
    expect(card(formatCard('NAME', "O'Brien"))).toEqual({ keyword: 'NAME', value: "O'Brien", comment: '' });
  });
});
