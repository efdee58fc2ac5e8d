// Messages about files of very many HDUs stay one short line; a degenerate clip (low = high) shows a uniform
// picture; infinities are left out of the clip like NaN.
import { describe, expect, it } from 'vitest';
import { readFits } from '../../../src-science/fits/fits-file';
import { decodeImage, shortList } from '../../../src-science/fits/fits-image';
import { downscale } from '../../../src-science/fits/image-downscale';
import { STRETCHES, displayBytes, greyLevel, percentileClip } from '../../../src-science/fits/image-stretch';
import { concat, emptyPrimary, imageHdu, tableHdu } from './fits-writer';

describe('lists in messages', () => {
  it('names the first few items, then how many more', () => {
    expect(shortList(['a'])).toBe('a');
    expect(shortList(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c, d, e');
    expect(shortList(Array.from({ length: 100_000 }, (_, i) => String(i)))).toBe('0, 1, 2, 3, 4 and 99,995 more');
  });

  it('a file of 2,000 image HDUs: asking for its table gives a line of fewer than 200 characters', () => {
    const image = imageHdu({ bitpix: 8, axes: [1, 1], stored: [1], extension: true });
    const file = readFits(concat(emptyPrimary(), tableHdu(1), ...new Array<Uint8Array>(2000).fill(image)), 'many.fts');
    let message = '';
    try {
      decodeImage(file, 1);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('many.fts holds no image in HDU 1 (BINTABLE): its images are in HDUs 2, 3, 4, 5, 6 and 1,995 more.');
  });
});

describe('a degenerate clip (low = high)', () => {
  it('shows every finite pixel at one level, black, whatever lies above or below (not white above)', () => {
    // Mostly one value with a few stars: the 1-99.5 % clip is 0 to 0.
    const pixels = new Float32Array(1000).fill(0);
    pixels[10] = 50;
    pixels[20] = -3;
    const clip = percentileClip(pixels, 1, 99.5)!;
    expect(clip).toEqual({ low: 0, high: 0 });
    for (const stretch of STRETCHES) {
      expect(Array.from(displayBytes(pixels, 1000, 1, { ...clip, stretch })).every((level) => level === 0)).toBe(true);
      expect(greyLevel(50, { ...clip, stretch })).toBe(0);
    }
  });
});

describe('infinite pixels', () => {
  it('are left out of the clip like NaN; +inf shows white and -inf black, saturated like values beyond the clip', () => {
    const pixels = new Float64Array([Number.POSITIVE_INFINITY, 1, 2, 3, 4, 5, Number.NEGATIVE_INFINITY, Number.NaN]);
    expect(percentileClip(pixels, 0, 100)).toEqual({ low: 1, high: 5 });
    expect(Array.from(displayBytes(pixels, 8, 1, { low: 1, high: 5, stretch: 'linear' }))).toEqual([255, 0, 64, 128, 191, 255, 0, 0]);
  });
});

describe('infinite pixels in a shrunk image', () => {
  it('a box of +inf (and NaN) only stays +inf, white as at full size; -inf black; both NaN; a finite value wins', () => {
    const inf = Number.POSITIVE_INFINITY;
    // 8 x 1 into 4 x 1: boxes of two pixels.
    const shrunk = downscale([inf, Number.NaN, -inf, -inf, inf, -inf, 3, inf], 8, 1, 4);
    expect(Array.from(shrunk.pixels)).toEqual([inf, -inf, Number.NaN, 3]);
    expect(Array.from(displayBytes(shrunk.pixels, 4, 1, { low: 0, high: 6, stretch: 'linear' }))).toEqual([255, 0, 0, 128]);
  });
});
