// Shrinks an image to fit a square of `maxSize` pixels (thumbnails, `--size`) by averaging: every output pixel
// is the mean of the finite source pixels in its box, and every source pixel falls in exactly one box. Averaging
// keeps faint structure that picking every n-th pixel (nearest) would drop, and it tames the noise. A box of
// NaN only stays NaN; one of infinities and NaN only is that infinity (shown as the full-size image shows it).
// Rows keep their order (FITS order in, FITS order out).
import type { Pixels } from './image-percentiles';

export interface ScaledImage {
  width: number;
  height: number;
  pixels: Pixels;
}

/** The image itself when it fits already; else one whose longer side is `maxSize` (aspect ratio kept, at least 1 pixel). */
export function downscale(pixels: Pixels, width: number, height: number, maxSize: number): ScaledImage {
  if (fitsWithin(width, height, maxSize)) return { width, height, pixels };
  const shrinker = new BoxShrinker(width, height, maxSize);
  shrinker.addRows(pixels, height);
  return shrinker.result();
}

/** Whether a `width` x `height` image fits a `maxSize` square as it is (refusing a size that is no whole number). */
export function fitsWithin(width: number, height: number, maxSize: number): boolean {
  if (!(Number.isInteger(maxSize) && maxSize >= 1)) throw new RangeError(`the largest size must be a whole number of pixels, not ${maxSize}`);
  return width <= maxSize && height <= maxSize;
}

/** The size `downscale` gives a `width` x `height` image for a `maxSize` square. */
export function shrunkSize(width: number, height: number, maxSize: number): { width: number; height: number } {
  if (fitsWithin(width, height, maxSize)) return { width, height };
  const scale = maxSize / Math.max(width, height);
  return { width: Math.max(1, Math.min(maxSize, Math.round(width * scale))), height: Math.max(1, Math.min(maxSize, Math.round(height * scale))) };
}

/**
 * The same shrinking, fed the source rows in order a band at a time: only the output and one output row's sums are
 * held, so an image larger than memory can be shrunk as it is read. Sums are taken in the same order as a whole
 * image's, so the result is the same to the last bit.
 */
export class BoxShrinker {
  readonly outWidth: number;
  readonly outHeight: number;
  private readonly out: Float64Array;
  private readonly columnBox: Int32Array;
  private readonly sums: Float64Array;
  private readonly counts: Uint32Array;
  /** The infinities of each box, added up: what a box without a finite value shows (+inf, -inf, or NaN for both). */
  private readonly infinities: Float64Array;
  /** The next source row expected, and the output row it falls in. */
  private row = 0;
  private outRow = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
    maxSize: number,
  ) {
    const size = shrunkSize(width, height, maxSize);
    this.outWidth = size.width;
    this.outHeight = size.height;
    this.columnBox = boxStarts(width, this.outWidth);
    this.out = new Float64Array(this.outWidth * this.outHeight);
    this.sums = new Float64Array(this.outWidth);
    this.counts = new Uint32Array(this.outWidth);
    this.infinities = new Float64Array(this.outWidth);
  }

  /** The next `rows` source rows, FITS order, from the start of `pixels`. */
  addRows(pixels: Pixels, rows: number): void {
    const { width, columnBox, sums, counts, infinities, outWidth } = this;
    for (let i = 0; i < rows; i += 1, this.row += 1) {
      const offset = i * width;
      for (let box = 0; box < outWidth; box += 1) {
        for (let x = columnBox[box]!; x < columnBox[box + 1]!; x += 1) {
          const value = pixels[offset + x]!;
          if (Number.isFinite(value)) {
            sums[box]! += value;
            counts[box]! += 1;
          } else if (value === Number.POSITIVE_INFINITY || value === Number.NEGATIVE_INFINITY) {
            infinities[box]! += value;
          }
        }
      }
      // The last source row of an output row's box: its means are done.
      while (this.outRow < this.outHeight && this.row + 1 >= boxStart(this.outRow + 1, this.height, this.outHeight)) this.finishRow();
    }
  }

  result(): ScaledImage {
    if (this.row !== this.height) throw new RangeError(`${this.row} of ${this.height} rows were given`);
    return { width: this.outWidth, height: this.outHeight, pixels: this.out };
  }

  private finishRow(): void {
    const { sums, counts, infinities, outWidth } = this;
    for (let box = 0; box < outWidth; box += 1) {
      this.out[this.outRow * outWidth + box] = counts[box]! > 0 ? sums[box]! / counts[box]! : infinities[box] !== 0 ? infinities[box]! : Number.NaN;
    }
    sums.fill(0);
    counts.fill(0);
    infinities.fill(0);
    this.outRow += 1;
  }
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
