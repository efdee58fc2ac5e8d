// What a tile-compressed image's header says (FITS standard 4.0, section 10): a BINTABLE with ZIMAGE = T holds an
// image of ZBITPIX and ZNAXISn, cut into tiles of ZTILEn pixels, each compressed with ZCMPTYPE into one row of
// the table. Only the header is read here; tile-compressed-image.ts decodes the tiles.
import type { FitsValue } from './fits-cards';

/** The algorithms the reader decodes (RICE_ONE is an old name of RICE_1 that cfitsio still writes). */
const DECODED_COMPRESSIONS = ['RICE_1', 'RICE_ONE', 'GZIP_1', 'GZIP_2', 'NOCOMPRESS'] as const;

type Quantization = 'NO_DITHER' | 'SUBTRACTIVE_DITHER_1' | 'SUBTRACTIVE_DITHER_2';

export interface TileCompression {
  /** ZCMPTYPE as written, e.g. RICE_1, GZIP_1, HCOMPRESS_1. */
  algorithm: string;
  /** Whether the reader decodes `algorithm`. */
  decoded: boolean;
  /** ZBITPIX and ZNAXISn: the image's own BITPIX and axes. */
  bitpix: number;
  axes: number[];
  /** ZTILEn (by default whole rows: ZNAXIS1, then 1 for every other axis). */
  tile: number[];
  /** RICE_1's BLOCKSIZE and BYTEPIX (ZNAMEi / ZVALi), 32 and 4 when not given. */
  blockSize: number;
  bytePix: number;
  /** How floats were quantized (ZQUANTIZ, NO_DITHER when absent), and the dither's first seed (ZDITHER0). */
  quantization: Quantization;
  dither0: number;
  /** ZBLANK: the integer that stands for a blank (NaN) pixel, when the keyword gives one for every tile. */
  zblank?: number;
}

/** The header's tile compression, or undefined when the HDU is not a tile-compressed image (ZIMAGE is not T). */
export function tileCompressionOf(type: string, values: ReadonlyMap<string, FitsValue>): TileCompression | undefined {
  if (type !== 'BINTABLE' || values.get('ZIMAGE') !== true) return undefined;
  const algorithm = text(values.get('ZCMPTYPE')) ?? 'no ZCMPTYPE';
  const count = whole(values.get('ZNAXIS')) ?? 0;
  const axes = Array.from({ length: count }, (_, axis) => whole(values.get(`ZNAXIS${axis + 1}`)) ?? 0);
  const tile = axes.map((length, axis) => whole(values.get(`ZTILE${axis + 1}`)) ?? (axis === 0 ? length : 1));
  const parameters = new Map<string, FitsValue>();
  for (let i = 1; values.has(`ZNAME${i}`); i += 1) {
    const name = text(values.get(`ZNAME${i}`));
    const value = values.get(`ZVAL${i}`);
    if (name !== undefined && value !== undefined) parameters.set(name.toUpperCase(), value);
  }
  const quantize = text(values.get('ZQUANTIZ'))?.toUpperCase();
  const zblank = whole(values.get('ZBLANK'));
  return {
    algorithm,
    decoded: (DECODED_COMPRESSIONS as readonly string[]).includes(algorithm),
    bitpix: whole(values.get('ZBITPIX')) ?? 0,
    axes,
    tile,
    blockSize: whole(parameters.get('BLOCKSIZE')) ?? 32,
    bytePix: whole(parameters.get('BYTEPIX')) ?? 4,
    quantization: quantize === 'SUBTRACTIVE_DITHER_1' || quantize === 'SUBTRACTIVE_DITHER_2' ? quantize : 'NO_DITHER',
    dither0: whole(values.get('ZDITHER0')) ?? 1,
    ...(zblank === undefined ? {} : { zblank }),
  };
}

/** Whether the header describes an image the reader can show: an algorithm it decodes, a known ZBITPIX, axes. */
export function isDecodableImage(compression: TileCompression): boolean {
  return (
    compression.decoded &&
    [8, 16, 32, 64, -32, -64].includes(compression.bitpix) &&
    compression.axes.length > 0 &&
    compression.axes.every((length) => length > 0) &&
    compression.tile.every((length) => length > 0)
  );
}

function text(value: FitsValue | undefined): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}

function whole(value: FitsValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}
