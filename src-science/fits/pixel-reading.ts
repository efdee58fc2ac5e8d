// What one pixel of an image says, as the quick-look's readout and `mlso-dl pixel` show it: its value with BUNIT and
// where it is (world-coordinates.ts). One function for both, so the app and the command line never disagree.
import type { FitsValue } from './fits-cards';
import type { FitsFile } from './fits-file';
import { worldCoordinatesOf, type PixelPlace } from './world-coordinates';

export interface PixelReading {
  /** The pixel as FITS counts (from 1; row 1 is the bottom one). */
  pixel: { x: number; y: number };
  /** The physical value (BSCALE and BZERO applied); null for a blank pixel (NaN, or BLANK). */
  value: number | null;
  /** BUNIT, or null when the header gives none. */
  unit: string | null;
  /** Where the pixel is, or null with `noWorldCoordinates` saying why. */
  world: (PixelPlace & { kind: 'helioprojective' | 'linear'; sunRadiusArcsec: number | null }) | null;
  noWorldCoordinates?: string;
}

/**
 * The HDU's keywords, with the primary header's beneath an extension's: UCoMP and others keep the observation's
 * keywords (the Sun's radius, sometimes the coordinates) in the primary header only (FITS's INHERIT convention).
 */
export function keywordsOf(file: FitsFile, index: number): ReadonlyMap<string, FitsValue> {
  const own = file.hdus[index]!.values;
  if (index === 0) return own;
  const primary = file.hdus[0]?.values;
  if (!primary || primary.get('INHERIT') === false) return own;
  return new Map([...primary, ...own]);
}

/** Reads pixels of one image: its value with the unit, and where it is. */
export type PixelReader = (x: number, y: number, value: number) => PixelReading;

/**
 * The reader of HDU `hdu`'s pixels under its keywords: BUNIT and the world coordinates are found once, so a pointer
 * moving over the image (a reading per move) computes only each pixel's place.
 */
export function pixelReader(keywords: ReadonlyMap<string, FitsValue>, hdu: number): PixelReader {
  const bunit = keywords.get('BUNIT');
  const unit = typeof bunit === 'string' && bunit.trim() !== '' ? bunit.trim() : null;
  const found = worldCoordinatesOf(keywords);
  return (x, y, value) => {
    const reading: PixelReading = { pixel: { x, y }, value: Number.isNaN(value) ? null : value, unit, world: null };
    if ('reason' in found) reading.noWorldCoordinates = `HDU ${hdu} has no world coordinates: ${found.reason}.`;
    else reading.world = { kind: found.kind, sunRadiusArcsec: found.sunRadiusArcsec ?? null, ...found.placeOf(x, y) };
    return reading;
  };
}

/** The reading of pixel (x, y) of HDU `hdu`, whose value is `value`, under the HDU's keywords. */
export function pixelReading(keywords: ReadonlyMap<string, FitsValue>, hdu: number, x: number, y: number, value: number): PixelReading {
  return pixelReader(keywords, hdu)(x, y, value);
}

/** 3007, 0.5, 1.234568e-8: seven significant digits at most, as a float32 value holds. */
export function shortNumber(value: number): string {
  return String(Number(value.toPrecision(7)));
}
