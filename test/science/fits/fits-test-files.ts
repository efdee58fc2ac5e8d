// Builds small FITS files byte by byte for tests of the layout checks: any header cards, any data, with or
// without the final block padding, so a test can state exactly what its headers declare.
const BLOCK = 2880;
const CARD = 80;

export type CardValue = string | number | boolean;

/** One header card, formatted as the standard's fixed format (values right-aligned in columns 11-30). */
function card(keyword: string, value: CardValue): string {
  const text = typeof value === 'boolean' ? (value ? 'T' : 'F') : typeof value === 'number' ? String(value) : `'${value.padEnd(8)}'`;
  return `${keyword.padEnd(8)}= ${typeof value === 'string' ? text.padEnd(20) : text.padStart(20)}`.padEnd(CARD);
}

/** A header block sequence: the cards, END, padded with spaces to whole blocks. */
export function header(cards: readonly (readonly [string, CardValue])[], options: { fillerCards?: number } = {}): Buffer {
  const lines = cards.map(([keyword, value]) => card(keyword, value));
  for (let i = 0; i < (options.fillerCards ?? 0); i += 1) lines.push(`COMMENT filler card ${i}`.padEnd(CARD));
  lines.push('END'.padEnd(CARD));
  const text = lines.join('');
  return Buffer.from(text.padEnd(Math.ceil(text.length / BLOCK) * BLOCK, ' '), 'latin1');
}

/** Data bytes (a recognisable pattern, never all zeros) padded with zeros to whole blocks unless `unpadded`. */
export function dataUnit(bytes: number, options: { unpadded?: boolean } = {}): Buffer {
  const data = Buffer.alloc(options.unpadded ? bytes : Math.ceil(bytes / BLOCK) * BLOCK);
  for (let i = 0; i < bytes; i += 1) data[i] = (i * 7 + 3) & 0xff;
  return data;
}

/** Primary header of an 8-bit image of `length` bytes (NAXIS=1). */
export function primaryHeader(length: number, extra: readonly (readonly [string, CardValue])[] = []): Buffer {
  return header([['SIMPLE', true], ['BITPIX', 8], ['NAXIS', 1], ['NAXIS1', length], ...extra]);
}

/** Primary header of a float32 square image, as KCor's level 2 files have. */
export function imageHeader(size: number): Buffer {
  return header([
    ['SIMPLE', true],
    ['BITPIX', -32],
    ['NAXIS', 2],
    ['NAXIS1', size],
    ['NAXIS2', size],
  ]);
}

/**
 * A file laid out like UCoMP's: an empty primary HDU (NAXIS=0, EXTEND), two float32 image extensions and a
 * binary table; its header blocks are more than one block long where `longHeader` asks. `primaryCards` are added
 * to the primary header (NEXTEND, for one). `parts` alternate header and data: the primary header alone, then
 * each extension's header and data unit.
 */
export function multiHduFile(options: { longHeader?: boolean; unpaddedEnd?: boolean; primaryCards?: readonly (readonly [string, CardValue])[] } = {}): {
  bytes: Buffer;
  parts: Buffer[];
} {
  const parts = [
    header([['SIMPLE', true], ['BITPIX', 8], ['NAXIS', 0], ['EXTEND', true], ...(options.primaryCards ?? [])], { fillerCards: options.longHeader ? 50 : 0 }),
    header([
      ['XTENSION', 'IMAGE'],
      ['BITPIX', -32],
      ['NAXIS', 2],
      ['NAXIS1', 30],
      ['NAXIS2', 20],
      ['PCOUNT', 0],
      ['GCOUNT', 1],
      ['EXTNAME', 'I'],
    ]),
    dataUnit(30 * 20 * 4),
    header(
      [
        ['XTENSION', 'IMAGE'],
        ['BITPIX', 16],
        ['NAXIS', 3],
        ['NAXIS1', 40],
        ['NAXIS2', 40],
        ['NAXIS3', 2],
        ['PCOUNT', 0],
        ['GCOUNT', 1],
      ],
      {
        fillerCards: options.longHeader ? 40 : 0,
      },
    ),
    dataUnit(40 * 40 * 2 * 2),
    header([
      ['XTENSION', 'BINTABLE'],
      ['BITPIX', 8],
      ['NAXIS', 2],
      ['NAXIS1', 12],
      ['NAXIS2', 100],
      ['PCOUNT', 500],
      ['GCOUNT', 1],
      ['TFIELDS', 1],
    ]),
    dataUnit(12 * 100 + 500, { unpadded: options.unpaddedEnd ?? false }),
  ];
  return { bytes: Buffer.concat(parts), parts };
}

/** The same bytes split into pieces of `size` (the last one shorter). */
export function split(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) pieces.push(bytes.subarray(offset, offset + size));
  return pieces;
}
