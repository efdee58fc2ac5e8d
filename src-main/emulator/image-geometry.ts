// Where the Sun is in a synthetic image and how the image maps to the sky, as a real level 2 file's header says
// it: helioprojective axes (HPLN-TAN / HPLT-TAN) in arcsec, the Sun's centre at CRPIX (a few pixels off the
// array's centre, differing from file to file as real pointing does), a small roll (CROTA2, with INST_ROT), and the
// Sun's apparent radius for the date (RSUN_OBS from the Earth-Sun distance DSUN_OBS). The picture is drawn from the
// same numbers (synthetic-fits.ts), so a reader that follows the header finds the occulter where it says. The
// emulator computes this itself, independently of the client's code (src-science/fits/world-coordinates.ts).
import { unitHash } from './seeded-random';
import type { InstrumentId } from './instruments';

export interface ImageGeometry {
  /** The Sun's centre, in FITS pixels (1-based): CRPIX1, CRPIX2 (CRVAL is 0, 0: the Sun's centre). */
  centreX: number;
  centreY: number;
  /** Arcsec per pixel on both axes (CDELT1, CDELT2). */
  arcsecPerPixel: number;
  /** Degrees the image is turned from solar north (CROTA2, INST_ROT). */
  rollDeg: number;
  /** The Sun's apparent radius in arcsec (RSUN_OBS) and the observer's distance from it in metres (DSUN_OBS). */
  sunRadiusArcsec: number;
  sunDistanceMetres: number;
}

/** The plate scale of each instrument at the size its level 2 images have (KCor 1024, UCoMP 1280 x 1024). */
const PLATE_SCALE = { kcor: { arcsecPerPixel: 5.643, pixels: 1024 }, ucomp: { arcsecPerPixel: 2.9, pixels: 1280 } } as const;
/** How far the Sun's centre wanders from the array's centre, in pixels at the real size, and the roll in degrees. */
const POINTING = { kcor: { pixels: 2.5, rollDeg: 0.4 }, ucomp: { pixels: 6, rollDeg: 0.8 } } as const;

const SUN_RADIUS_METRES = 695_700_000;
const AU_METRES = 149_597_870_700;
const ARCSEC_PER_RADIAN = (180 / Math.PI) * 3600;

/**
 * The geometry of an image `width` x `height` pixels of `instrument` taken at `dateObs`, varied per `seedText`
 * (the file's name, and the extension's for a UCoMP file: each extension of one file shares the file's pointing,
 * so the seed is the file's name).
 */
export function imageGeometry(instrument: InstrumentId, dateObs: string, width: number, height: number, seedText: string): ImageGeometry {
  const plate = PLATE_SCALE[instrument];
  const pointing = POINTING[instrument];
  // A smaller synthetic image covers the same field of view: its pixels are larger.
  const arcsecPerPixel = (plate.arcsecPerPixel * plate.pixels) / width;
  const wander = (pointing.pixels * width) / plate.pixels;
  const sunDistanceMetres = sunDistanceAu(dateObs) * AU_METRES;
  return {
    centreX: (width + 1) / 2 + wander * (2 * unitHash(seedText, 0xc1) - 1),
    centreY: (height + 1) / 2 + wander * (2 * unitHash(seedText, 0xc2) - 1),
    arcsecPerPixel,
    rollDeg: pointing.rollDeg * (2 * unitHash(seedText, 0xc3) - 1),
    sunRadiusArcsec: Math.asin(SUN_RADIUS_METRES / sunDistanceMetres) * ARCSEC_PER_RADIAN,
    sunDistanceMetres,
  };
}

/**
 * The Earth-Sun distance in AU at a UT instant, from the Sun's mean anomaly (the Astronomical Almanac's low-precision
 * formula, good to about 0.0003 AU, a tenth of an arcsec of the Sun's radius): enough for a synthetic header.
 */
export function sunDistanceAu(dateObs: string): number {
  const days = (Date.parse(`${dateObs.replace(/Z$/, '')}Z`) - Date.UTC(2000, 0, 1, 12)) / 86_400_000;
  const g = ((357.528 + 0.9856003 * days) * Math.PI) / 180;
  return 1.00014 - 0.01671 * Math.cos(g) - 0.00014 * Math.cos(2 * g);
}
