// Reading FITS headers (FITS standard 4.0): 2880-byte blocks of 80-character cards ending with END.
// Enough to tell how long each HDU must be, which is how a download or a file on disk is judged complete.
import { CARD_LENGTH, cardText, FitsCardError, parseCards, type FitsCard, type FitsValue } from './fits-cards';

export const FITS_BLOCK = 2880;
const CARD = CARD_LENGTH;
/** More header blocks than any real file has: a header with no END by then is damaged, not long. */
export const MAX_HEADER_BLOCKS = 1000;
/** How a file begins (section 4.4.1.1) and how every extension after the primary HDU begins (section 4.4.1.2). */
export const PRIMARY_SIGNATURE = 'SIMPLE  =';
export const EXTENSION_SIGNATURE = 'XTENSION=';
const END_CARD = 'END     ';
const VALID_BITPIX = [8, 16, 32, 64, -32, -64];

/** A header whose values cannot describe a data unit; the message says which card, e.g. "no NAXIS2 card". */
export class FitsHeaderError extends Error {}

export interface FitsHeader {
  /** Values by keyword (the first card of each), in the order the cards came. */
  cards: Map<string, FitsValue>;
  /** Every card, in order: commentary and repeated keywords too, long strings joined. */
  cardList: FitsCard[];
  /** Bytes the header occupies, whole blocks. */
  headerBytes: number;
  /**
   * Why the cards cannot be read (then `cards` and `cardList` are empty), e.g. a long string over more CONTINUE
   * cards than any real header has. dataUnitBytes refuses such a header, and every reader of a file or a
   * download calls it before anything else.
   */
  damage?: string;
}

/**
 * Parses a header from the bytes that begin an HDU. Returns `null` while END has not been seen in the
 * bytes given (the caller should supply more blocks).
 */
export function parseFitsHeader(bytes: Uint8Array): FitsHeader | null {
  const records: string[] = [];
  for (let offset = 0; offset + CARD <= bytes.length; offset += CARD) {
    if (isEndCard(bytes, offset)) {
      const headerBytes = paddedToBlocks(offset + CARD);
      let cardList: FitsCard[];
      try {
        cardList = parseCards(records);
      } catch (error) {
        if (error instanceof FitsCardError) return { cards: new Map(), cardList: [], headerBytes, damage: error.message };
        throw error;
      }
      const cards = new Map<string, FitsValue>();
      for (const card of cardList) {
        if (card.value !== null && card.keyword.length > 0 && !cards.has(card.keyword)) cards.set(card.keyword, card.value);
      }
      return { cards, cardList, headerBytes };
    }
    records.push(cardText(bytes, offset));
  }
  return null;
}

/** Whether the card at `offset` is END (the keyword alone, blank-filled to 8 columns). */
export function isEndCard(bytes: Uint8Array, offset: number): boolean {
  for (let i = 0; i < END_CARD.length; i += 1) {
    if (bytes[offset + i] !== END_CARD.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * Bytes of the data unit that follows a header, before padding (standard 4.0, eqs. 1 and 2). Throws
 * FitsHeaderError when the mandatory values are missing or impossible, so no size is ever guessed.
 */
export function dataUnitBytes(header: FitsHeader): number {
  if (header.damage !== undefined) throw new FitsHeaderError(header.damage);
  const bitpix = wholeNumber(header, 'BITPIX', -64);
  if (!VALID_BITPIX.includes(bitpix)) throw new FitsHeaderError(`BITPIX = ${bitpix}, which is not one of ${VALID_BITPIX.join(', ')}`);
  const naxis = wholeNumber(header, 'NAXIS', 0);
  if (naxis > 999) throw new FitsHeaderError(`NAXIS = ${naxis}, more axes than the standard allows (999)`);
  if (naxis === 0) return 0;
  let product = 1;
  for (let axis = 1; axis <= naxis; axis += 1) {
    // Random-groups files set NAXIS1 = 0 and do not count it.
    const length = wholeNumber(header, `NAXIS${axis}`, 0);
    if (!(axis === 1 && length === 0 && header.cards.get('GROUPS') === true)) product *= length;
  }
  const pcount = wholeNumber(header, 'PCOUNT', 0, 0);
  const gcount = wholeNumber(header, 'GCOUNT', 0, 1);
  const bytes = (Math.abs(bitpix) / 8) * gcount * (pcount + product);
  if (!Number.isSafeInteger(bytes)) throw new FitsHeaderError(`a data unit of ${bytes} bytes, more than any file can hold`);
  return bytes;
}

/** The integer value of `keyword` (at least `min`); `fallback` stands in for an optional card that is absent. */
function wholeNumber(header: FitsHeader, keyword: string, min: number, fallback?: number): number {
  const value = header.cards.get(keyword) ?? fallback;
  if (value === undefined) throw new FitsHeaderError(`no ${keyword} card`);
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    const shown = typeof value === 'string' ? `'${value}'` : String(value);
    throw new FitsHeaderError(`${keyword} = ${shown} where a whole number of at least ${min} belongs`);
  }
  return value;
}

export function paddedToBlocks(bytes: number): number {
  return Math.ceil(bytes / FITS_BLOCK) * FITS_BLOCK;
}
