// A quick look at an image of any size in little memory: the rows are decoded a band at a time, several times
// over (for the exact clip: streamed-percentiles.ts; then for the picture), and never held all at once. The
// picture's grey levels go to the caller a band at a time, top row first (the command line compresses them
// into the PNG as they come); with a size to fit, the averaged pixels of the smaller picture are held. The result
// is the same, pixel for pixel, as decoding the whole image and clipping, shrinking and stretching it in memory.
import type { ImageReader } from './image-reader';
import { BoxShrinker, fitsWithin } from './image-downscale';
import { displayBytes, type ClipRange, type StretchName } from './image-stretch';
import { streamedPercentiles, type ImagePass } from './streamed-percentiles';

/** Pixels decoded at once: a band of 16 MiB of doubles, or one tile's height of rows if that is more. */
const BAND_PIXELS = 1 << 21;

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

/** The picture's grey levels as they are made, top row first: `grey` holds `rows` whole rows, and is the caller's to keep. */
export type GreyRows = (grey: Uint8Array, rows: number) => void;

/**
 * The display clip at two percentiles of every finite pixel `pass` visits, exactly (no sample): what `quicklook`
 * clips by, and `movie` too, so a movie's frame and the quick look of its file show each pixel at one level.
 */
export function exactClip(pass: ImagePass, percents: readonly [number, number]): ClipRange | null {
  const found = streamedPercentiles(pass, percents);
  return found ? { low: found[0]!, high: found[1]! } : null;
}

/** The whole picture in memory: `streamedQuicklookRows` with its rows gathered. */
export function streamedQuicklook(reader: ImageReader, choice: QuicklookChoice, bandPixels: number = BAND_PIXELS): QuicklookPicture {
  const parts: Uint8Array[] = [];
  const { clip, width, height } = streamedQuicklookRows(reader, choice, (grey) => parts.push(grey), bandPixels);
  const grey = new Uint8Array(width * height);
  let at = 0;
  for (const part of parts) {
    grey.set(part, at);
    at += part.length;
  }
  return { clip, width, height, grey };
}

/**
 * The picture handed to `onRows` a band at a time, top row first, so that a caller writing it (a PNG encoder)
 * need not hold it either; returns its size and clip.
 */
export function streamedQuicklookRows(
  reader: ImageReader,
  choice: QuicklookChoice,
  onRows: GreyRows,
  bandPixels: number = BAND_PIXELS,
): Omit<QuicklookPicture, 'grey'> {
  const { width, height } = reader;
  // Bands begin at whole tiles, counted from the bottom row, so no tile is decoded twice in a pass.
  const bandRows = Math.min(height, Math.max(1, Math.floor(bandPixels / width / reader.rowsPerTile)) * reader.rowsPerTile);
  const bands = Math.ceil(height / bandRows);
  const band = reader.single ? new Float32Array(width * bandRows) : new Float64Array(width * bandRows);
  /** Every band, bottom first or (`downwards`) top first: its row count and its values. */
  const forEachBand = (visit: (rows: number, values: Float32Array | Float64Array) => void, downwards = false): void => {
    for (let step = 0; step < bands; step += 1) {
      const first = (downwards ? bands - 1 - step : step) * bandRows;
      const rows = Math.min(bandRows, height - first);
      reader.readRows(first, rows, band);
      visit(rows, band.subarray(0, rows * width));
    }
  };
  const clip = exactClip((visit) => forEachBand((_rows, values) => visit(values)), choice.percents);
  const display = { ...(clip ?? { low: 0, high: 0 }), stretch: choice.stretch };

  if (choice.maxSize !== undefined && !fitsWithin(width, height, choice.maxSize)) {
    const shrinker = new BoxShrinker(width, height, choice.maxSize);
    forEachBand((rows, values) => shrinker.addRows(values, rows));
    const shrunk = shrinker.result();
    onRows(displayBytes(shrunk.pixels, shrunk.width, shrunk.height, display), shrunk.height);
    return { clip, width: shrunk.width, height: shrunk.height };
  }
  // displayBytes turns each band upside down, so bands read from the top down come out top row first.
  forEachBand((rows, values) => onRows(displayBytes(values, width, rows, display), rows), true);
  return { clip, width, height };
}
