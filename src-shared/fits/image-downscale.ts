// Shrinks an image to fit a square of `maxSize` pixels (thumbnails, `--size`) by averaging: every output pixel
// is the mean of the finite source pixels in its box, and every source pixel falls in exactly one box. Averaging
// keeps faint structure that picking every n-th pixel (nearest) would drop, and it tames the noise. A box of
// NaN only stays NaN. Rows keep their order (FITS order in, FITS order out).
import type { Pixels } from './image-percentiles';

export interface ScaledImage {
  width: number;
  height: number;
  pixels: Pixels;
}

/** The image itself when it fits already; else one whose longer side is `maxSize` (aspect ratio kept, at least 1 pixel). */
export function downscale(pixels: Pixels, width: number, height: number, maxSize: number): ScaledImage {
  if (!(Number.isInteger(maxSize) && maxSize >= 1)) throw new RangeError(`the largest size must be a whole number of pixels, not ${maxSize}`);
  if (width <= maxSize && height <= maxSize) return { width, height, pixels };
  const scale = maxSize / Math.max(width, height);
  const outWidth = Math.max(1, Math.min(maxSize, Math.round(width * scale)));
  const outHeight = Math.max(1, Math.min(maxSize, Math.round(height * scale)));
  const columnBox = boxStarts(width, outWidth);
  const out = new Float64Array(outWidth * outHeight);
  const sums = new Float64Array(outWidth);
  const counts = new Uint32Array(outWidth);
  for (let outRow = 0; outRow < outHeight; outRow += 1) {
    sums.fill(0);
    counts.fill(0);
    const firstRow = boxStart(outRow, height, outHeight);
    const endRow = boxStart(outRow + 1, height, outHeight);
    for (let row = firstRow; row < endRow; row += 1) {
      const offset = row * width;
      for (let box = 0; box < outWidth; box += 1) {
        for (let x = columnBox[box]!; x < columnBox[box + 1]!; x += 1) {
          const value = pixels[offset + x]!;
          if (Number.isFinite(value)) {
            sums[box]! += value;
            counts[box]! += 1;
          }
        }
      }
    }
    for (let box = 0; box < outWidth; box += 1) out[outRow * outWidth + box] = counts[box]! > 0 ? sums[box]! / counts[box]! : Number.NaN;
  }
  return { width: outWidth, height: outHeight, pixels: out };
}

/** Where box `index` of `boxes` begins along a side of `length` pixels (box `boxes` begins at the end). */
function boxStart(index: number, length: number, boxes: number): number {
  return Math.floor((index * length) / boxes);
}

function boxStarts(length: number, boxes: number): Int32Array {
  const starts = new Int32Array(boxes + 1);
  for (let box = 0; box <= boxes; box += 1) starts[box] = boxStart(box, length, boxes);
  return starts;
}
