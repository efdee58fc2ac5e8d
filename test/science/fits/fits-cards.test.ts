import { describe, expect, it } from 'vitest';
import { FitsCardError, MAX_CONTINUE_CARDS, parseCards, parseRecord } from '../../../src-science/fits/fits-cards';
import { dataUnitBytes, FitsHeaderError, parseFitsHeader } from '../../../src-science/fits/fits-header';
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

  // Each value's FITS type (standard 4.0, section 4.2) beside the value: what astropy tells apart as bool, int,
  // float, complex, str and Undefined (test/science/fits/fits-card-types.test.ts holds the parser to astropy).
  it.each([
    ['BZERO   =              32768.0', 'real', 32768],
    ['BZINT   =                32768', 'integer', 32768],
    ['X       =                 226.', 'real', 226],
    ['Y       =              1.5D+03', 'real', 1500],
    ['Z       =                 -0.0', 'real', -0],
    ['NEGZINT =                   -0', 'integer', 0],
    ['E5      =                  1E5', 'real', 100000],
    ['LEADZ   =                 +007', 'integer', 7],
    ['SIMPLE  =                    T', 'logical', true],
    ["NUMTEXT = '32768'", 'string', '32768'],
    ['UNDEF   =                      / none', 'undefined', null],
    ['COMMENT text', 'commentary', null],
    ['CPLX    = (1.5, -2)', 'complex', '(1.5, -2)'],
    ['BADVAL  = abc                  / not a FITS value', 'malformed', 'abc'],
    ['BADNUM  = 1.5.3', 'malformed', '1.5.3'],
  ])('type: %s', (text, type, value) => {
    const parsed = parseRecord(record(text));
    expect({ type: parsed.type, value: parsed.value }).toEqual({ type, value });
  });

  it.each([
    ['BLANK   = -9223372036854775808', -9223372036854775808, '-9223372036854775808'],
    ['BIG     = 100000000000000000000000000000000000000000000000', 1e47, '100000000000000000000000000000000000000000000000'],
    ['PASTSAFE=    +0009007199254740993', 9007199254740992, '9007199254740993'],
    ['POW53   =     9007199254740992', 9007199254740992, '9007199254740992'],
  ])('an integer past 2^53 keeps its exact digits beside the nearest double: %s', (text, value, exactInteger) => {
    const parsed = parseRecord(record(text));
    expect({ type: parsed.type, value: parsed.value, exactInteger: parsed.exactInteger }).toEqual({ type: 'integer', value, exactInteger });
  });

  it('an integer a double holds exactly has no separate digits', () => {
    expect(parseRecord(record('MAXSAFE =     9007199254740991')).exactInteger).toBeUndefined();
    expect(parseRecord(record('MINSAFE =    -9007199254740991')).exactInteger).toBeUndefined();
  });

  it.each([
    ['CPLX    = (1.5, -2)            / a complex value', [1.5, -2], 'a complex value'],
    ['CPLXINT = (3,4)', [3, 4], ''],
    ['CPLXD   = ( 1.0D2 , -0.5E1 )', [100, -5], ''],
  ])('a complex value gives its two parts: %s', (text, complex, comment) => {
    const parsed = parseRecord(record(text));
    expect({ type: parsed.type, complex: parsed.complex, comment: parsed.comment }).toEqual({ type: 'complex', complex, comment });
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

  /** LONGSTR over `count` CONTINUE cards, each adding 66 characters. */
  const continued = (count: number): string[] => [
    record("LONGSTR = '&'"),
    ...Array.from({ length: count }, (_, i) => record(`CONTINUE  '${'x'.repeat(66)}${i < count - 1 ? '&' : ''}'`)),
  ];

  // The pieces were once appended one by one to the string so far, copying it each time: 16,000 CONTINUE cards
  // took 6.8 s here (75 s on the machine), 36,000 some 40 s, longer than this test may run.
  it('are joined in linear time: the most CONTINUE cards a header can hold (36,000) at once', () => {
    const [card] = parseCards(continued(36_000), Number.POSITIVE_INFINITY);
    expect(card!.value).toBe('x'.repeat(36_000 * 66));
    expect(card!.records).toHaveLength(36_001);
  });

  it(`over more than ${MAX_CONTINUE_CARDS} CONTINUE cards are refused as damaged`, () => {
    expect(parseCards(continued(MAX_CONTINUE_CARDS))[0]!.records).toHaveLength(MAX_CONTINUE_CARDS + 1);
    expect(() => parseCards(continued(MAX_CONTINUE_CARDS + 1))).toThrow(
      new FitsCardError('a long string (LONGSTR) continued over more than 1,000 CONTINUE cards'),
    );
  });

  it('a header holding such a string is damaged: dataUnitBytes refuses it, as the reader and the download check call it', () => {
    const text = [
      record('SIMPLE  =                    T'),
      record('BITPIX  =                    8'),
      record('NAXIS   =                    0'),
      ...continued(16_000),
      record('END'),
    ].join('');
    const header = parseFitsHeader(Uint8Array.from(text.padEnd(Math.ceil(text.length / 2880) * 2880), (c) => c.charCodeAt(0)))!;
    expect(header.damage).toBe('a long string (LONGSTR) continued over more than 1,000 CONTINUE cards');
    expect(() => dataUnitBytes(header)).toThrow(new FitsHeaderError('a long string (LONGSTR) continued over more than 1,000 CONTINUE cards'));
  });

  it('parseCards stops at END', () => {
    expect(parseCards([record('A       = 1'), record('END'), record('B       = 2')]).map((c) => c.keyword)).toEqual(['A']);
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
