// Carrington rotations as the Astronomical Almanac and sunpy count them. Rotation N begins when the Sun's
// apparent Carrington longitude L0 (the longitude of the point at the centre of the disk as seen from Earth)
// comes round to 0°; rotation 1 began on 1853-11-09. L0 comes from the IAU rotation elements of the Sun (Archinal
// et al. 2018: north pole at RA 286.13°, Dec 63.87°; prime meridian W = 84.176° + 14.1844°/day since J2000), with
// the light travel time from the nearest point of the Sun, and without the aberration of the Earth's motion, as
// sunpy.coordinates.sun.L0 does. test/science/astro/carrington.test.ts checks every start from rotation 1 to 3000
// against sunpy's (test/fixtures/carrington/sunpy-carrington-starts.json): they agree to a few seconds.
// The emulator's cr filter computes the same rule by other means (src-main/emulator/carrington.ts).
import { earthHeliocentricJ2000, type Vector } from './earth-position';
import { julianDateTt, ttFromUtc } from './time-scales';

const MS_PER_DAY = 86_400_000;
const DEG = Math.PI / 180;
const J2000_JD = 2451545;

const POLE_RA = 286.13 * DEG;
const POLE_DEC = 63.87 * DEG;
const PRIME_MERIDIAN_AT_J2000_DEG = 84.176;
const SIDEREAL_DEG_PER_DAY = 14.1844;

const AU_KM = 149_597_870.7;
const SOLAR_RADIUS_KM = 695_700;
const LIGHT_KM_PER_DAY = 299_792.458 * 86_400;

// W counts from the node where the Sun's equator crosses the J2000 equator going north, at RA = pole + 90°; the
// third axis of the Sun's equatorial plane is 90° further along that equator.
const NODE: Vector = [-Math.sin(POLE_RA), Math.cos(POLE_RA), 0];
const POLE: Vector = [Math.cos(POLE_DEC) * Math.cos(POLE_RA), Math.cos(POLE_DEC) * Math.sin(POLE_RA), Math.sin(POLE_DEC)];
const BEYOND_NODE: Vector = [POLE[1] * NODE[2] - POLE[2] * NODE[1], POLE[2] * NODE[0] - POLE[0] * NODE[2], POLE[0] * NODE[1] - POLE[1] * NODE[0]];
const dot = (a: Vector, b: Vector): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** Mean synodic period (days): only to guess where a start lies before finding it exactly. */
const MEAN_SYNODIC_DAYS = 27.2753;
/** Rotation 1 began near JD 2398167.4 (UT): 1853-11-09, late in the day. */
const FIRST_ROTATION_GUESS_MS = (2398167.4 - 2440587.5) * MS_PER_DAY;

const wrapDegrees = (angle: number): number => ((angle % 360) + 360) % 360;

/** The apparent Carrington longitude of the centre of the Sun's disk (L0, degrees in [0, 360)) at a UTC instant. */
export function carringtonLongitude(epochMs: number): number {
  const jdTt = julianDateTt(ttFromUtc(epochMs));
  const earth = earthHeliocentricJ2000(jdTt);
  const earthAlongEquator = Math.atan2(dot(earth, BEYOND_NODE), dot(earth, NODE)) / DEG;
  const distanceKm = Math.hypot(earth[0], earth[1], earth[2]) * AU_KM - SOLAR_RADIUS_KM;
  const emittedJdTt = jdTt - distanceKm / LIGHT_KM_PER_DAY;
  const meridian = PRIME_MERIDIAN_AT_J2000_DEG + SIDEREAL_DEG_PER_DAY * (emittedJdTt - J2000_JD);
  return wrapDegrees(earthAlongEquator - meridian);
}

/** Start of Carrington rotation `n`, in milliseconds since the Unix epoch (UTC): the instant L0 passes 0°. */
export function carringtonRotationStart(n: number): number {
  let epochMs = FIRST_ROTATION_GUESS_MS + (n - 1) * MEAN_SYNODIC_DAYS * MS_PER_DAY;
  // L0 falls by about 13.2° a day (the Sun's 14.18°/day less the Earth's 0.95 to 1.02°/day along its orbit):
  // Newton's steps with that slope land within a millisecond in four or five rounds.
  for (let round = 0; round < 12; round += 1) {
    const past = wrapDegrees(carringtonLongitude(epochMs) + 180) - 180;
    const stepMs = (past / (360 / MEAN_SYNODIC_DAYS)) * MS_PER_DAY;
    epochMs += stepMs;
    if (Math.abs(stepMs) < 0.5) break;
  }
  return Math.round(epochMs);
}

/** The span [start, end) of rotation `n`. */
export function carringtonRotationSpan(n: number): { start: number; end: number } {
  return { start: carringtonRotationStart(n), end: carringtonRotationStart(n + 1) };
}

/** The rotation in progress at an instant: the n with start(n) <= instant < start(n + 1), by the same starts. */
export function carringtonRotationAt(epochMs: number): number {
  let n = Math.floor((epochMs - FIRST_ROTATION_GUESS_MS) / (MEAN_SYNODIC_DAYS * MS_PER_DAY)) + 1;
  while (carringtonRotationStart(n) > epochMs) n -= 1;
  while (carringtonRotationStart(n + 1) <= epochMs) n += 1;
  return n;
}
