// From UTC, which JavaScript's Date counts in (without its leap seconds), to Terrestrial Time, the uniform time
// the Sun's rotation and the Earth's orbit run on. TT - UTC = 32.184 s + TAI - UTC, and TAI - UTC is
// the count of leap seconds since 1972 (37 s since 2017; no more are announced, so it stays 37 s ahead).
//
// Before 1972 this follows ERFA (and so astropy and sunpy, whose rotation starts are the reference): from 1960
// to 1971 UTC ran on "rubber seconds", TAI - UTC growing by the published drift between steps; before 1960
// there was no UTC and ERFA takes TAI - UTC as 0, so TT = UT + 32.184 s back to 1853. The Earth's actual
// rotation time then lagged TT by less than that (ΔT was about +7 s in 1853 and -3 s in 1900): the starts of the
// rotations of the 19th century are therefore up to half a minute off true UT, as everyone's are.

const MS_PER_DAY = 86_400_000;
const MJD_UNIX_EPOCH = 40587;
const TT_MINUS_TAI_SECONDS = 32.184;

/** [from this UTC instant (ms), TAI - UTC in seconds at that MJD, the MJD the drift counts from, drift in s/day]. */
type Step = readonly [number, number, number, number];

const month = (year: number, monthNumber: number): number => Date.UTC(year, monthNumber - 1, 1);

// ERFA's table (eraDat), 1960 to 1971 with the drift, then whole leap seconds.
const STEPS: readonly Step[] = [
  [month(1960, 1), 1.417818, 37300, 0.001296],
  [month(1961, 1), 1.422818, 37300, 0.001296],
  [month(1961, 8), 1.372818, 37300, 0.001296],
  [month(1962, 1), 1.845858, 37665, 0.0011232],
  [month(1963, 11), 1.945858, 37665, 0.0011232],
  [month(1964, 1), 3.24013, 38761, 0.001296],
  [month(1964, 4), 3.34013, 38761, 0.001296],
  [month(1964, 9), 3.44013, 38761, 0.001296],
  [month(1965, 1), 3.54013, 38761, 0.001296],
  [month(1965, 3), 3.64013, 38761, 0.001296],
  [month(1965, 7), 3.74013, 38761, 0.001296],
  [month(1965, 9), 3.84013, 38761, 0.001296],
  [month(1966, 1), 4.31317, 39126, 0.002592],
  [month(1968, 2), 4.21317, 39126, 0.002592],
  ...(
    [
      [1972, 1],
      [1972, 7],
      [1973, 1],
      [1974, 1],
      [1975, 1],
      [1976, 1],
      [1977, 1],
      [1978, 1],
      [1979, 1],
      [1980, 1],
      [1981, 7],
      [1982, 7],
      [1983, 7],
      [1985, 7],
      [1988, 1],
      [1990, 1],
      [1991, 1],
      [1992, 7],
      [1993, 7],
      [1994, 7],
      [1996, 1],
      [1997, 7],
      [1999, 1],
      [2006, 1],
      [2009, 1],
      [2012, 7],
      [2015, 7],
      [2017, 1],
    ] as const
  ).map(([year, monthNumber], index): Step => [month(year, monthNumber), 10 + index, 0, 0]),
];

/** TAI - UTC in seconds at a UTC instant (ms since the Unix epoch). */
export function taiMinusUtcSeconds(utcMs: number): number {
  let step: Step | undefined;
  for (const candidate of STEPS) {
    if (candidate[0] > utcMs) break;
    step = candidate;
  }
  if (!step) return 0;
  const [, seconds, driftFromMjd, driftPerDay] = step;
  return seconds + (utcMs / MS_PER_DAY + MJD_UNIX_EPOCH - driftFromMjd) * driftPerDay;
}

/** The TT instant of a UTC one, both as milliseconds on their own clocks since 1970-01-01T00:00. */
export function ttFromUtc(utcMs: number): number {
  return utcMs + (taiMinusUtcSeconds(utcMs) + TT_MINUS_TAI_SECONDS) * 1000;
}

/** Julian date (TT) of a TT instant in ms since 1970-01-01T00:00 TT. */
export function julianDateTt(ttMs: number): number {
  return ttMs / MS_PER_DAY + 2440587.5;
}
