// What the window and the FITS worker say to each other: one request per message, answered by id. File bytes
// go to the worker and rendered pixels come back as transferred buffers, never copied.
import type { ClipRange, StretchName } from '../../../src-science/fits/image-stretch';
import type { PixelReading } from '../../../src-science/fits/pixel-reading';
import type { ColormapName } from '../../../src-science/fits/colormaps';
import type { SunOverlay } from '../../../src-science/fits/sun-overlay';
import type { FigureAxes } from '../../../src-science/figures/figure-axes';

/** The lines over an image, or why it has none (no world coordinates, no solar radius). */
export type OverlayAnswer = SunOverlay | { reason: string };

/** A saved figure's axes of an image, or why it has none (no world coordinates). */
export type AxesAnswer = FigureAxes | { reason: string };

export type { PixelReading };

/** A header card as the header list shows it. */
export interface HeaderCard {
  keyword: string;
  /** The value as text: strings as they are, T or F, numbers; empty for commentary cards. */
  value: string;
  comment: string;
}

export interface HduSummary {
  index: number;
  /** `primary`, `IMAGE`, `BINTABLE`, ... */
  type: string;
  name?: string;
  isImage: boolean;
  axes: number[];
  bitpix: number;
  cards: HeaderCard[];
}

export interface OpenedFile {
  /** The worker's handle on the file, for render and close. */
  document: number;
  fileName: string;
  hdus: HduSummary[];
  /** The HDU shown first: the first that holds an image; null when none does. */
  imageHdu: number | null;
  /** The file ends short of a whole 2,880-byte block and is read as astropy reads it: the line saying so. */
  warning?: string;
}

/** How values become colours: a stretch, the percentiles (0 to 100) that clip, and a colour map (grey unless given). */
export interface DisplayChoice {
  stretch: StretchName;
  clipPercents: readonly [number, number];
  colormap?: ColormapName;
}

/** Pixels ready for a canvas: RGBA, top row first. */
export interface RenderedImage {
  width: number;
  height: number;
  rgba: Uint8ClampedArray<ArrayBuffer>;
  /** The values the clip mapped to black and white; null when the image holds no finite value. */
  clip: ClipRange | null;
  /** Planes in the HDU (NAXIS3 and beyond): only the first is shown. */
  planes: number;
}

export interface LoadedFrame {
  width: number;
  height: number;
  /** DATE-OBS of the file's header, when it has one. */
  dateObs: string | null;
  /** INSTRUME (else TELESCOP) of the file's header: whose remembered view the player uses. */
  instrument: string | null;
}

/** A frame could not be rendered yet: the worker does not hold these files (any more); load them and ask again. */
export interface MissingFrames {
  missing: number[];
}

export interface FitsOperations {
  open: { args: { bytes: Uint8Array; fileName: string }; result: OpenedFile };
  render: { args: { document: number; hdu: number; display: DisplayChoice }; result: RenderedImage };
  close: { args: { document: number }; result: null };
  /** A small picture of the file's first image, at most `maxSize` pixels on its longer side. */
  thumbnail: { args: { bytes: Uint8Array; fileName: string; maxSize: number; display: DisplayChoice }; result: RenderedImage };
  /** Decodes a player frame and keeps it (a bounded number of frames are kept) under `key`. */
  'load-frame': { args: { key: number; bytes: Uint8Array; fileName: string }; result: LoadedFrame };
  /**
   * A kept frame, or its difference from `previousKey`, with `clip` (or, when null, the clip of `display`'s
   * percentiles of these very pixels; symmetric about 0 for a difference).
   */
  'render-frame': {
    args: { key: number; previousKey: number | null; display: DisplayChoice; clip: ClipRange | null };
    result: RenderedImage | MissingFrames;
  };
  /** One pixel of an open file's HDU (FITS counts, from 1): its value, unit and place (see pixel-reading.ts). */
  pixel: { args: { document: number; hdu: number; x: number; y: number }; result: PixelReading };
  /** The same of a kept player frame. */
  'frame-pixel': { args: { key: number; x: number; y: number }; result: PixelReading | MissingFrames };
  /** The limb, circles at `solarRadii` and north over an open file's HDU, in its pixels (see sun-overlay.ts). */
  overlay: { args: { document: number; hdu: number; solarRadii: number[] }; result: OverlayAnswer };
  /** The same over a kept player frame. */
  'frame-overlay': { args: { key: number; solarRadii: number[] }; result: OverlayAnswer | MissingFrames };
  /** Helioprojective x and y ticked along an open file's HDU's edges, for a saved figure (see figure-axes.ts). */
  axes: { args: { document: number; hdu: number }; result: AxesAnswer };
  /** The same of a kept player frame. */
  'frame-axes': { args: { key: number }; result: AxesAnswer | MissingFrames };
  /** Forgets every kept frame (the player closed). */
  'drop-frames': { args: null; result: null };
  /** Runs a made-up image through every step once, so the first real quick-look does not pay for cold code. */
  'warm-up': { args: null; result: null };
}

export type FitsOperation = keyof FitsOperations;

export interface FitsRequest<O extends FitsOperation = FitsOperation> {
  id: number;
  op: O;
  args: FitsOperations[O]['args'];
}

/** `fits`: the file itself is at fault (not FITS, cut short, no image); `internal`: anything else. */
export type FitsReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; kind: 'fits' | 'internal'; message: string };

/** The buffers a message can hand over instead of copying (a file's bytes, rendered pixels). */
export function transferablesOf(value: unknown): ArrayBuffer[] {
  if (typeof value !== 'object' || value === null) return [];
  const found = new Set<ArrayBuffer>();
  for (const part of Object.values(value)) {
    if (ArrayBuffer.isView(part) && part.buffer instanceof ArrayBuffer && part.buffer.byteLength > 0) found.add(part.buffer);
  }
  return [...found];
}
