// Carrington rotations after Meeus, Astronomical Algorithms (2nd ed.), chapter 29.

const UNIX_EPOCH_JD = 2440587.5;
// Meeus' formula gives Terrestrial Time (JDE) while date-obs is UT. ΔT = TT - UT has been ~67-69 s during KCor's and
// UCoMP's lifetime; a fixed 69 s keeps the boundaries within a second or two of the truth.
const DELTA_T_SECONDS = 69;

const DEG = Math.PI / 180;

/** JDE of the start of Carrington rotation `n`. */
export function carringtonRotationStartJde(n: number): number {
  const m = (281.96 + 26.882476 * n) * DEG;
  return 2398140.227 + 27.2752316 * n + 0.1454 * Math.sin(m) - 0.0085 * Math.sin(2 * m) - 0.0141 * Math.cos(2 * m);
}

/** Start of rotation `n` as UT epoch seconds. */
export function carringtonRotationStart(n: number): number {
  return (carringtonRotationStartJde(n) - UNIX_EPOCH_JD) * 86400 - DELTA_T_SECONDS;
}

/** The rotation that contains the UT instant (epoch seconds). */
export function carringtonRotationAt(epochSeconds: number): number {
  const jde = UNIX_EPOCH_JD + (epochSeconds + DELTA_T_SECONDS) / 86400;
  let n = Math.floor((jde - 2398140.227) / 27.2752316);
  // The periodic terms move a start by at most ~0.17 d, so the estimate is off by at most one.
  while (carringtonRotationStartJde(n + 1) <= jde) n++;
  while (carringtonRotationStartJde(n) > jde) n--;
  return n;
}
