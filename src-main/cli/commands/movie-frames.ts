// The frames of a movie, one at a time: each FITS file's image decoded, shrunk to --size, clipped through the one
// clip every frame shares (the first frame's percentiles, or for a running difference the first difference's,
// about zero) and stretched into the colour map's 256 levels, with its DATE-OBS burned into the lower-left corner.
// Only the frame in hand (and, for a difference, the one before it) is ever decoded: memory stays flat however
// long the sequence.
import { keywordsOf } from '../../../src-shared/fits/pixel-reading';
import { downscale } from '../../../src-shared/fits/image-downscale';
import { displayBytes, type ClipRange, type StretchName } from '../../../src-shared/fits/image-stretch';
import { difference, differenceGrey, sampledClip, symmetric } from '../../../src-shared/fits/frame-grey';
import { UsageError } from '../exit-codes';
import { chosenImage, decoded } from './fits-file-input';
import { openFitsFile } from './fits-file-on-disk';

export interface MovieChoice {
  stretch: StretchName;
  percents: [number, number];
  size: number | undefined;
  hdu: number | undefined;
  difference: boolean;
}

/** A file of the sequence, with the DATE-OBS its frame is ordered and labelled by. */
export interface MovieInput {
  path: string;
  dateObs: string | null;
}

export interface MovieFrame {
  /** Colour-map levels, top row first. */
  levels: Uint8Array;
  width: number;
  height: number;
  label: string;
}

/** The files in time order (DATE-OBS of the image HDU, then name), kept within --from and --to when given. */
export function orderedInputs(paths: readonly string[], hdu: number | undefined, from: string | undefined, to: string | undefined): MovieInput[] {
  const inputs = paths.map((path) => {
    const opened = openFitsFile(path);
    try {
      const image = chosenImage(opened.file, hdu);
      const dateObs = keywordsOf(opened.file, image.hdu).get('DATE-OBS');
      return { path, dateObs: typeof dateObs === 'string' && dateObs.trim() !== '' ? dateObs.trim() : null };
    } finally {
      opened.close();
    }
  });
  const within = inputs.filter(({ dateObs }) => (from === undefined || (dateObs ?? '') >= from) && (to === undefined || (dateObs ?? '') <= `${to}\uffff`));
  return within.sort((a, b) => (a.dateObs ?? '').localeCompare(b.dateObs ?? '') || a.path.localeCompare(b.path));
}

/** Yields the frames: every input's, or with a running difference every input's but the first. */
export function* movieFrames(inputs: readonly MovieInput[], choice: MovieChoice): Generator<MovieFrame> {
  let clip: ClipRange | null | undefined;
  let previous: Float32Array | undefined;
  let size: { width: number; height: number } | undefined;
  for (const input of inputs) {
    const { pixels, width, height } = decodedFrame(input.path, choice);
    if (size && (size.width !== width || size.height !== height)) {
      throw new UsageError(
        `${input.path} is ${width} x ${height} pixels and the frames before it ${size.width} x ${size.height}: a movie's frames must be one size.`,
      );
    }
    size = { width, height };
    const label = input.dateObs ? `${input.dateObs.replace('T', ' ').replace(/Z$/, '').slice(0, 19)} UT` : input.path;
    if (!choice.difference) {
      if (clip === undefined) clip = sampledClip(pixels, choice.percents);
      yield { levels: displayBytes(pixels, width, height, { stretch: choice.stretch, low: clip?.low ?? 0, high: clip?.high ?? 0 }), width, height, label };
      continue;
    }
    if (previous) {
      const change = difference(pixels, previous);
      if (clip === undefined) {
        const found = sampledClip(change, choice.percents);
        clip = found && symmetric(found);
      }
      yield { levels: differenceGrey(change, width, height, clip, choice.stretch), width, height, label: `${label} minus the frame before` };
    }
    previous = pixels;
  }
}

function decodedFrame(path: string, choice: MovieChoice): { pixels: Float32Array; width: number; height: number } {
  const opened = openFitsFile(path);
  try {
    const image = chosenImage(opened.file, choice.hdu);
    const pixels = new Float32Array(image.width * image.height);
    decoded(() => image.readRows(0, image.height, pixels));
    if (choice.size === undefined || Math.max(image.width, image.height) <= choice.size) return { pixels, width: image.width, height: image.height };
    const small = downscale(pixels, image.width, image.height, choice.size);
    return { pixels: Float32Array.from(small.pixels), width: small.width, height: small.height };
  } finally {
    opened.close();
  }
}
