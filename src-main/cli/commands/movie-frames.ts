// The frames of a movie, one at a time: each FITS file's image decoded, shrunk to --size, clipped through the one
// clip every frame shares and stretched into the colour map's 256 levels, with its DATE-OBS burned into the
// lower-left corner. The clip is the first frame's, found as `quicklook` finds it (every finite pixel of the image
// at full size, exactly), so the first frame shows each pixel at the level the quick look of its file does; for a
// running difference it is the first difference's, about zero. Only the frame in hand (and, for a difference, the
// one before it) is ever decoded: memory stays flat however long the sequence.
import { shortBlockWarning } from '../../../src-science/fits/fits-file';
import { keywordsOf } from '../../../src-science/fits/pixel-reading';
import { downscale } from '../../../src-science/fits/image-downscale';
import type { Pixels } from '../../../src-science/fits/image-percentiles';
import { displayBytes, type ClipRange, type StretchName } from '../../../src-science/fits/image-stretch';
import { difference, differenceGrey, symmetric } from '../../../src-science/fits/frame-grey';
import { exactClip } from '../../../src-science/fits/streamed-quicklook';
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
  /** The file ends short of a whole block and is read as astropy reads it: the line saying so. */
  shortBlock?: string;
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
      const shortBlock = shortBlockWarning(opened.file);
      return { path, dateObs: typeof dateObs === 'string' && dateObs.trim() !== '' ? dateObs.trim() : null, ...(shortBlock ? { shortBlock } : {}) };
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
  let previous: Pixels | undefined;
  let size: { width: number; height: number } | undefined;
  for (const input of inputs) {
    const clipped = !choice.difference && clip === undefined;
    const { pixels, width, height, wholeClip } = decodedFrame(input.path, choice, clipped);
    if (size && (size.width !== width || size.height !== height)) {
      throw new UsageError(
        `${input.path} is ${width} x ${height} pixels and the frames before it ${size.width} x ${size.height}: a movie's frames must be one size.`,
      );
    }
    size = { width, height };
    const label = input.dateObs ? `${input.dateObs.replace('T', ' ').replace(/Z$/, '').slice(0, 19)} UT` : input.path;
    if (!choice.difference) {
      if (clip === undefined) clip = wholeClip ?? null;
      yield { levels: displayBytes(pixels, width, height, { stretch: choice.stretch, low: clip?.low ?? 0, high: clip?.high ?? 0 }), width, height, label };
      continue;
    }
    if (previous) {
      const change = difference(pixels, previous);
      if (clip === undefined) {
        const found = exactClip((visit) => visit(change), choice.percents);
        clip = found && symmetric(found);
      }
      yield { levels: differenceGrey(change, width, height, clip, choice.stretch), width, height, label: `${label} minus the frame before` };
    }
    previous = pixels;
  }
}

/**
 * The frame's pixels at the movie's size, in the precision the reader gives them (as `quicklook` shrinks and
 * stretches them); with `clipped`, also the clip of the image at full size, as `quicklook` finds it.
 */
function decodedFrame(path: string, choice: MovieChoice, clipped: boolean): { pixels: Pixels; width: number; height: number; wholeClip?: ClipRange | null } {
  const opened = openFitsFile(path);
  try {
    const image = chosenImage(opened.file, choice.hdu);
    const pixels = image.single ? new Float32Array(image.width * image.height) : new Float64Array(image.width * image.height);
    decoded(() => image.readRows(0, image.height, pixels));
    const wholeClip = clipped ? { wholeClip: exactClip((visit) => visit(pixels), choice.percents) } : {};
    if (choice.size === undefined) return { pixels, width: image.width, height: image.height, ...wholeClip };
    return { ...downscale(pixels, image.width, image.height, choice.size), ...wholeClip };
  } finally {
    opened.close();
  }
}
