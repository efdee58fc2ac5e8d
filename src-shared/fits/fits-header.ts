// Reading FITS headers (FITS standard 4.0): 2880-byte blocks of 80-character cards ending with END.
// Enough to tell how long each HDU must be, which is how a file on disk is judged complete.

export const FITS_BLOCK = 2880;
const CARD = 80;

export type FitsValue = string | number | boolean;

export interface FitsHeader {
  /** Values by keyword, in the order the cards came. */
  cards: Map<string, FitsValue>;
  /** Bytes the header occupies, whole blocks. */
  headerBytes: number;
}

/** Parses one value field: quoted string, logical T/F, or number; the comment after `/` is dropped. */
function parseValue(field: string): FitsValue {
  const text = field.trim();
  if (text.startsWith("'")) {
    const match = /^'((?:[^']|'')*)'/.exec(text);
    return match ? match[1]!.replace(/''/g, "'").trimEnd() : text;
  }
  const bare = text.split('/')[0]!.trim();
  if (bare === 'T') return true;
  if (bare === 'F') return false;
  const number = Number(bare.replace(/D/i, 'E'));
  return Number.isNaN(number) ? bare : number;
}

/**
 * Parses a header from the bytes that begin an HDU. Returns `null` while END has not been seen in the
 * bytes given (the caller should supply more blocks).
 */
export function parseFitsHeader(bytes: Uint8Array): FitsHeader | null {
  const cards = new Map<string, FitsValue>();
  const decoder = new TextDecoder('latin1');
  for (let offset = 0; offset + CARD <= bytes.length; offset += CARD) {
    const card = decoder.decode(bytes.subarray(offset, offset + CARD));
    const keyword = card.slice(0, 8).trimEnd();
    if (keyword === 'END') {
      const used = offset + CARD;
      return { cards, headerBytes: Math.ceil(used / FITS_BLOCK) * FITS_BLOCK };
    }
    if (card.slice(8, 10) === '= ' && keyword.length > 0 && !cards.has(keyword)) cards.set(keyword, parseValue(card.slice(10)));
  }
  return null;
}

/** Bytes of the data unit that follows a header, before padding (standard 4.0, eqs. 1 and 2). */
export function dataUnitBytes(header: FitsHeader): number {
  const bitpix = Number(header.cards.get('BITPIX') ?? 0);
  const naxis = Number(header.cards.get('NAXIS') ?? 0);
  if (naxis === 0) return 0;
  let product = 1;
  for (let axis = 1; axis <= naxis; axis += 1) {
    // Random-groups files set NAXIS1 = 0 and do not count it.
    const length = Number(header.cards.get(`NAXIS${axis}`) ?? 0);
    if (!(axis === 1 && length === 0 && header.cards.get('GROUPS') === true)) product *= length;
  }
  const pcount = Number(header.cards.get('PCOUNT') ?? 0);
  const gcount = Number(header.cards.get('GCOUNT') ?? 1);
  return (Math.abs(bitpix) / 8) * gcount * (pcount + product);
}

export function paddedToBlocks(bytes: number): number {
  return Math.ceil(bytes / FITS_BLOCK) * FITS_BLOCK;
}
