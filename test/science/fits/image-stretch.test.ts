import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { downscale } from '../../../src-science/fits/image-downscale';
import { CLIP_SAMPLE_SIZE, clipSample, percentiles } from '../../../src-science/fits/image-percentiles';
import { STRETCHES, STRETCH_FUNCTIONS, displayBytes, greyLevel, percentileClip, type StretchName } from '../../../src-science/fits/image-stretch';

/** numpy's default percentile, the plain way: sort the finite values, interpolate between neighbours. */
function sortedPercentile(values: readonly number[], percent: number): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const position = (percent / 100) * (sorted.length - 1);
  const below = sorted[Math.floor(position)]!;
  const above = sorted[Math.ceil(position)]!;
  const fraction = position - Math.floor(position);
  return fraction === 0 ? below : below + (above - below) * fraction;
}

describe('percentiles', () => {
  it('known values: 0..100 gives each percent itself; NaN and infinities are ignored', () => {
    const ramp = Array.from({ length: 101 }, (_, i) => 100 - i);
    expect(percentiles(ramp, [0, 1, 50, 99.5, 100])).toEqual([0, 1, 50, 99.5, 100]);
    expect(percentiles([Number.NaN, 4, Number.POSITIVE_INFINITY, 2, Number.NaN, 3, Number.NEGATIVE_INFINITY, 1], [0, 50, 100])).toEqual([1, 2.5, 4]);
    expect(percentiles(new Float32Array([7]), [1, 99.5])).toEqual([7, 7]);
  });

  it('none for an image without a finite value', () => {
    expect(percentiles(new Float64Array([Number.NaN, Number.NaN]), [1, 99])).toBeNull();
    expect(percentileClip([], 1, 99.5)).toBeNull();
  });

  it('refuses percents outside 0..100 and a clip whose bounds are out of order', () => {
    expect(() => percentiles([1], [101])).toThrow(RangeError);
    expect(() => percentileClip([1, 2], 99, 1)).toThrow(RangeError);
  });

  it('equal what sorting gives, for any values and percents (many repeats, NaN, infinities)', () => {
    const value = fc.oneof(fc.double(), fc.integer({ min: -3, max: 3 }), fc.constant(0));
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 400 }),
        fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 4 }),
        (values, percents) => {
          const found = percentiles(values, percents);
          if (values.some(Number.isFinite)) expect(found).toEqual(percents.map((percent) => sortedPercentile(values, percent)));
          else expect(found).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('equal what sorting gives for image-sized inputs too, which are narrowed by histograms before selection', () => {
    const value = fc.oneof(fc.double(), fc.integer({ min: -3, max: 3 }), fc.double({ min: 0, max: 1e-9, noNaN: true }), fc.constant(Number.NaN));
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 2049, maxLength: 6000 }),
        fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 3 }),
        (values, percents) => {
          const pixels = Float64Array.from(values);
          const found = percentiles(pixels, percents);
          if (values.some(Number.isFinite)) expect(found).toEqual(percents.map((percent) => sortedPercentile(values, percent)));
          else expect(found).toBeNull();
        },
      ),
      // Shrinking thousands of values takes minutes: a failure is reported as found.
      { numRuns: 60, endOnFailure: true },
    );
  });

  it('a narrow cluster beside far outliers (each histogram puts nearly all values in one bin) still comes out exact', () => {
    const pixels = new Float32Array(200_000).map((_, i) => (i % 997 === 0 ? 1e12 * (i % 2 ? 1 : -1) : Math.fround(1 + (i % 7919) * 1e-7)));
    const reference = Array.from(pixels);
    for (const [low, high] of [
      [1, 99.5],
      [0, 100],
      [0.25, 99.75],
      [50, 50.5],
    ] as const) {
      expect(percentileClip(pixels, low, high)).toEqual({ low: sortedPercentile(reference, low), high: sortedPercentile(reference, high) });
    }
  });

  it('a coronagraph-like image: a third of it one value (the occulter), the rest spread', () => {
    const pixels = new Float32Array(30_000).map((_, i) => (i % 3 === 0 ? 0 : Math.fround(Math.sin(i) * 1e-6)));
    const reference = Array.from(pixels);
    expect(percentileClip(pixels, 1, 99.5)).toEqual({ low: sortedPercentile(reference, 1), high: sortedPercentile(reference, 99.5) });
  });
});

describe('the sample a viewer clips from', () => {
  it('is the image itself up to the sample size, and that many pixels spread over all of a larger one', () => {
    const small = new Float32Array(CLIP_SAMPLE_SIZE);
    expect(clipSample(small)).toBe(small);
    const ramp = new Float64Array(2048 * 2048).map((_, i) => i);
    const sample = clipSample(ramp);
    expect(sample).toBeInstanceOf(Float64Array);
    expect(sample.length).toBe(CLIP_SAMPLE_SIZE);
    // One pixel from each run of 16, in order.
    expect(Array.from(sample).every((index, i) => Math.floor(index / 16) === i)).toBe(true);
    // Every row of a 2048-wide image is sampled, at every column somewhere.
    expect(new Set(Array.from(sample, (index) => Math.floor(index / 2048))).size).toBe(2048);
    expect(new Set(Array.from(sample, (index) => index % 2048)).size).toBe(2048);
    // The same image always gets the same sample.
    expect(clipSample(ramp)).toEqual(sample);
  });

  it('puts the clip within a tenth of a percent of the exact ranks on a coronagraph-like image', () => {
    const size = 1024;
    const pixels = new Float32Array(size * size).map((_, i) => {
      const x = (i % size) - size / 2;
      const y = Math.floor(i / size) - size / 2;
      const r = Math.hypot(x, y);
      return r < 200 ? 0 : Math.fround(1e-6 * Math.exp(-(r - 200) / 120) * (1 + 0.3 * Math.sin(i * 0.7)));
    });
    const sorted = Float32Array.from(pixels).sort();
    const rankOf = (value: number) => sorted.findIndex((candidate) => candidate >= value) / (sorted.length - 1);
    for (const [low, high] of [
      [1, 99.5],
      [5, 95],
      [0.5, 99.9],
    ] as const) {
      const clip = percentileClip(clipSample(pixels), low, high)!;
      expect(Math.abs(rankOf(clip.high) * 100 - high)).toBeLessThan(0.1);
      // The low end falls in the occulter's zeros, as the exact one does.
      expect(clip.low).toBe(percentileClip(pixels, low, high)!.low);
    }
  });

  it('on a 4096 x 4096 radial image the 1 % and 99.5 % points land within 0.06 % of those ranks (an even sample gave 1.11 and 99.22 %)', () => {
    const size = 4096;
    const count = size * size;
    // Distinct values growing outwards from the centre, so a value's rank is the number of pixels below it.
    const pixels = new Float64Array(count);
    for (let i = 0; i < count; i += 1) {
      const x = i % size;
      const y = (i - x) / size;
      pixels[i] = Math.hypot(x - size / 2, y - size / 2) + x * 1e-7 + y * 1e-11;
    }
    const rankPercent = (value: number): number => {
      let below = 0;
      for (let i = 0; i < count; i += 1) if (pixels[i]! < value) below += 1;
      return (below / (count - 1)) * 100;
    };
    const clip = percentileClip(clipSample(pixels), 1, 99.5)!;
    expect(Math.abs(rankPercent(clip.low) - 1)).toBeLessThan(0.06);
    expect(Math.abs(rankPercent(clip.high) - 99.5)).toBeLessThan(0.06);
  });
});

describe('stretches', () => {
  it.each(STRETCHES)('%s maps 0 to 0 and 1 to 1', (stretch) => {
    expect(STRETCH_FUNCTIONS[stretch](0)).toBe(0);
    expect(STRETCH_FUNCTIONS[stretch](1)).toBeCloseTo(1, 12);
  });

  it('known grey levels in the middle of the range', () => {
    const at = (stretch: StretchName, value: number): number => greyLevel(value, { low: 0, high: 100, stretch });
    expect(at('linear', 50)).toBe(128); // 127.5 rounds up
    expect(at('linear', 20)).toBe(51);
    expect(at('sqrt', 25)).toBe(128);
    // log10(1000 x + 1) / log10(1001): x = 0.1 gives 2.0043 / 3.0004
    expect(at('log', 10)).toBe(Math.round((Math.log10(101) / Math.log10(1001)) * 255));
    expect(at('log', 10)).toBe(170);
    // asinh(x / 0.1) / asinh(10): x = 0.1 gives 0.8814 / 2.9982
    expect(at('asinh', 10)).toBe(75);
  });

  it('clips below low and above high', () => {
    for (const stretch of STRETCHES) {
      expect(greyLevel(-5, { low: 0, high: 1, stretch })).toBe(0);
      expect(greyLevel(7, { low: 0, high: 1, stretch })).toBe(255);
    }
  });

  it('never decrease: a larger value is never darker, whatever the range', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...STRETCHES),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: -2e6, max: 2e6, noNaN: true }),
        fc.double({ min: -2e6, max: 2e6, noNaN: true }),
        (stretch, low, width, a, b) => {
          const options = { low, high: low + width, stretch };
          const [smaller, larger] = a <= b ? [a, b] : [b, a];
          expect(greyLevel(smaller, options)).toBeLessThanOrEqual(greyLevel(larger, options));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('display bytes', () => {
  it('puts the bottom FITS row at the bottom of the picture (row 0 of the bytes is the top)', () => {
    // FITS order: the first row is the bottom one. Bottom row dark, top row bright.
    const pixels = new Float32Array([0, 0, 0, 5, 5, 5, 10, 10, 10]);
    expect(Array.from(displayBytes(pixels, 3, 3, { low: 0, high: 10, stretch: 'linear' }))).toEqual([255, 255, 255, 128, 128, 128, 0, 0, 0]);
  });

  it('shows NaN (and BLANK, which the reader made NaN) black', () => {
    const pixels = new Float64Array([Number.NaN, 1, 2, Number.NaN]);
    expect(Array.from(displayBytes(pixels, 2, 2, { low: 0, high: 2, stretch: 'sqrt' }))).toEqual([255, 0, 0, 180]);
  });

  it('a constant image: its clip range is empty, so it shows black, not a division by zero', () => {
    const pixels = new Float32Array(16).fill(3.5);
    const clip = percentileClip(pixels, 1, 99.5)!;
    expect(clip).toEqual({ low: 3.5, high: 3.5 });
    for (const stretch of STRETCHES) expect(Array.from(displayBytes(pixels, 4, 4, { ...clip, stretch }))).toEqual(new Array(16).fill(0));
  });

  it('an empty range shows every value alike, black (a clip of no width says nothing about brightness)', () => {
    expect(Array.from(displayBytes([0, 0, 0, 9], 4, 1, { low: 0, high: 0, stretch: 'log' }))).toEqual([0, 0, 0, 0]);
  });

  it('give each pixel exactly the level greyLevel computes (the table is only a shortcut)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...STRETCHES),
        fc.array(fc.oneof(fc.double({ min: -10, max: 110, noNaN: true }), fc.constant(Number.NaN), fc.constant(0), fc.constant(100)), {
          minLength: 1,
          maxLength: 300,
        }),
        fc.double({ min: -5, max: 5, noNaN: true }),
        fc.double({ min: 1e-9, max: 200, noNaN: true }),
        (stretch, values, low, width) => {
          const options = { low, high: low + width, stretch };
          const bytes = displayBytes(values, values.length, 1, options);
          expect(Array.from(bytes)).toEqual(values.map((value) => greyLevel(value, options)));
        },
      ),
      { numRuns: 300 },
    );
    // Every level of the steep start of the log stretch, where the table's neighbours differ most.
    const ramp = Float64Array.from({ length: 100_000 }, (_, i) => i / 100_000 / 50);
    const options = { low: 0, high: 1, stretch: 'log' as const };
    expect(Array.from(displayBytes(ramp, ramp.length, 1, options))).toEqual(Array.from(ramp, (value) => greyLevel(value, options)));
  });

  it('refuses fewer pixels than the size needs', () => {
    expect(() => displayBytes([1, 2, 3], 2, 2, { low: 0, high: 1, stretch: 'linear' })).toThrow(RangeError);
  });
});

describe('downscale', () => {
  it('returns the image itself when it fits', () => {
    const pixels = new Float32Array(12);
    expect(downscale(pixels, 4, 3, 4)).toEqual({ width: 4, height: 3, pixels });
  });

  it('averages each box, every source pixel in exactly one box', () => {
    // 4 x 2 -> 2 x 1: boxes of 2 x 2
    const shrunk = downscale([1, 2, 3, 4, 5, 6, 7, 8], 4, 2, 2);
    expect([shrunk.width, shrunk.height]).toEqual([2, 1]);
    expect(Array.from(shrunk.pixels)).toEqual([(1 + 2 + 5 + 6) / 4, (3 + 4 + 7 + 8) / 4]);
  });

  it('keeps the aspect ratio, the longer side at the size asked', () => {
    const shrunk = downscale(new Float32Array(1024 * 512).fill(1), 1024, 512, 300);
    expect([shrunk.width, shrunk.height]).toEqual([300, 150]);
    expect(Array.from(shrunk.pixels).every((value) => value === 1)).toBe(true);
    expect([downscale(new Float32Array(1000), 1000, 1, 10).height, downscale(new Float32Array(1000), 1, 1000, 10).width]).toEqual([1, 1]);
  });

  it('ignores NaN in a box, and a box of NaN only stays NaN', () => {
    const shrunk = downscale([Number.NaN, 4, Number.NaN, Number.NaN, 2, Number.NaN, Number.NaN, Number.NaN], 4, 2, 2);
    expect(Array.from(shrunk.pixels)).toEqual([3, Number.NaN]);
  });

  it('fits any image into the square asked, every value within the range of the source', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 12 }), (width, height, size) => {
        const pixels = Float64Array.from({ length: width * height }, (_, i) => i % 7);
        const shrunk = downscale(pixels, width, height, size);
        expect(Math.max(shrunk.width, shrunk.height)).toBe(Math.min(size, Math.max(width, height)));
        expect(shrunk.pixels.length).toBe(shrunk.width * shrunk.height);
        // Every output pixel lies within the range of the source values.
        for (const value of Array.from(shrunk.pixels)) expect(value >= 0 && value <= 6).toBe(true);
      }),
    );
  });

  it('refuses a size that is not a whole number of pixels', () => {
    expect(() => downscale([1], 1, 1, 0)).toThrow(RangeError);
    expect(() => downscale([1], 1, 1, 2.5)).toThrow(RangeError);
  });
});
