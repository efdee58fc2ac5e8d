// A quick look at an image of any size in little memory: the rows are decoded a band at a time, several times
// over (for the exact clip: streamed-percentiles.ts; then for the picture), and never held all at once. What
// is held is the output: its grey levels, and with a size to fit, its averaged pixels. The result is the same,
// pixel for pixel, as decoding the whole image and clipping, shrinking and stretching it in memory.
import type { ImageReader } from './fits-image';
import { BoxShrinker, fitsWithin } from './image-downscale';
import { displayBytes, type ClipRange, type StretchName } from './image-stretch';
import { streamedPercentiles, type ImagePass } from './streamed-percentiles';

/** Pixels decoded at once: a band of 16 MiB of doubles, or one tile's height of rows if that is more. */
export const BAND_PIXELS = 1 << 21;

export interface QuicklookChoice {
  percents: readonly [number, number];
  stretch: StretchName;
  /** Shrink to fit a square of this many pixels (averaging each box), when the image is larger. */
  maxSize?: number;
}

export interface QuicklookPicture {
  /** The clip, from every finite pixel of the full image; null when none is finite. */
  clip: ClipRange | null;
  width: number;
  height: number;
  /** Grey levels, top row first. */
  grey: Uint8Array;
}

export function streamedQuicklook(reader: ImageReader, choice: QuicklookChoice, bandPixels: number = BAND_PIXELS): QuicklookPicture {
  const { width, height } = reader;
  const bandRows = Math.min(height, Math.max(1, Math.floor(bandPixels / width / reader.rowsPerTile)) * reader.rowsPerTile);
  const band = reader.single ? new Float32Array(width * bandRows) : new Float64Array(width * bandRows);
  /** Every band in order: its first row, its row count and its values. */
  const forEachBand = (visit: (first: number, rows: number, values: Float32Array | Float64Array) => void): void => {
    for (let first = 0; first < height; first += bandRows) {
      const rows = Math.min(bandRows, height - first);
      reader.readRows(first, rows, band);
      visit(first, rows, band.subarray(0, rows * width));
    }
  };
  const pass: ImagePass = (visit) => forEachBand((_first, _rows, values) => visit(values));
  const found = streamedPercentiles(pass, choice.percents);
  const clip = found ? { low: found[0]!, high: found[1]! } : null;
  const display = { ...(clip ?? { low: 0, high: 0 }), stretch: choice.stretch };

  if (choice.maxSize !== undefined && !fitsWithin(width, height, choice.maxSize)) {
    const shrinker = new BoxShrinker(width, height, choice.maxSize);
    forEachBand((_first, rows, values) => shrinker.addRows(values, rows));
    const shrunk = shrinker.result();
    return { clip, width: shrunk.width, height: shrunk.height, grey: displayBytes(shrunk.pixels, shrunk.width, shrunk.height, display) };
  }
  const grey = new Uint8Array(width * height);
  forEachBand((first, rows, values) => {
    // displayBytes turns the band upside down; in the picture it ends where the rows above it begin.
    grey.set(displayBytes(values, width, rows, display), (height - first - rows) * width);
  });
  return { clip, width, height, grey };
}
