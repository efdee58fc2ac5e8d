// The cards of a FITS header (standard 4.0, section 4): keyword, value and comment of every card, in order,
// with long strings continued over CONTINUE cards joined (section 4.2.1.2) and commentary cards (COMMENT,
// HISTORY, blank keyword) kept. Each value keeps its FITS type (section 4.2): `32768.0` is a real, `32768` an
// integer, as astropy reads them. Works on bytes only, so the app's worker and the command line share it.

export type FitsValue = string | number | boolean;

/**
 * What a card holds (standard 4.0, section 4.2), as astropy tells them apart (bool, int, float, complex, str,
 * Undefined): `undefined` is a value field left blank, `commentary` a COMMENT, HISTORY or blank-keyword card or
 * one without `= ` in columns 9-10, `malformed` a value field that is none of these (astropy refuses to read it).
 */
export type FitsValueType = 'logical' | 'integer' | 'real' | 'complex' | 'string' | 'undefined' | 'commentary' | 'malformed';

export interface FitsCard {
  /** Up to 8 characters; a HIERARCH card's long keyword without the HIERARCH prefix, as astropy gives it. */
  keyword: string;
  /**
   * What arithmetic needs (BITPIX, NAXISn, BZERO ...): a number for an integer or a real (the nearest double
   * for an integer past 2^53, Infinity for a real too large for one), true or false, the string; the value's
   * text for a complex or malformed value; null for commentary cards (their text is the comment) and a value
   * left undefined.
   */
  value: FitsValue | null;
  type: FitsValueType;
  /** An integer past Number.MAX_SAFE_INTEGER: its exact decimal digits (e.g. BLANK = -9223372036854775808). */
  exactInteger?: string;
  /** A complex value's real and imaginary parts. */
  complex?: [number, number];
  comment: string;
  /** The 80-character records the card was read from, as in the file: several for a continued long string. */
  records: string[];
}

/** A header that cannot be read whole; the message says why, e.g. "a long string (X) continued over ...". */
export class FitsCardError extends Error {}

export const CARD_LENGTH = 80;
/**
 * CONTINUE cards one long string may take, 68,000 characters at most: far beyond any real header's (a few dozen
 * cards), so more is damage or a hostile server, refused rather than read.
 */
export const MAX_CONTINUE_CARDS = 1000;
const COMMENTARY_KEYWORDS = new Set(['COMMENT', 'HISTORY', '']);
const INTEGER = /^[+-]?\d+$/;
/** A real (a `D` exponent too, as Fortran writes doubles; lower case as astropy accepts it). */
const NUMBER = String.raw`[+-]?(?:\d+\.?\d*|\.\d+)(?:[EeDd][+-]?\d+)?`;
const REAL = new RegExp(`^${NUMBER}$`);
/** What a FITS string may not hold: the control characters (bytes past 0x7E are read as Latin-1 text). */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const CONTROL_CHARACTER = /[\x00-\x1f\x7f]/;
const COMPLEX = new RegExp(String.raw`^\(\s*(${NUMBER})\s*,\s*(${NUMBER})\s*\)$`);

/** The 80 characters of the card at `offset` (bytes outside 0x20-0x7E are kept as their Latin-1 characters). */
export function cardText(bytes: Uint8Array, offset: number): string {
  // One call for the 80 bytes, the typed array as its list of arguments (apply takes any array-like): appending
  // them one by one is many times slower, and this is most of the time of reading a header of thousands of cards.
  const codes = bytes.subarray(offset, offset + CARD_LENGTH) as unknown as number[];
  return String.fromCharCode.apply(null, codes).padEnd(CARD_LENGTH);
}

/** Whether a card is END (the keyword alone, blank-filled to 8 columns). */
function isEndRecord(record: string): boolean {
  return record.startsWith('END     ');
}

/**
 * The cards of a header's records (each 80 characters), up to END or the last record given. A string value
 * ending in `&` followed by CONTINUE cards becomes one card holding the whole string. Throws FitsCardError for
 * a string continued over more than `maxContinueCards` CONTINUE cards.
 */
export function parseCards(records: Iterable<string>, maxContinueCards = MAX_CONTINUE_CARDS): FitsCard[] {
  const cards: FitsCard[] = [];
  // The string being continued: its pieces are joined once it ends, as joining at each piece copies the
  // string so far every time: quadratic in the CONTINUE cards, on the main thread of every download.
  let long: LongString | undefined;
  for (const record of records) {
    if (isEndRecord(record)) break;
    if (long && record.startsWith('CONTINUE') && record.slice(8, 10) !== '= ') {
      const piece = parseValueField(record.slice(10));
      if (piece.type === 'string') {
        if (long.card.records.length > maxContinueCards) {
          throw new FitsCardError(`a long string (${long.card.keyword}) continued over more than ${grouped(maxContinueCards)} CONTINUE cards`);
        }
        const text = piece.value as string;
        long.pieces[long.pieces.length - 1] = long.pieces.at(-1)!.slice(0, -1); // the & that said more follows
        long.pieces.push(text);
        if (piece.comment) long.comments.push(piece.comment);
        long.card.records.push(record);
        if (!text.endsWith('&')) {
          finish(long);
          long = undefined;
        }
        continue;
      }
    }
    if (long) finish(long);
    long = undefined;
    const card = parseRecord(record);
    cards.push(card);
    if (card.type === 'string' && (card.value as string).endsWith('&')) {
      long = { card, pieces: [card.value as string], comments: card.comment ? [card.comment] : [] };
    }
  }
  if (long) finish(long);
  return cards;
}

interface LongString {
  card: FitsCard;
  pieces: string[];
  comments: string[];
}

/** The string and comments of a continued card, joined once; the comments with spaces, as astropy joins them. */
function finish(long: LongString): void {
  long.card.value = long.pieces.join('');
  long.card.comment = long.comments.join(' ');
}

/**
 * One record on its own: a value card (`KEYWORD = value / comment`), a HIERARCH card or commentary. A keyword is
 * read in capitals, as astropy reads `date-obs` as DATE-OBS (a HIERARCH keyword keeps its case, as there).
 */
export function parseRecord(record: string): FitsCard {
  const keyword = record.slice(0, 8).trimEnd().toUpperCase();
  if (keyword === 'HIERARCH') {
    const equals = record.indexOf('=', 8);
    if (equals > 8) return { keyword: record.slice(8, equals).trim(), ...parseValueField(record.slice(equals + 1)), records: [record] };
  }
  if (COMMENTARY_KEYWORDS.has(keyword) || record.slice(8, 10) !== '= ') {
    return { keyword, value: null, type: 'commentary', comment: record.slice(8).trimEnd(), records: [record] };
  }
  return { keyword, ...parseValueField(record.slice(10)), records: [record] };
}

type ValueField = Pick<FitsCard, 'value' | 'type' | 'exactInteger' | 'complex' | 'comment'>;

/**
 * The value and comment of a value field (columns 11-80): a quoted string (`''` is a quote; trailing spaces
 * are not significant), T or F, an integer, a real, a complex `(re, im)` or nothing (an undefined value). A
 * value of another form is malformed, kept as its text: a string without its closing quote, or holding a
 * character a FITS string may not (section 4.2.1: only 0x20-0x7E; a TAB too), as astropy refuses both.
 */
function parseValueField(field: string): ValueField {
  const start = field.length - field.trimStart().length;
  if (field[start] === "'") {
    let text = '';
    let i = start + 1;
    for (; i < field.length; i += 1) {
      if (field[i] !== "'") text += field[i];
      else if (field[i + 1] === "'") {
        text += "'";
        i += 1;
      } else break;
    }
    if (i < field.length) {
      const comment = commentAfter(field, i + 1);
      if (CONTROL_CHARACTER.test(text)) return { value: field.slice(start, i + 1), type: 'malformed', comment };
      return { value: text.trimEnd(), type: 'string', comment };
    }
    // No closing quote: malformed as any value of no FITS form is, its comment after the first slash as there.
  }
  const slash = field.indexOf('/');
  const token = (slash >= 0 ? field.slice(0, slash) : field).trim();
  const comment = slash >= 0 ? field.slice(slash + 1).trim() : '';
  return { ...parseToken(token), comment };
}

function commentAfter(field: string, from: number): string {
  const slash = field.indexOf('/', from);
  return slash >= 0 ? field.slice(slash + 1).trim() : '';
}

function parseToken(token: string): Omit<ValueField, 'comment'> {
  if (token === '') return { value: null, type: 'undefined' };
  if (token === 'T' || token === 'F') return { value: token === 'T', type: 'logical' };
  if (INTEGER.test(token)) {
    const value = Number(token) + 0; // + 0: -0 is the integer 0
    return Number.isSafeInteger(value) ? { value, type: 'integer' } : { value, type: 'integer', exactInteger: BigInt(token).toString() };
  }
  if (REAL.test(token)) return { value: realNumber(token), type: 'real' };
  const complex = COMPLEX.exec(token);
  if (complex) return { value: token, type: 'complex', complex: [realNumber(complex[1]!), realNumber(complex[2]!)] };
  return { value: token, type: 'malformed' };
}

function realNumber(text: string): number {
  return Number(text.replace(/[Dd]/, 'E'));
}

/** 1000 -> "1,000". */
function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
