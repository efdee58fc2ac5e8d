// Carrington rotations for the emulator's cr filter, by the rule the app uses (src-science/astro/carrington.ts:
// the IAU rotation elements of the Sun, light travel time included, as sunpy and the Astronomical Almanac count
// them) but computed here on its own, so that a slip in either shows up as a disagreement between the two
// (test/emulator/carrington.test.ts): the Sun from Meeus' short solar theory (Astronomical Algorithms, ch. 25,
// the Earth's elliptic motion, with the Moon's and the planets' largest pulls added), everything on the ecliptic and equinox of the date, the Sun's pole
// carried there by the precession of the ecliptic (ch. 21), and each start found by bisection. The two agree to
// well under a minute over the years the emulator serves.

const DEG = Math.PI / 180;
const ARCSEC = DEG / 3600;
const UNIX_EPOCH_JD = 2440587.5;
const J2000_JD = 2451545;
const SECONDS_PER_DAY = 86_400;

/** Leap seconds at and after the start of 2012 (TAI - UTC): enough for any date the emulator makes up. */
const TAI_MINUS_UTC: readonly [number, number][] = [
  [Date.UTC(2012, 6, 1) / 1000, 35],
  [Date.UTC(2015, 6, 1) / 1000, 36],
  [Date.UTC(2017, 0, 1) / 1000, 37],
];

function ttMinusUtcSeconds(epochSeconds: number): number {
  let leap = 34;
  for (const [from, seconds] of TAI_MINUS_UTC) if (epochSeconds >= from) leap = seconds;
  return leap + 32.184;
}

/** A direction as [x, y, z] on the ecliptic and equinox of the date. */
type Direction = [number, number, number];

const fromAngles = (longitude: number, latitude: number): Direction => [
  Math.cos(latitude) * Math.cos(longitude),
  Math.cos(latitude) * Math.sin(longitude),
  Math.sin(latitude),
];
const dot = (a: Direction, b: Direction): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Direction, b: Direction): Direction => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** An equatorial J2000 direction (RA, Dec) on the ecliptic of the date: to the J2000 ecliptic, then Meeus' (21.5). */
function equatorialJ2000ToEclipticOfDate(rightAscension: number, declination: number, t: number): Direction {
  const obliquity2000 = 84381.448 * ARCSEC;
  const [x, y, z] = fromAngles(rightAscension, declination);
  const eclipticY = Math.cos(obliquity2000) * y + Math.sin(obliquity2000) * z;
  const eclipticZ = -Math.sin(obliquity2000) * y + Math.cos(obliquity2000) * z;
  const lambda0 = Math.atan2(eclipticY, x);
  const beta0 = Math.asin(eclipticZ);
  // Precession of the ecliptic from J2000 to the date (t in Julian centuries): Meeus (21.5) with T = 0.
  const eta = (47.0029 - 0.03302 * t + 0.00006 * t * t) * t * ARCSEC;
  const bigPi = (174.876384 * 3600 - 869.8089 * t + 0.03536 * t * t) * ARCSEC;
  const p = (5029.0966 + 1.11113 * t - 0.000006 * t * t) * t * ARCSEC;
  const a = Math.cos(eta) * Math.cos(beta0) * Math.sin(bigPi - lambda0) - Math.sin(eta) * Math.sin(beta0);
  const b = Math.cos(beta0) * Math.cos(bigPi - lambda0);
  const c = Math.cos(eta) * Math.sin(beta0) + Math.sin(eta) * Math.cos(beta0) * Math.sin(bigPi - lambda0);
  return fromAngles(p + bigPi - Math.atan2(a, b), Math.asin(c));
}

// The twelve largest planetary terms of VSOP87's series for the Earth's longitude (Meeus, appendix III) that Meeus'
// short theory leaves out: [amplitude (1e-8 rad), phase (rad), frequency (rad per millennium)]. With them the
// longitude is good to 4" (7 seconds of a rotation's start) instead of 28" over 2013-2025.
const PLANETARY_PULLS: readonly (readonly [number, number, number])[] = [
  [3497, 2.7441, 5753.3849],
  [3418, 2.8289, 3.5231],
  [2676, 4.4181, 7860.4194],
  [2343, 6.1352, 3930.2097],
  [1324, 0.7425, 11506.7698],
  [1273, 2.0371, 529.691],
  [1199, 1.1096, 1577.3435],
  [990, 5.233, 5884.927],
  [902, 2.045, 26.298],
  [857, 3.508, 398.149],
  [780, 1.179, 5223.694],
  [753, 2.533, 5507.553],
];

/** The Earth seen from the Sun's centre, on the ecliptic of the date: [longitude (rad), distance (AU)]. */
function earthFromSun(jde: number): [number, number] {
  const t = (jde - J2000_JD) / 36525;
  const meanLongitude = 280.46646 + 36000.76983 * t + 0.0003032 * t * t;
  const meanAnomaly = (357.52911 + 35999.05029 * t - 0.0001537 * t * t) * DEG;
  const eccentricity = 0.016708634 - 0.000042037 * t - 0.0000001267 * t * t;
  const centre =
    (1.914602 - 0.004817 * t - 0.000014 * t * t) * Math.sin(meanAnomaly) +
    (0.019993 - 0.000101 * t) * Math.sin(2 * meanAnomaly) +
    0.000289 * Math.sin(3 * meanAnomaly);
  // The Earth swings round the Earth-Moon barycentre once a month, 6.5" either way as seen from the Sun, and the
  // planets pull it by a few seconds of arc more.
  const moonElongation = (297.8501921 + 445267.1114034 * t) * DEG;
  let pulls = 6.47 * ARCSEC * Math.sin(moonElongation);
  for (const [amplitude, phase, frequency] of PLANETARY_PULLS) pulls += amplitude * 1e-8 * Math.cos(phase + (frequency * t) / 10);
  const sunLongitude = (meanLongitude + centre) * DEG + pulls;
  const trueAnomaly = meanAnomaly + centre * DEG;
  const distance = (1.000001018 * (1 - eccentricity * eccentricity)) / (1 + eccentricity * Math.cos(trueAnomaly));
  return [sunLongitude + Math.PI, distance];
}

/** The Sun's apparent Carrington longitude (degrees, [0, 360)) at a UT instant (epoch seconds). */
function carringtonLongitude(epochSeconds: number): number {
  const jde = UNIX_EPOCH_JD + (epochSeconds + ttMinusUtcSeconds(epochSeconds)) / SECONDS_PER_DAY;
  const t = (jde - J2000_JD) / 36525;
  // The IAU's pole of the Sun (RA 286.13°, Dec 63.87°) and the node its prime meridian counts from (where the
  // Sun's equator rises through the J2000 equator), both carried onto the ecliptic of the date.
  const pole = equatorialJ2000ToEclipticOfDate(286.13 * DEG, 63.87 * DEG, t);
  const node = equatorialJ2000ToEclipticOfDate((286.13 + 90) * DEG, 0, t);
  const beyondNode = cross(pole, node);
  const [earthLongitude, distanceAu] = earthFromSun(jde);
  const earth = fromAngles(earthLongitude, 0);
  const alongEquator = Math.atan2(dot(earth, beyondNode), dot(earth, node)) / DEG;
  // The meridian seen is where it was when the light left the nearest point of the Sun.
  const lightDays = (distanceAu * 149_597_870.7 - 695_700) / 299_792.458 / SECONDS_PER_DAY;
  const meridian = 84.176 + 14.1844 * (jde - lightDays - J2000_JD);
  return (((alongEquator - meridian) % 360) + 360) % 360;
}

/** Start of rotation `n` as UT epoch seconds: when the Carrington longitude comes round to 0°. */
export function carringtonRotationStart(n: number): number {
  // Rotation 1 began near JD 2398167.4; a rotation takes 27.2753 days on average and any one strays from the
  // mean by well under a day, so the start lies within a day of the estimate. Past 0° means L0 in (180, 360).
  const estimate = (2398167.4 + 27.2753 * (n - 1) - UNIX_EPOCH_JD) * SECONDS_PER_DAY;
  let before = estimate - SECONDS_PER_DAY;
  let after = estimate + SECONDS_PER_DAY;
  const passed = (epochSeconds: number): boolean => carringtonLongitude(epochSeconds) > 180;
  for (let round = 0; round < 40 && after - before > 1e-3; round += 1) {
    const middle = (before + after) / 2;
    if (passed(middle)) after = middle;
    else before = middle;
  }
  return after;
}

/** The rotation that contains the UT instant (epoch seconds). */
export function carringtonRotationAt(epochSeconds: number): number {
  let n = Math.floor((UNIX_EPOCH_JD + epochSeconds / SECONDS_PER_DAY - 2398167.4) / 27.2753) + 1;
  while (carringtonRotationStart(n + 1) <= epochSeconds) n++;
  while (carringtonRotationStart(n) > epochSeconds) n--;
  return n;
}
