// Percentiles found in passes over an image's rows (never holding it) equal those found with the whole image in
// memory: the same ranks, the same interpolation, for any values, however the rows are cut into bands.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentiles } from '../../../src-science/fits/image-percentiles';
import { streamedPercentiles, type ImagePass } from '../../../src-science/fits/streamed-percentiles';

/** A pass over `pixels` in bands of `band` values, through one reused array as the quick-look reads rows. */
function passOver(pixels: Float64Array | Float32Array, band: number): { pass: ImagePass; passes: () => number } {
  let passes = 0;
  const buffer = pixels instanceof Float32Array ? new Float32Array(band) : new Float64Array(band);
  return {
    pass: (visit) => {
      passes += 1;
      for (let first = 0; first < pixels.length; first += band) {
        const count = Math.min(band, pixels.length - first);
        buffer.set(pixels.subarray(first, first + count));
        visit(buffer.subarray(0, count));
      }
    },
    passes: () => passes,
  };
}

/** -0 and 0 are the same pixel value; which of them a selection returns is of no matter. */
const plusZero = (values: number[] | null): number[] | null => values && values.map((value) => (value === 0 ? 0 : value));

describe('streamed percentiles', () => {
  it('equal the in-memory ones for any values, bands and group sizes (down to narrowing every one of the 64 key bits)', () => {
    const value = fc.oneof(
      fc.double(),
      fc.integer({ min: -3, max: 3 }),
      fc.double({ min: -1e-300, max: 1e-300 }),
      fc.constant(Number.NaN),
      fc.constant(Number.POSITIVE_INFINITY),
    );
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 500 }),
        fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 64 }),
        fc.constantFrom(0, 1, 7, 1 << 22),
        (values, percents, band, limit) => {
          const pixels = Float64Array.from(values);
          const { pass } = passOver(pixels, band);
          expect(plusZero(streamedPercentiles(pass, percents, limit))).toEqual(plusZero(percentiles(pixels, percents)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('single floats of an image: 1 and 99.5 % in three passes when the groups are small', () => {
    const pixels = new Float32Array(300_000).map((_, i) => Math.fround(Math.sin(i * 0.37) * 1e-6 + (i % 11 === 0 ? 5e-6 : 0)));
    const { pass, passes } = passOver(pixels, 4096);
    expect(streamedPercentiles(pass, [1, 99.5])).toEqual(percentiles(pixels, [1, 99.5]));
    expect(passes()).toBe(2);
  });

  it('an occulter of one value over a third of the image: the statistics inside it are found by narrowing every bit', () => {
    const pixels = new Float64Array(90_000).map((_, i) => (i % 3 === 0 ? 0 : i));
    const { pass } = passOver(pixels, 1000);
    expect(streamedPercentiles(pass, [1, 30, 99.5], 1000)).toEqual(percentiles(pixels, [1, 30, 99.5]));
  });

  it('none for an image without a finite value; percents outside 0..100 refused', () => {
    expect(streamedPercentiles(passOver(new Float64Array([Number.NaN, Number.NEGATIVE_INFINITY]), 1).pass, [1, 99])).toBeNull();
    expect(() => streamedPercentiles(passOver(new Float64Array(1), 1).pass, [101])).toThrow(RangeError);
  });
});
