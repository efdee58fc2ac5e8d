// The quick look decoded a band of rows at a time is the quick look of the whole image in memory, pixel for pixel:
// the same clip, the same averaged boxes, the same grey levels, however small the bands.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFits } from '../../../src-science/fits/fits-file';
import { decodeImage, imageReader } from '../../../src-science/fits/fits-image';
import { downscale } from '../../../src-science/fits/image-downscale';
import { displayBytes, percentileClip, STRETCHES } from '../../../src-science/fits/image-stretch';
import { streamedQuicklook } from '../../../src-science/fits/streamed-quicklook';
import { BITPIX_VALUES, imageHdu } from './fits-writer';

function inMemory(bytes: Uint8Array, hdu: number, maxSize: number | undefined, stretch: (typeof STRETCHES)[number]) {
  const image = decodeImage(readFits(bytes, 'x.fits'), hdu);
  const clip = percentileClip(image.pixels, 1, 99.5);
  const shown = maxSize === undefined ? image : downscale(image.pixels, image.width, image.height, maxSize);
  return {
    clip,
    width: shown.width,
    height: shown.height,
    grey: displayBytes(shown.pixels, shown.width, shown.height, { ...(clip ?? { low: 0, high: 0 }), stretch }),
  };
}

describe('the streamed quick look', () => {
  it('equals the whole image in memory for every BITPIX, size, band and --size', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BITPIX_VALUES),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 200 }),
        fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
        fc.constantFrom(...STRETCHES),
        fc.integer(),
        (bitpix, width, height, bandPixels, maxSize, stretch, seed) => {
          const stored = Array.from({ length: width * height }, (_, i) => {
            const wave = Math.round(Math.abs(Math.sin(i * 12.9898 + seed) * 43758.5453) % 120);
            if (bitpix === 64) return BigInt(wave - 20);
            return bitpix > 0 ? (bitpix === 8 ? wave : wave - 20) : i % 17 === 3 ? Number.NaN : (wave - 20) * 0.37;
          });
          const bytes = imageHdu({ bitpix, axes: [width, height], stored, blank: bitpix > 0 && bitpix < 64 ? 7 : undefined });
          const streamed = streamedQuicklook(
            imageReader(readFits(bytes, 'x.fits'), 0),
            { percents: [1, 99.5], stretch, ...(maxSize === undefined ? {} : { maxSize }) },
            bandPixels,
          );
          const expected = inMemory(bytes, 0, maxSize, stretch);
          expect({ ...streamed, grey: Array.from(streamed.grey) }).toEqual({ ...expected, grey: Array.from(expected.grey) });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('tile-compressed images with 16 x 16 tiles, in bands of a few tiles', () => {
    for (const name of ['int16_rice_tiles', 'float32_rice_tiles', 'float32_rice_dither1']) {
      const bytes = new Uint8Array(readFileSync(path.join(import.meta.dirname, '..', '..', 'fixtures', 'tile-compressed', `${name}.fits`)));
      for (const maxSize of [undefined, 20]) {
        const streamed = streamedQuicklook(
          imageReader(readFits(bytes, 'x.fits'), 1),
          { percents: [1, 99.5], stretch: 'asinh', ...(maxSize === undefined ? {} : { maxSize }) },
          200,
        );
        const expected = inMemory(bytes, 1, maxSize, 'asinh');
        expect({ ...streamed, grey: Array.from(streamed.grey) }).toEqual({ ...expected, grey: Array.from(expected.grey) });
      }
    }
  });
});
