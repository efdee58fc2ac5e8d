// A pixel's value as `pixel` prints it, typed as astropy and numpy give it: an integer where the image holds integers
// (exact, past 2^53 too), else a real (Infinity, -Infinity and NaN included). JSON writes both by the rule
// `header --json` uses (json-values.ts), the text by one function, so the two never disagree.
import type { FitsFile } from '../../../src-science/fits/fits-file';
import type { ImageReader } from '../../../src-science/fits/image-reader';
import { storedInteger64 } from '../../../src-science/fits/int64-pixel';
import { shortNumber } from '../../../src-science/fits/pixel-reading';
import { holdsIntegers } from '../../../src-science/fits/pixel-scaling';
import { jsonInteger, jsonReal, type JsonReal } from '../output/json-values';

export type PixelValue = { integer: bigint } | { real: number };

/** Pixel (x, y) of `image`, whose decoded value is `value` (a double: NaN for a blank pixel). */
export function pixelValue(file: FitsFile, image: ImageReader, x: number, y: number, value: number): PixelValue {
  const hasBlank = file.hdus[image.hdu]!.values.has('BLANK');
  if (Number.isNaN(value) || !holdsIntegers(image.bitpix, image.bscale, image.bzero, hasBlank)) return { real: value };
  // BZERO is 0 or 2^63 here, both doubles that are whole numbers exactly.
  const stored = storedInteger64(file, image.hdu, x, y);
  if (stored !== undefined) return { integer: stored + BigInt(image.bzero) };
  // A tile-compressed 64-bit image is decoded into doubles only: past 2^53 its value is the nearest one, a real.
  return Number.isSafeInteger(value) ? { integer: BigInt(value) } : { real: value };
}

export function pixelValueJson(value: PixelValue): number | string | JsonReal {
  return 'integer' in value ? jsonInteger(value.integer) : jsonReal(value.real);
}

/** 3007, 2982553151490137914, 0.1, Infinity; `blank` for NaN (a NaN float or a BLANK integer). */
export function pixelValueText(value: PixelValue): string {
  if ('integer' in value) return value.integer.toString();
  return Number.isNaN(value.real) ? 'blank' : shortNumber(value.real);
}
