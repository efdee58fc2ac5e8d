// TAI - UTC as astropy 5.2 (ERFA) gives it, which sunpy's rotation starts were converted with: 0 before 1960, the
// drifting 1960s, then whole leap seconds. Values printed by astropy: (Time(d, scale='utc').tai - Time(d)) in s.
import { describe, expect, it } from 'vitest';
import { taiMinusUtcSeconds, ttFromUtc } from '../../../src-science/astro/time-scales';

describe('TAI - UTC', () => {
  it.each([
    ['1853-11-09T00:00:00Z', 0],
    ['1959-12-31T00:00:00Z', 0],
    ['1960-01-01T00:00:00Z', 0.943482],
    ['1961-01-01T00:00:00Z', 1.422818],
    ['1962-06-01T00:00:00Z', 2.015461],
    ['1965-06-15T00:00:00Z', 3.85397],
    ['1972-01-01T00:00:00Z', 10],
    ['1990-01-01T00:00:00Z', 25],
    ['2016-12-31T23:59:59Z', 36],
    ['2017-01-01T00:00:00Z', 37],
    ['2077-01-01T00:00:00Z', 37],
  ])('at %s is %f s', (iso, seconds) => {
    expect(taiMinusUtcSeconds(Date.parse(iso))).toBeCloseTo(seconds, 5);
  });

  it('TT runs 69.184 s ahead of UTC since 2017', () => {
    const utc = Date.parse('2025-03-02T12:00:00Z');
    expect(ttFromUtc(utc) - utc).toBeCloseTo(69_184, 6);
  });
});
