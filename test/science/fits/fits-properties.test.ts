// Property tests of the FITS reader: random images of every BITPIX, with random BSCALE, BZERO and BLANK, written
// by the test writer and read back exactly; random truncation and random damage never make it throw anything
// but its own FitsReadError.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FitsReadError, readFits, type FitsFile } from '../../../src-science/fits/fits-file';
import { decodeImage } from '../../../src-science/fits/fits-image';
import { BITPIX_VALUES, concat, emptyPrimary, imageHdu, tableHdu, type Bitpix, type ImageSpec } from './fits-writer';

const RUNS = { numRuns: 200 };

/** Stored values each BITPIX can hold: every bit pattern of the integers, every float including NaN, infinities and -0. */
function storedValue(bitpix: Bitpix): fc.Arbitrary<number | bigint> {
  switch (bitpix) {
    case 8:
      return fc.integer({ min: 0, max: 255 });
    case 16:
      return fc.integer({ min: -32768, max: 32767 });
    case 32:
      return fc.integer({ min: -2147483648, max: 2147483647 });
    case 64:
      return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    case -32:
      return fc.float();
    case -64:
      return fc.double();
  }
}

const scale = fc.option(
  fc.oneof(
    fc.constant(1),
    fc.integer({ min: -1000, max: 1000 }).filter((v) => v !== 0),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((v) => v !== 0),
  ),
  { nil: undefined },
);
const zero = fc.option(
  fc.oneof(
    fc.constant(0),
    fc.constant(32768),
    fc.constant(-128),
    fc.integer({ min: -1e9, max: 1e9 }),
    fc.double({ min: -1e9, max: 1e9, noNaN: true }).map((value) => value + 0),
  ),
  { nil: undefined },
); // + 0: a card cannot hold -0

/** An image spec with its stored values; integer images may carry a BLANK that some pixels hold. */
function imageSpec(bitpix: Bitpix, extension: boolean): fc.Arbitrary<ImageSpec> {
  return fc
    .record({
      axes: fc.tuple(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 3 })),
      bscale: scale,
      bzero: zero,
      blank: bitpix > 0 ? fc.option(storedValue(bitpix), { nil: undefined }) : fc.constant(undefined),
    })
    .chain(({ axes, bscale, bzero, blank }) => {
      const [width, height, planes] = axes;
      const pixel = blank === undefined ? storedValue(bitpix) : fc.oneof(storedValue(bitpix), fc.constant(blank));
      return fc.array(pixel, { minLength: width * height * planes, maxLength: width * height * planes }).map((stored): ImageSpec => ({
        bitpix,
        axes: planes > 1 ? [width, height, planes] : [width, height],
        stored,
        extension,
        ...(bscale === undefined ? {} : { bscale }),
        ...(bzero === undefined ? {} : { bzero }),
        ...(blank === undefined ? {} : { blank }),
      }));
    });
}

/** What the reader must give for each pixel of the first plane, computed here the plain way. */
function expectedPixels(spec: ImageSpec): number[] {
  const [width = 1, height = 1] = spec.axes;
  const bscale = spec.bscale ?? 1;
  const bzero = Number(spec.bzero ?? 0);
  const single = spec.bitpix === 8 || spec.bitpix === 16 || spec.bitpix === -32;
  return spec.stored.slice(0, width * height).map((stored) => {
    if (spec.bitpix > 0 && spec.blank !== undefined && stored === spec.blank) return Number.NaN;
    const value = Number(stored);
    const physical = spec.bitpix < 0 && bscale === 1 && bzero === 0 ? value : value * bscale + bzero;
    return single ? Math.fround(physical) : physical;
  });
}

/** Reads and decodes every image; returns the error if it was the reader's own, and rethrows any other. */
function readAll(bytes: Uint8Array, name: string): { file: FitsFile } | { error: FitsReadError } {
  try {
    const file = readFits(bytes, name);
    for (const hdu of file.hdus) if (hdu.isImage) decodeImage(file, hdu.index);
    return { file };
  } catch (error) {
    if (error instanceof FitsReadError) return { error };
    throw error;
  }
}

describe('random images read back exactly', () => {
  it.each(BITPIX_VALUES)('BITPIX %i, as the primary HDU or as an extension after an empty one', (bitpix) => {
    fc.assert(
      fc.property(
        fc.boolean().chain((extension) => imageSpec(bitpix, extension)),
        (spec) => {
          const bytes = spec.extension ? concat(emptyPrimary(), imageHdu(spec)) : imageHdu(spec);
          const image = decodeImage(readFits(bytes, 'random.fts'), spec.extension ? 1 : 0);
          expect([image.width, image.height, image.planes]).toEqual([spec.axes[0], spec.axes[1], spec.axes[2] ?? 1]);
          expect(Array.from(image.pixels)).toEqual(expectedPixels(spec));
        },
      ),
      RUNS,
    );
  });
});

/**
 * A file of one to three HDUs: images of any BITPIX, sometimes a table, sometimes an empty primary first (only
 * before an extension: alone, an empty primary announcing extensions is a file cut short).
 */
const randomFile = fc
  .tuple(
    fc.boolean(),
    fc.array(
      fc.oneof(
        fc.constantFrom(...BITPIX_VALUES).chain((bitpix) => imageSpec(bitpix, true).map((spec) => imageHdu(spec))),
        fc.integer({ min: 0, max: 50 }).map((rows) => tableHdu(rows)),
      ),
      { maxLength: 2 },
    ),
    fc.constantFrom(...BITPIX_VALUES).chain((bitpix) => imageSpec(bitpix, false)),
  )
  .map(([emptyFirst, extensions, primary]) => concat(emptyFirst && extensions.length > 0 ? emptyPrimary() : imageHdu(primary), ...extensions));

describe('damaged input gives the reader’s own error, naming the file, or reads what is whole', () => {
  it('any truncation', () => {
    fc.assert(
      fc.property(randomFile, fc.double({ min: 0, max: 1, noNaN: true }), (bytes, fraction) => {
        const whole = readFits(bytes, 'whole.fts');
        const last = whole.hdus.at(-1)!;
        const cut = Math.floor(fraction * bytes.length);
        const result = readAll(bytes.subarray(0, cut), 'cut.fts');
        if ('error' in result) {
          expect(result.error.message.startsWith('cut.fts ')).toBe(true);
          expect(cut).toBeLessThan(last.dataOffset + last.dataBytes);
          return;
        }
        // Read: every HDU it found is whole and the same as in the full file (a cut between HDUs looks like a shorter file).
        expect(cut).toBeGreaterThan(0);
        for (const hdu of result.file.hdus) {
          const full = whole.hdus[hdu.index]!;
          expect([hdu.dataOffset, hdu.dataBytes]).toEqual([full.dataOffset, full.dataBytes]);
          if (hdu.isImage) expect(decodeImage(result.file, hdu.index).pixels).toEqual(decodeImage(whole, hdu.index).pixels);
        }
        if (cut >= last.dataOffset + last.dataBytes) expect(result.file.hdus).toHaveLength(whole.hdus.length);
      }),
      RUNS,
    );
  });

  it('any byte of a header changed', () => {
    fc.assert(
      fc.property(randomFile, fc.nat(), fc.integer({ min: 0, max: 255 }), (bytes, position, value) => {
        const damaged = bytes.slice();
        damaged[position % Math.min(bytes.length, 2880)] = value;
        const result = readAll(damaged, 'damaged.fts');
        if ('error' in result) expect(result.error.message.startsWith('damaged.fts ')).toBe(true);
      }),
      RUNS,
    );
  });

  it('any bytes at all, and any bytes after a FITS signature', () => {
    const signature = Uint8Array.from('SIMPLE  =                    T', (c) => c.charCodeAt(0));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 6000 }), fc.boolean(), (random, signed) => {
        const result = readAll(signed ? concat(signature, random) : random, 'noise.fts');
        if ('error' in result) expect(result.error.message.startsWith('noise.fts ')).toBe(true);
      }),
      RUNS,
    );
  });
});
