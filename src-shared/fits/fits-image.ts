// Decodes the pixels of an image HDU (standard 4.0, section 5): big-endian integers of 8, 16, 32 or 64 bits or
// IEEE floats of 32 or 64, scaled to physical values (BZERO + BSCALE x stored), with BLANK integers and NaN
// floats both NaN. 8- and 16-bit images and single floats decode into a Float32Array (which holds their stored
// values exactly), 32- and 64-bit integers and doubles into a Float64Array.
import { describeHdu, FitsReadError, missingHdu, type FitsFile, type FitsHdu } from './fits-file';

export interface FitsImage {
  hdu: number;
  /** NAXIS1: pixels per row. */
  width: number;
  /** NAXIS2 (1 for a one-axis image): rows. */
  height: number;
  /** Physical values row by row, FITS order: the first row is the bottom one as ds9 shows it. */
  pixels: Float32Array | Float64Array;
  bitpix: number;
  bscale: number;
  bzero: number;
  /** How many planes NAXIS3 and beyond hold: only the first is decoded. */
  planes: number;
}

/** Pixels of HDU `index` (which must hold an image); throws FitsReadError otherwise. */
export function decodeImage(file: FitsFile, index: number): FitsImage {
  const hdu = file.hdus[index];
  if (!hdu) throw missingHdu(file, index);
  if (!hdu.isImage) throw new FitsReadError(file.fileName, `holds no image in ${describeHdu(hdu)}: ${imageList(file)}`);
  const [width = 1, height = 1, ...rest] = hdu.axes;
  const planes = rest.reduce((product, length) => product * length, 1);
  const bscale = scaling(file, hdu, 'BSCALE', 1);
  const bzero = scaling(file, hdu, 'BZERO', 0);
  const count = width * height;
  const planeBytes = count * (Math.abs(hdu.bitpix) / 8);
  if (hdu.dataBytes < planeBytes) {
    // Only a GCOUNT of 0 can make the data unit smaller than its first plane.
    throw new FitsReadError(file.fileName, `has a damaged header in HDU ${hdu.index}: its data unit is smaller than one ${width} x ${height} image`);
  }
  const view = new DataView(file.bytes.buffer, file.bytes.byteOffset + hdu.dataOffset, planeBytes);
  const pixels = hdu.bitpix === 8 || hdu.bitpix === 16 || hdu.bitpix === -32 ? new Float32Array(count) : new Float64Array(count);
  const scaled = bscale !== 1 || bzero !== 0;
  if (hdu.bitpix < 0) decodeFloats(view, hdu.bitpix, pixels, scaled, bscale, bzero);
  else if (hdu.bitpix === 64) decodeInt64(view, pixels, bscale, bzero, blank64(file, hdu));
  else decodeIntegers(view, hdu.bitpix, pixels, bscale, bzero, blankValue(file, hdu));
  return { hdu: index, width, height, pixels, bitpix: hdu.bitpix, bscale, bzero, planes };
}

// One loop per sample type, each with its own DataView getter: a shared loop calling a getter passed in runs at
// half the speed once V8 has seen more than one of them.
function decodeFloats(view: DataView, bitpix: number, out: Float32Array | Float64Array, scaled: boolean, bscale: number, bzero: number): void {
  const count = out.length;
  // Unscaled values are copied as they are (keeping -0); NaN stays NaN either way.
  if (bitpix === -32) {
    if (scaled) for (let i = 0; i < count; i += 1) out[i] = view.getFloat32(i * 4) * bscale + bzero;
    else for (let i = 0; i < count; i += 1) out[i] = view.getFloat32(i * 4);
  } else if (scaled) for (let i = 0; i < count; i += 1) out[i] = view.getFloat64(i * 8) * bscale + bzero;
  else for (let i = 0; i < count; i += 1) out[i] = view.getFloat64(i * 8);
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

/** Where the images are, so a message can say which HDU to ask for instead. */
export function imageList(file: FitsFile): string {
  const images = file.hdus.filter((hdu) => hdu.isImage).map((hdu) => hdu.index);
  if (images.length === 0) return 'it holds no image at all';
  return images.length === 1 ? `its image is in HDU ${images[0]}` : `its images are in HDUs ${images.join(', ')}`;
}
