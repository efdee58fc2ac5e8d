// Decodes the pixels of an image HDU (standard 4.0, section 5): big-endian integers of 8, 16, 32 or 64 bits or
// IEEE floats of 32 or 64, scaled to physical values (BZERO + BSCALE x stored), with BLANK integers and NaN
// floats both NaN; and tile-compressed images (section 10, see tile-compressed-image.ts) likewise. 8- and 16-bit
// images and single floats decode into a Float32Array (which holds their stored values exactly), 32- and 64-bit
// integers and doubles into a Float64Array. An image can be decoded whole (`decodeImage`) or a few rows at a
// time (`imageReader`), so a large one can be shrunk or measured without holding all of it.
import { describeHdu, FitsReadError, grouped, missingHdu, type FitsFile, type FitsHdu } from './fits-file';
import { compressedImageReader } from './tile-compressed-image';
import type { FitsImage, ImageReader } from './image-reader';

/** Pixels of HDU `index` (which must hold an image); throws FitsReadError otherwise. */
export function decodeImage(file: FitsFile, index: number): FitsImage {
  const { readRows, single, rowsPerTile: _tile, ...image } = imageReader(file, index);
  const pixels = single ? new Float32Array(image.width * image.height) : new Float64Array(image.width * image.height);
  readRows(0, image.height, pixels);
  return { ...image, pixels };
}

/** A reader of HDU `index`'s image (which must hold one); throws FitsReadError otherwise. */
export function imageReader(file: FitsFile, index: number): ImageReader {
  const hdu = file.hdus[index];
  if (!hdu) throw missingHdu(file, index);
  if (!hdu.isImage) throw new FitsReadError(file.fileName, `holds no image in ${describeHdu(hdu)}: ${notAnImage(file, hdu)}`);
  const bscale = scaling(file, hdu, 'BSCALE', 1);
  const bzero = scaling(file, hdu, 'BZERO', 0);
  if (hdu.compression) return compressedImageReader(file, hdu, hdu.compression, { bscale, bzero, blank: compressedBlank(file, hdu) });
  const [width = 1, height = 1, ...rest] = hdu.axes;
  const planes = rest.reduce((product, length) => product * length, 1);
  const size = Math.abs(hdu.bitpix) / 8;
  if (hdu.dataBytes < width * height * size) {
    // Only a GCOUNT of 0 can make the data unit smaller than its first plane.
    throw new FitsReadError(file.fileName, `has a damaged header in HDU ${hdu.index}: its data unit is smaller than one ${width} x ${height} image`);
  }
  const scaled = bscale !== 1 || bzero !== 0;
  const blank = hdu.bitpix > 0 && hdu.bitpix < 64 ? blankValue(file, hdu) : undefined;
  const blankHalves = hdu.bitpix === 64 ? blank64(file, hdu) : undefined;
  const readRows = (first: number, count: number, out: Float32Array | Float64Array): void => {
    const bytes = file.read(hdu.dataOffset + first * width * size, count * width * size, 'passing');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    const target = out.subarray(0, count * width);
    if (hdu.bitpix < 0) decodeFloats(view, target, scaled, bscale, bzero);
    else if (hdu.bitpix === 64) decodeInt64(view, target, bscale, bzero, blankHalves);
    else decodeIntegers(view, hdu.bitpix, target, bscale, bzero, blank);
  };
  const single = hdu.bitpix === 8 || hdu.bitpix === 16 || hdu.bitpix === -32;
  return { hdu: index, width, height, bitpix: hdu.bitpix, bscale, bzero, planes, single, rowsPerTile: 1, readRows };
}

/** Why an HDU the caller asked for shows no image: where the images are, or the compression it cannot decode. */
function notAnImage(file: FitsFile, hdu: FitsHdu): string {
  const compression = hdu.compression;
  if (compression && !compression.decoded)
    return `it is tile-compressed with ${compression.algorithm}, which this reader does not decode (it decodes RICE_1, GZIP_1 and GZIP_2); ${imageList(file)}`;
  if (compression) return `its tile-compressed image has impossible ZBITPIX, ZNAXISn or ZTILEn values; ${imageList(file)}`;
  return imageList(file);
}

/** A tile-compressed integer image's blank value: ZBLANK, or the image's own BLANK that the header carries over. */
function compressedBlank(file: FitsFile, hdu: FitsHdu): number | undefined {
  return hdu.compression?.zblank ?? blankValue(file, hdu);
}

/**
 * Floats are copied into the output's memory with each value's bytes put in this machine's order: several times
 * faster than a DataView getter per value (decoding was the quick-look's largest step after the clip), and every
 * bit is kept, -0 and NaN included.
 */
function decodeFloats(view: DataView, out: Float32Array | Float64Array, scaled: boolean, bscale: number, bzero: number): void {
  copyBigEndianWords(view, new Uint32Array(out.buffer, out.byteOffset, (out.length * out.BYTES_PER_ELEMENT) / 4), out.BYTES_PER_ELEMENT);
  if (scaled) for (let i = 0; i < out.length; i += 1) out[i] = out[i]! * bscale + bzero;
}

/** Whether this machine stores numbers little end first (every machine Electron runs on does). */
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Big-endian values of `size` bytes (4 or 8) from `view` into `words` (the output's memory as 32-bit words), in
 * this machine's order. On a little-endian machine each word's bytes are reversed and, for 8-byte values, the
 * two words of a value exchanged (its high word comes first in the file, last in memory). Whole words are read
 * where the data start on a 4-byte boundary, bytes otherwise (a word built from bytes by shifting has the same
 * value on any machine, so only the exchange of words depends on the byte order).
 */
function copyBigEndianWords(view: DataView, words: Uint32Array, size: number): void {
  const count = words.length;
  const pair = size === 8 && LITTLE_ENDIAN_HOST ? 1 : 0; // word i of the output is word i ^ 1 of the input
  if (LITTLE_ENDIAN_HOST && view.byteOffset % 4 === 0) {
    const input = new Uint32Array(view.buffer, view.byteOffset, count);
    for (let i = 0; i < count; i += 1) {
      const word = input[i ^ pair]!;
      words[i] = (word << 24) | ((word & 0xff00) << 8) | ((word >>> 8) & 0xff00) | (word >>> 24);
    }
    return;
  }
  const bytes = new Uint8Array(view.buffer, view.byteOffset, count * 4);
  for (let i = 0; i < count; i += 1) {
    const at = (i ^ pair) * 4;
    words[i] = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
  }
}

function decodeIntegers(view: DataView, bitpix: number, out: Float32Array | Float64Array, bscale: number, bzero: number, blank: number | undefined): void {
  const count = out.length;
  const marker = blank ?? Number.NaN; // no integer equals NaN: without BLANK no pixel is blank
  if (bitpix === 8) {
    for (let i = 0; i < count; i += 1) {
      const stored = view.getUint8(i);
      out[i] = stored === marker ? Number.NaN : stored * bscale + bzero;
    }
  } else if (bitpix === 16) {
    for (let i = 0; i < count; i += 1) {
      const stored = view.getInt16(i * 2);
      out[i] = stored === marker ? Number.NaN : stored * bscale + bzero;
    }
  } else {
    for (let i = 0; i < count; i += 1) {
      const stored = view.getInt32(i * 4);
      out[i] = stored === marker ? Number.NaN : stored * bscale + bzero;
    }
  }
}

/** 64-bit integers as two 32-bit halves: exact up to 2^53, rounded once beyond (as Number(bigint) rounds). */
function decodeInt64(view: DataView, out: Float32Array | Float64Array, bscale: number, bzero: number, blank: readonly [number, number] | undefined): void {
  const [blankHigh, blankLow] = blank ?? [Number.NaN, Number.NaN];
  for (let i = 0; i < out.length; i += 1) {
    const high = view.getInt32(i * 8);
    const low = view.getUint32(i * 8 + 4);
    out[i] = high === blankHigh && low === blankLow ? Number.NaN : (high * 4294967296 + low) * bscale + bzero;
  }
}

function scaling(file: FitsFile, hdu: FitsHdu, keyword: 'BSCALE' | 'BZERO', fallback: number): number {
  const value = hdu.values.get(keyword) ?? fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || (keyword === 'BSCALE' && value === 0)) {
    throw new FitsReadError(file.fileName, `has a damaged header in HDU ${hdu.index}: ${keyword} = ${String(value)}, which is not a usable number`);
  }
  return value;
}

/** BLANK of an 8-, 16- or 32-bit image (ignored for floats, as the standard says). */
function blankValue(file: FitsFile, hdu: FitsHdu): number | undefined {
  const value = hdu.values.get('BLANK');
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new FitsReadError(file.fileName, `has a damaged header in HDU ${hdu.index}: BLANK = ${String(value)}, which is not a whole number`);
  }
  return value;
}

/** BLANK of a 64-bit image, read from the card's own text: beyond 2^53 a Number would not hold it exactly. */
function blank64(file: FitsFile, hdu: FitsHdu): [number, number] | undefined {
  const card = hdu.cards.find((candidate) => candidate.keyword === 'BLANK');
  if (!card) return undefined;
  const text = /^BLANK {3}=\s*([+-]?\d+)\s*(?:\/.*)?$/.exec(card.records[0]!.trimEnd())?.[1];
  if (text === undefined) {
    throw new FitsReadError(file.fileName, `has a damaged header in HDU ${hdu.index}: BLANK = ${String(card.value)}, which is not a whole number`);
  }
  const value = BigInt.asUintN(64, BigInt(text));
  return [Number(BigInt.asIntN(32, value >> 32n)), Number(value & 0xffffffffn)];
}

/** Where the images are, so a message can say which HDU to ask for instead (the first few, for a file of thousands). */
export function imageList(file: FitsFile): string {
  const images = file.hdus.filter((hdu) => hdu.isImage).map((hdu) => String(hdu.index));
  if (images.length === 1) return `its image is in HDU ${images[0]}`;
  if (images.length > 1) return `its images are in HDUs ${shortList(images)}`;
  const undecoded = file.hdus.filter((hdu) => hdu.compression && !hdu.compression.decoded);
  if (undecoded.length === 0) return 'it holds no image at all';
  const which = undecoded.map((hdu) => `HDU ${hdu.index} is tile-compressed with ${hdu.compression!.algorithm}`);
  return `it holds no image this reader decodes: ${shortList(which)}, which it does not decode (it decodes RICE_1, GZIP_1 and GZIP_2)`;
}

/** How many items a message names before it says how many more there are. */
const LISTED_ITEMS = 5;

/**
 * "2, 3, 4, 5, 6 and 99,995 more": a message about a file of 100,000 HDUs stays one short line instead of naming
 * every one of them.
 */
export function shortList(items: readonly string[], most: number = LISTED_ITEMS): string {
  const named = items.slice(0, most).join(', ');
  return items.length > most ? `${named} and ${grouped(items.length - most)} more` : named;
}
