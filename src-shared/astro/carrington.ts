// Carrington rotations: the start instant of rotation N after Meeus, Astronomical Algorithms (2nd ed.),
// chapter 29, good to a few minutes, which is ample for showing a rotation's date span beside its number.
// Meeus' formula follows Carrington's original elements; the Astronomical Almanac and sunpy compute the Sun's
// rotation from the IAU's elements (sunpy with the light travel time) and their starts come 3 to 4 minutes
// earlier: test/shared/astro/carrington.test.ts checks this code against both kinds of published start.

const JD_UNIX_EPOCH = 2440587.5;
const MS_PER_DAY = 86_400_000;
const SYNODIC_PERIOD_DAYS = 27.2752316;
const FIRST_ROTATION_BASE_JD = 2398140.227;
// Meeus' formula gives Terrestrial Time (a JDE); UT runs behind it by ΔT, about 69 s since 2015 (64 s in 2000).
// One value for every date keeps the starts within a minute or so over the archive's years; the emulator's cr
// filter uses the same.
const DELTA_T_MS = 69_000;

const degrees = (d: number): number => (d * Math.PI) / 180;

/** Start of Carrington rotation `n` as Meeus gives it: a Julian Ephemeris Day (TT). */
export function carringtonRotationStartJde(n: number): number {
  const m = degrees(281.96 + 26.882476 * n);
  return FIRST_ROTATION_BASE_JD + SYNODIC_PERIOD_DAYS * n + 0.1454 * Math.sin(m) - 0.0085 * Math.sin(2 * m) - 0.0141 * Math.cos(2 * m);
}

/** Start of Carrington rotation `n`, in milliseconds since the Unix epoch (UT). */
export function carringtonRotationStart(n: number): number {
  return (carringtonRotationStartJde(n) - JD_UNIX_EPOCH) * MS_PER_DAY - DELTA_T_MS;
}

/** The span [start, end) of rotation `n`. */
export function carringtonRotationSpan(n: number): { start: number; end: number } {
  return { start: carringtonRotationStart(n), end: carringtonRotationStart(n + 1) };
}

/** The rotation in progress at an instant. */
export function carringtonRotationAt(epochMs: number): number {
  const jd = (epochMs + DELTA_T_MS) / MS_PER_DAY + JD_UNIX_EPOCH;
  let n = Math.floor((jd - FIRST_ROTATION_BASE_JD) / SYNODIC_PERIOD_DAYS);
  // The periodic terms shift a start by at most ~4 hours, so one step either way settles it.
  while (carringtonRotationStart(n) > epochMs) n -= 1;
  while (carringtonRotationStart(n + 1) <= epochMs) n += 1;
  return n;
}
