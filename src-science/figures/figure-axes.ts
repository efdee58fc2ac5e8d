// Axes for a figure: helioprojective x and y in arcsec, ticked where sunpy's map plot (astropy's WCSAxes, 5.2)
// ticks them. The values are WCSAxes's: about five steps of 1, 2 or 5 times a power of ten over the coordinate's
// range on the image (widened by a tenth on each side for angles). Each value is ticked wherever its line of
// constant x (or y) crosses an edge of the picture, found through the image's own world coordinates, so a rolled
// or strongly curved image gets its ticks where they are; x is labelled along the bottom, y along the left.
// Checked against astropy in test/fixtures/figure-axes (scripts/fixtures/make_figure_axes.py).
import type { FitsValue } from '../fits/fits-cards';
import { worldCoordinatesOf, type WorldCoordinates } from '../fits/world-coordinates';

type FigureEdge = 'bottom' | 'top' | 'left' | 'right';

export interface AxisTick {
  coordinate: 'x' | 'y';
  edge: FigureEdge;
  /** Where along its edge, as FITS counts it: x for the bottom and top, y for the left and right (edges at 0.5 and NAXIS + 0.5). */
  at: number;
  valueArcsec: number;
  /** Its label ("-1000″"), on the edge its coordinate is labelled along. */
  label?: string;
}

export interface FigureAxes {
  /** Each axis's title, longest first: a figure draws the first that fits beside its picture. */
  titles: { x: string[]; y: string[] };
  ticks: AxisTick[];
}

/** Samples of each edge between which ticks are looked for, as WCSAxes samples its frame. */
const EDGE_SAMPLES = 1000;
/** Points across and up the image at which the coordinates' range is read, as WCSAxes reads it. */
const RANGE_SAMPLES = 50;
const TICKS_WANTED = 5;
const ARCSEC_PER_DEGREE = 3600;
const LABELLED: Readonly<Record<'x' | 'y', FigureEdge>> = { x: 'bottom', y: 'left' };
const TITLES = {
  helioprojective: { x: ['Helioprojective Longitude (Solar-X)', 'Solar-X'], y: ['Helioprojective Latitude (Solar-Y)', 'Solar-Y'] },
  linear: { x: ['Solar-X'], y: ['Solar-Y'] },
};

/** The axes of an image `size` pixels large with these keywords, or why it has none (no world coordinates). */
export function figureAxes(keywords: ReadonlyMap<string, FitsValue>, size: { width: number; height: number }): FigureAxes | { reason: string } {
  const wcs = worldCoordinatesOf(keywords);
  if ('reason' in wcs) return wcs;
  return axesOf(wcs, size.width, size.height);
}

function axesOf(wcs: WorldCoordinates, width: number, height: number): FigureAxes {
  const ticks: AxisTick[] = [];
  for (const coordinate of ['x', 'y'] as const) {
    const valueAt = (x: number, y: number): number => {
      const place = wcs.placeOf(x, y);
      return coordinate === 'x' ? place.xArcsec : place.yArcsec;
    };
    const spacing = tickSpacing(coordinateRange(valueAt, width, height, wcs.kind === 'helioprojective' ? coordinate : undefined));
    const precision = decimalsOf(spacing);
    for (const edge of ['bottom', 'top', 'left', 'right'] as const) {
      const sampled = edgeSamples(valueAt, edge, width, height);
      for (const value of spacing.values) {
        for (const at of crossings(sampled, value)) {
          const tick: AxisTick = { coordinate, edge, at, valueArcsec: value };
          if (edge === LABELLED[coordinate]) tick.label = `${value.toFixed(precision)}″`;
          ticks.push(tick);
        }
      }
    }
  }
  return { titles: TITLES[wcs.kind], ticks };
}

interface Range {
  low: number;
  high: number;
}

/**
 * The coordinate's range over the picture (its outer edges, 0.5 to NAXIS + 0.5), read on a grid as WCSAxes reads
 * it; a helioprojective angle's widened by a tenth of itself each way, within the sphere's limits.
 */
function coordinateRange(valueAt: (x: number, y: number) => number, width: number, height: number, angle: 'x' | 'y' | undefined): Range {
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i <= RANGE_SAMPLES; i += 1) {
    for (let j = 0; j <= RANGE_SAMPLES; j += 1) {
      const value = valueAt(0.5 + (width * i) / RANGE_SAMPLES, 0.5 + (height * j) / RANGE_SAMPLES);
      if (!Number.isFinite(value)) continue;
      low = Math.min(low, value);
      high = Math.max(high, value);
    }
  }
  if (angle === undefined) return { low, high };
  const widen = 0.1 * (high - low);
  // Longitudes below zero keep within -180..180 degrees, others within 0..360; latitudes within -90..90.
  const [floor, ceiling] = angle === 'y' ? [-90, 90] : low < 0 ? [-180, 180] : [0, 360];
  return { low: Math.max(floor * ARCSEC_PER_DEGREE, low - widen), high: Math.min(ceiling * ARCSEC_PER_DEGREE, high + widen) };
}

interface Spacing {
  step: number;
  values: number[];
}

/** About TICKS_WANTED steps over the range, each 1, 2 or 5 times a power of ten (the nearest in log), at its multiples. */
function tickSpacing({ low, high }: Range): Spacing {
  const wanted = Math.abs(high - low) / TICKS_WANTED;
  if (!(wanted > 0) || !Number.isFinite(wanted)) return { step: 1, values: [] };
  const power = Math.floor(Math.log10(wanted));
  const fraction = Math.log10(wanted) - power;
  const mantissa = [1, 2, 5, 10].reduce((best, each) => (Math.abs(fraction - Math.log10(each)) < Math.abs(fraction - Math.log10(best)) ? each : best));
  const step = clean(mantissa * 10 ** power);
  const values: number[] = [];
  for (let i = Math.ceil(low / step); i <= Math.floor(high / step); i += 1) values.push(clean(i * step) + 0);
  return { step, values };
}

/** A multiple of a power of ten without the binary noise of its product (499.99999999999994 is 500). */
function clean(value: number): number {
  return Number(value.toPrecision(12));
}

/** Decimals a step needs (0 for 500, 1 for 0.5), as WCSAxes formats its labels. */
function decimalsOf({ step }: Spacing): number {
  const decimals = step.toFixed(10).split('.')[1]!.replace(/0+$/, '');
  return decimals.length;
}

interface EdgeSamples {
  /** The coordinate at a place along the edge (FITS counts along it). */
  along: (at: number) => number;
  /** The places sampled, 0.5 to the edge's far end, and the coordinate at each. */
  places: Float64Array;
  values: Float64Array;
}

/** The coordinate along `edge` at EDGE_SAMPLES + 1 places, read once for every tick value. */
function edgeSamples(valueAt: (x: number, y: number) => number, edge: FigureEdge, width: number, height: number): EdgeSamples {
  const horizontal = edge === 'bottom' || edge === 'top';
  const length = horizontal ? width : height;
  const fixed = { bottom: 0.5, top: height + 0.5, left: 0.5, right: width + 0.5 }[edge];
  const along = (at: number): number => (horizontal ? valueAt(at, fixed) : valueAt(fixed, at));
  const places = new Float64Array(EDGE_SAMPLES + 1);
  const values = new Float64Array(EDGE_SAMPLES + 1);
  for (let sample = 0; sample <= EDGE_SAMPLES; sample += 1) {
    places[sample] = 0.5 + (length * sample) / EDGE_SAMPLES;
    values[sample] = along(places[sample]!);
  }
  return { along, places, values };
}

/** Places along an edge where the coordinate is `value`: between its samples, then to a millionth of a pixel. */
function crossings({ along, places, values }: EdgeSamples, value: number): number[] {
  const found: number[] = [];
  const difference = (sample: number): number => values[sample]! - value;
  // A sample right on the value is a crossing unless the edge runs along the value's line (as a linear axis's
  // side does): there the line is the edge, not a tick.
  if (difference(0) === 0 && difference(1) !== 0) found.push(places[0]!);
  for (let sample = 1; sample <= EDGE_SAMPLES; sample += 1) {
    const [before, next] = [difference(sample - 1), difference(sample)];
    if (next === 0 && before !== 0) found.push(places[sample]!);
    else if (before * next < 0) found.push(bisect((at) => along(at) - value, places[sample - 1]!, places[sample]!, before));
  }
  return found;
}

/** The root of `f` between a and b, where f changes sign, to a millionth of a pixel. */
function bisect(f: (at: number) => number, a: number, b: number, fa: number): number {
  let low = a;
  let high = b;
  let lowValue = fa;
  while (high - low > 1e-6) {
    const middle = (low + high) / 2;
    const value = f(middle);
    if (value === 0) return middle;
    if (value * lowValue < 0) high = middle;
    else {
      low = middle;
      lowValue = value;
    }
  }
  return (low + high) / 2;
}
