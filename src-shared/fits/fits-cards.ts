// The cards of a FITS header (standard 4.0, section 4): keyword, value and comment of every card, in order,
// with long strings continued over CONTINUE cards joined (section 4.2.1.2) and commentary cards (COMMENT,
// HISTORY, blank keyword) kept. Works on bytes only, so the app's worker and the command line share it.

export type FitsValue = string | number | boolean;

export interface FitsCard {
  /** Up to 8 characters; a HIERARCH card's long keyword without the HIERARCH prefix, as astropy gives it. */
  keyword: string;
  /** Null for commentary cards (their text is the comment) and for a keyword whose value is left undefined. */
  value: FitsValue | null;
  comment: string;
  /** The 80-character records the card was read from, as in the file: several for a continued long string. */
  records: string[];
}

export const CARD_LENGTH = 80;
const COMMENTARY_KEYWORDS = new Set(['COMMENT', 'HISTORY', '']);
const INTEGER = /^[+-]?\d+$/;
const REAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[EeDd][+-]?\d+)?$/;

/** The 80 characters of the card at `offset` (bytes outside 0x20-0x7E are kept as their Latin-1 characters). */
export function cardText(bytes: Uint8Array, offset: number): string {
  let text = '';
  for (let i = offset; i < offset + CARD_LENGTH; i += 1) text += String.fromCharCode(bytes[i] ?? 0x20);
  return text;
}

/** Whether a card is END (the keyword alone, blank-filled to 8 columns). */
export function isEndRecord(record: string): boolean {
  return record.startsWith('END     ');
}

/**
 * The cards of a header's records (each 80 characters), up to END or the last record given. A string value
 * ending in `&` followed by CONTINUE cards becomes one card holding the whole string.
 */
export function parseCards(records: Iterable<string>): FitsCard[] {
  const cards: FitsCard[] = [];
  let continued: { card: FitsCard; text: string } | undefined;
  for (const record of records) {
    if (isEndRecord(record)) break;
    if (continued && record.startsWith('CONTINUE') && record.slice(8, 10) !== '= ') {
      const piece = parseValueField(record.slice(10));
      if (typeof piece.value === 'string' && piece.quoted) {
        continued.text = `${continued.text.slice(0, -1)}${piece.value}`;
        continued.card.value = continued.text;
        continued.card.records.push(record);
        if (piece.comment) continued.card.comment = continued.card.comment ? `${continued.card.comment} ${piece.comment}` : piece.comment;
        if (!piece.value.endsWith('&')) continued = undefined;
        continue;
      }
    }
    const card = parseRecord(record);
    cards.push(card);
    continued = typeof card.value === 'string' && card.value.endsWith('&') ? { card, text: card.value } : undefined;
  }
  return cards;
}

/** One record on its own: a value card (`KEYWORD = value / comment`), a HIERARCH card or commentary. */
export function parseRecord(record: string): FitsCard {
  const keyword = record.slice(0, 8).trimEnd();
  if (keyword === 'HIERARCH') {
    const equals = record.indexOf('=', 8);
    if (equals > 8) {
      const field = parseValueField(record.slice(equals + 1));
      return { keyword: record.slice(8, equals).trim(), value: field.value, comment: field.comment, records: [record] };
    }
  }
  if (COMMENTARY_KEYWORDS.has(keyword) || record.slice(8, 10) !== '= ') {
    return { keyword, value: null, comment: record.slice(8).trimEnd(), records: [record] };
  }
  const field = parseValueField(record.slice(10));
  return { keyword, value: field.value, comment: field.comment, records: [record] };
}

interface ValueField {
  value: FitsValue | null;
  comment: string;
  quoted: boolean;
}

/**
 * The value and comment of a value field (columns 11-80): a quoted string (`''` is a quote; trailing spaces
 * are not significant), T or F, an integer, a real (a `D` exponent too) or nothing (an undefined value). A
 * value of another form (a complex number, a malformed one) is kept as its text.
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
    return { value: text.trimEnd(), comment: commentAfter(field, i + 1), quoted: true };
  }
  const slash = field.indexOf('/');
  const token = (slash >= 0 ? field.slice(0, slash) : field).trim();
  const comment = slash >= 0 ? field.slice(slash + 1).trim() : '';
  return { value: parseToken(token), comment, quoted: false };
}

function commentAfter(field: string, from: number): string {
  const slash = field.indexOf('/', from);
  return slash >= 0 ? field.slice(slash + 1).trim() : '';
}

function parseToken(token: string): FitsValue | null {
  if (token === '') return null;
  if (token === 'T') return true;
  if (token === 'F') return false;
  if (INTEGER.test(token)) return Number(token);
  if (REAL.test(token)) return Number(token.replace(/[Dd]/, 'E'));
  return token;
}
