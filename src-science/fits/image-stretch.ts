// From physical pixel values to 8-bit grey levels for a screen or a PNG: clip to [low, high], map that range
// to 0..1, bend it with a stretch (linear, sqrt, log, asinh), scale to 0..255. NaN (and BLANK, which the
// reader made NaN) shows black. Rows come out top first, the way a screen draws them, while FITS stores the
// bottom row first: so the picture looks as it does in ds9.
import { percentiles, type Pixels } from './image-percentiles';

export const STRETCHES = ['linear', 'sqrt', 'log', 'asinh'] as const;
export type StretchName = (typeof STRETCHES)[number];

/** The clip most quick-looks start with: the faintest 1 % and the brightest 0.5 % saturate. */
export const DEFAULT_CLIP_PERCENTS: readonly [number, number] = [1, 99.5];

// ds9's log stretch: y = log10(a x + 1) / log10(a + 1) with its default exponent a = 1000.
const LOG_EXPONENT = 1000;
// astropy's AsinhStretch: y = asinh(x / a) / asinh(1 / a), linear below about a, logarithmic above; a = 0.1.
const ASINH_SOFTENING = 0.1;

/** The stretch of a value already mapped to 0..1; each maps 0 to 0 and 1 to 1 and never decreases. */
export const STRETCH_FUNCTIONS: Readonly<Record<StretchName, (x: number) => number>> = {
  linear: (x) => x,
  sqrt: (x) => Math.sqrt(x),
  log: (x) => Math.log10(LOG_EXPONENT * x + 1) / Math.log10(LOG_EXPONENT + 1),
  asinh: (x) => Math.asinh(x / ASINH_SOFTENING) / Math.asinh(1 / ASINH_SOFTENING),
};

export interface ClipRange {
  low: number;
  high: number;
}

/** The values at the `lowPercent` and `highPercent` percentiles (NaN ignored); null for an image without a finite value. */
export function percentileClip(pixels: Pixels, lowPercent: number, highPercent: number): ClipRange | null {
  if (!(lowPercent < highPercent)) throw new RangeError(`the lower percentile (${lowPercent}) must be below the upper one (${highPercent})`);
  const found = percentiles(pixels, [lowPercent, highPercent]);
  return found ? { low: found[0]!, high: found[1]! } : null;
}

export interface DisplayOptions extends ClipRange {
  stretch: StretchName;
}

/**
 * The grey level (0..255) of one value. With `high <= low` (a constant image, or one mostly of one value) every
 * value is black: a clip range of no width says nothing about brightness, so the picture is uniform, as
 * matplotlib's Normalize (under astropy's ImageNormalize) shows it, instead of white wherever a value is above.
 */
export function greyLevel(value: number, options: DisplayOptions): number {
  return levelOf(value, options.low, spanOf(options), STRETCH_FUNCTIONS[options.stretch]);
}

// A power of two, so that step / TABLE_STEPS and x * TABLE_STEPS are exact and a table point never rounds past x.
const TABLE_STEPS = 16384;

/**
 * The grey levels of a `width` x `height` image in FITS order (bottom row first), returned top row first.
 * Log and asinh are costly to compute for every pixel, so a table of the levels at 16384 evenly spaced
 * points of 0..1 answers instead: a point between two table entries of the same level has that level too
 * (the stretches never decrease), and only where the two differ (at most 255 of the intervals) is the level
 * computed. The result is exactly what `greyLevel` gives, several times faster for log and asinh.
 */
export function displayBytes(pixels: Pixels, width: number, height: number, options: DisplayOptions): Uint8Array {
  if (pixels.length < width * height) throw new RangeError(`${pixels.length} pixels cannot fill ${width} x ${height}`);
  const out = new Uint8Array(width * height);
  const { low } = options;
  const span = spanOf(options);
  const stretch = STRETCH_FUNCTIONS[options.stretch];
  const edges = new Uint8Array(TABLE_STEPS + 2);
  for (let step = 0; step <= TABLE_STEPS; step += 1) edges[step] = levelAt(step / TABLE_STEPS, stretch);
  edges[TABLE_STEPS + 1] = edges[TABLE_STEPS]!; // x = 1 falls on the last entry
  for (let row = 0; row < height; row += 1) {
    const from = row * width;
    const to = (height - 1 - row) * width;
    for (let column = 0; column < width; column += 1) {
      const value = pixels[from + column]!;
      if (Number.isNaN(value)) continue; // already 0: black
      const x = positionOf(value, low, span);
      const step = (x * TABLE_STEPS) | 0;
      const below = edges[step]!;
      out[to + column] = below === edges[step + 1] ? below : levelAt(x, stretch);
    }
  }
  return out;
}

/** 0 for a degenerate range: then every value is at 0 (black). */
function spanOf({ low, high }: ClipRange): number {
  return high > low ? high - low : 0;
}

function levelOf(value: number, low: number, span: number, stretch: (x: number) => number): number {
  return Number.isNaN(value) ? 0 : levelAt(positionOf(value, low, span), stretch);
}

/** Where a value lies in the clip range, 0..1 (clipped). */
function positionOf(value: number, low: number, span: number): number {
  if (!(span > 0)) return 0;
  const x = (value - low) / span;
  return x <= 0 ? 0 : x >= 1 ? 1 : x;
}

function levelAt(x: number, stretch: (x: number) => number): number {
  return Math.round(stretch(x) * 255);
}
