// A small FITS writer for the reader's tests (never used by the product): header cards in the standard's fixed
// format, image data of any BITPIX written big-endian from the stored (unscaled) values, tables, several HDUs.
const BLOCK = 2880;
const CARD = 80;

export type CardValue = string | number | boolean | bigint;
/** A card as [keyword, value, comment?], or a record written as given (COMMENT, HISTORY, CONTINUE ...). */
export type CardSpec = readonly [string, CardValue, string?] | string;

/** One 80-character card: strings quoted (quotes doubled), numbers right-aligned in columns 11-30. */
export function formatCard(keyword: string, value: CardValue, comment?: string): string {
  let text: string;
  if (typeof value === 'boolean') text = (value ? 'T' : 'F').padStart(20);
  else if (typeof value === 'string') text = `'${value.replaceAll("'", "''").padEnd(8)}'`.padEnd(20);
  else text = formatNumber(value).padStart(20);
  const card = `${keyword.padEnd(8)}= ${text}${comment === undefined ? '' : ` / ${comment}`}`;
  if (card.length > CARD) throw new Error(`card too long: ${card}`);
  return card.padEnd(CARD);
}

/** Integers as they are; reals in the shortest form that reads back exactly, with an upper-case exponent. */
function formatNumber(value: number | bigint): string {
  if (typeof value === 'bigint' || Number.isInteger(value)) return String(value);
  return String(value).toUpperCase();
}

export function headerBytes(cards: readonly CardSpec[]): Uint8Array {
  const records = cards.map((spec) => (typeof spec === 'string' ? spec.padEnd(CARD) : formatCard(spec[0], spec[1], spec[2])));
  for (const record of records) if (record.length !== CARD) throw new Error(`record is not 80 characters: ${record}`);
  records.push('END'.padEnd(CARD));
  const text = records.join('');
  return Uint8Array.from(text.padEnd(Math.ceil(text.length / BLOCK) * BLOCK, ' '), (c) => c.charCodeAt(0));
}

export type Bitpix = 8 | 16 | 32 | 64 | -32 | -64;
export const BITPIX_VALUES: readonly Bitpix[] = [8, 16, 32, 64, -32, -64];

export interface ImageSpec {
  bitpix: Bitpix;
  /** NAXIS1, NAXIS2, ... */
  axes: readonly number[];
  /** Stored values in FITS order (bigint for BITPIX 64); as many as the axes hold. */
  stored: readonly (number | bigint)[];
  extension?: boolean;
  bscale?: number;
  bzero?: number | bigint;
  blank?: number | bigint;
  extname?: string;
  extraCards?: readonly CardSpec[];
  /** Leave out the zero padding after the data. */
  unpadded?: boolean;
}

export function imageHdu(spec: ImageSpec): Uint8Array {
  const cards: CardSpec[] = [
    spec.extension ? ['XTENSION', 'IMAGE'] : ['SIMPLE', true],
    ['BITPIX', spec.bitpix],
    ['NAXIS', spec.axes.length],
    ...spec.axes.map((length, axis): CardSpec => [`NAXIS${axis + 1}`, length]),
  ];
  if (spec.extension) cards.push(['PCOUNT', 0], ['GCOUNT', 1]);
  if (spec.extname !== undefined) cards.push(['EXTNAME', spec.extname]);
  if (spec.bscale !== undefined) cards.push(['BSCALE', spec.bscale]);
  if (spec.bzero !== undefined) cards.push(['BZERO', spec.bzero]);
  if (spec.blank !== undefined) cards.push(['BLANK', spec.blank]);
  for (const extra of spec.extraCards ?? []) cards.push(extra);
  return concat(headerBytes(cards), dataBytes(spec.bitpix, spec.stored, spec.unpadded));
}

/** Big-endian data of the stored values, zero-padded to whole blocks unless `unpadded`. */
function dataBytes(bitpix: Bitpix, stored: readonly (number | bigint)[], unpadded = false): Uint8Array {
  const size = Math.abs(bitpix) / 8;
  const length = stored.length * size;
  const bytes = new Uint8Array(unpadded ? length : Math.ceil(length / BLOCK) * BLOCK);
  const view = new DataView(bytes.buffer);
  stored.forEach((value, i) => {
    const at = i * size;
    if (bitpix === 8) view.setUint8(at, Number(value));
    else if (bitpix === 16) view.setInt16(at, Number(value));
    else if (bitpix === 32) view.setInt32(at, Number(value));
    else if (bitpix === 64) view.setBigInt64(at, BigInt(value));
    else if (bitpix === -32) view.setFloat32(at, Number(value));
    else view.setFloat64(at, Number(value));
  });
  return bytes;
}

/** A primary HDU without data, as multi-extension files (UCoMP's) begin. */
export function emptyPrimary(extraCards: readonly CardSpec[] = []): Uint8Array {
  return headerBytes([['SIMPLE', true], ['BITPIX', 8], ['NAXIS', 0], ['EXTEND', true], ...extraCards]);
}

/** A binary table extension of `rows` rows of one 8-byte column (contents: a pattern). */
export function tableHdu(rows: number, extname?: string): Uint8Array {
  const header = headerBytes([
    ['XTENSION', 'BINTABLE'],
    ['BITPIX', 8],
    ['NAXIS', 2],
    ['NAXIS1', 8],
    ['NAXIS2', rows],
    ['PCOUNT', 0],
    ['GCOUNT', 1],
    ['TFIELDS', 1],
    ['TFORM1', '1D'],
    ...(extname === undefined ? [] : [['EXTNAME', extname] as const]),
  ]);
  return concat(
    header,
    dataBytes(
      8,
      Array.from({ length: rows * 8 }, (_, i) => (i * 7) & 0xff),
    ),
  );
}

export function concat(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
