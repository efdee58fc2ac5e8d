import { describe, expect, it } from 'vitest';
import { fitsBytes } from '../../../src-main/emulator/synthetic-fits';
import { FitsReadError, describeHdu, firstImageHdu, readFits } from '../../../src-science/fits/fits-file';
import { decodeImage } from '../../../src-science/fits/fits-image';
import { concat, emptyPrimary, headerBytes, imageHdu, tableHdu } from './fits-writer';

const values = (pixels: ArrayLike<number>): number[] => Array.from(pixels);

/** The reader's error for `bytes`, or a failure if it read them. */
function readError(bytes: Uint8Array, name = 'test.fts'): FitsReadError {
  try {
    const file = readFits(bytes, name);
    for (const hdu of file.hdus) if (hdu.isImage) decodeImage(file, hdu.index);
  } catch (error) {
    if (error instanceof FitsReadError) return error;
    throw error;
  }
  throw new Error('the bytes were read without an error');
}

describe('decoding each BITPIX, big-endian', () => {
  it('8-bit: unsigned bytes', () => {
    const file = readFits(imageHdu({ bitpix: 8, axes: [3, 2], stored: [0, 1, 127, 128, 254, 255] }), 'b.fts');
    const image = decodeImage(file, 0);
    expect(image.pixels).toBeInstanceOf(Float32Array);
    expect([image.width, image.height, image.planes]).toEqual([3, 2, 1]);
    expect(values(image.pixels)).toEqual([0, 1, 127, 128, 254, 255]);
  });

  it('8-bit with BZERO = -128: signed bytes', () => {
    const image = decodeImage(readFits(imageHdu({ bitpix: 8, axes: [3], stored: [0, 128, 255], bzero: -128 }), 'b.fts'), 0);
    expect(values(image.pixels)).toEqual([-128, 0, 127]);
    expect([image.width, image.height]).toEqual([3, 1]);
  });

  it('16-bit signed, and with BZERO = 32768 as unsigned', () => {
    const stored = [-32768, -1, 0, 1, 32767, 258];
    expect(values(decodeImage(readFits(imageHdu({ bitpix: 16, axes: [6, 1], stored }), 's.fts'), 0).pixels)).toEqual(stored);
    const unsigned = decodeImage(readFits(imageHdu({ bitpix: 16, axes: [6, 1], stored, bzero: 32768 }), 'u.fts'), 0);
    expect(values(unsigned.pixels)).toEqual([0, 32767, 32768, 32769, 65535, 33026]);
  });

  it('32-bit with BSCALE and BZERO, into doubles', () => {
    const image = decodeImage(readFits(imageHdu({ bitpix: 32, axes: [3, 1], stored: [-2147483648, 0, 2147483647], bscale: 2, bzero: 2147483648 }), 'i.fts'), 0);
    expect(image.pixels).toBeInstanceOf(Float64Array);
    expect(values(image.pixels)).toEqual([-2147483648, 2147483648, 6442450942]);
  });

  it('64-bit: exact to 2^53, the nearest double beyond', () => {
    const stored = [-(2n ** 63n), -1n, 0n, 2n ** 53n - 1n, 2n ** 63n - 1n];
    const image = decodeImage(readFits(imageHdu({ bitpix: 64, axes: [5, 1], stored }), 'l.fts'), 0);
    expect(values(image.pixels)).toEqual(stored.map((value) => Number(value)));
  });

  it('32- and 64-bit floats, NaN and infinities kept', () => {
    const stored = [1.5, -0.25, Number.NaN, Number.POSITIVE_INFINITY, 3.4e38];
    const single = decodeImage(readFits(imageHdu({ bitpix: -32, axes: [5, 1], stored }), 'f.fts'), 0);
    expect(single.pixels).toBeInstanceOf(Float32Array);
    expect(values(single.pixels)).toEqual(stored.map(Math.fround));
    const double = decodeImage(readFits(imageHdu({ bitpix: -64, axes: [6, 1], stored: [...stored, 1e300] }), 'd.fts'), 0);
    expect(values(double.pixels)).toEqual([...stored, 1e300]);
  });

  it('floats with BSCALE and BZERO: scaled, NaN stays NaN', () => {
    const image = decodeImage(readFits(imageHdu({ bitpix: -32, axes: [3, 1], stored: [1, Number.NaN, -2], bscale: 0.5, bzero: 10 }), 'f.fts'), 0);
    expect(values(image.pixels)).toEqual([10.5, Number.NaN, 9]);
  });
});

describe('bytes that are a view into a larger buffer', () => {
  // Floats are decoded by whole 32-bit words where the data are aligned to 4 bytes and by bytes elsewhere.
  const stored = [1.25, -3.5, -0, Number.NaN, 3.4e38, -1e-38, 7];
  it.each([
    [-32, undefined],
    [-64, undefined],
    [-32, { bscale: 0.5, bzero: 10 }],
    [-64, { bscale: 0.5, bzero: 10 }],
  ] as const)('BITPIX %i %o: the same values from every offset 0 to 7 into the buffer', (bitpix, scaling) => {
    const file = imageHdu({ bitpix, axes: [stored.length, 1], stored, ...scaling });
    const expected = stored
      .map((value) => (scaling ? value * scaling.bscale + scaling.bzero : value))
      .map((value) => (bitpix === -32 ? Math.fround(value) : value));
    for (let offset = 0; offset < 8; offset += 1) {
      const larger = new Uint8Array(file.length + 8);
      larger.set(file, offset);
      const pixels = decodeImage(readFits(larger.subarray(offset, offset + file.length), 'view.fts'), 0).pixels;
      expect(values(pixels), `offset ${offset}`).toEqual(expected);
      if (!scaling) expect(Object.is(pixels[2], -0), `-0 at offset ${offset}`).toBe(true);
    }
  });
});

describe('blank pixels', () => {
  it.each([
    [8, 255, [1, 255, 3]],
    [16, -32768, [1, -32768, 3]],
    [32, -2147483648, [1, -2147483648, 3]],
    [64, -(2n ** 63n), [1n, -(2n ** 63n), 3n]],
  ] as const)('BITPIX %i: the BLANK value becomes NaN, before scaling', (bitpix, blank, stored) => {
    const image = decodeImage(readFits(imageHdu({ bitpix, axes: [3, 1], stored: [...stored], blank, bscale: 2, bzero: 1 }), 'n.fts'), 0);
    expect(values(image.pixels)).toEqual([3, Number.NaN, 7]);
  });

  it('BITPIX 64: a BLANK beyond 2^53 is matched exactly, not its neighbours', () => {
    const blank = 2n ** 62n + 1n;
    const image = decodeImage(readFits(imageHdu({ bitpix: 64, axes: [3, 1], stored: [blank - 1n, blank, blank + 1n], blank }), 'n.fts'), 0);
    expect(values(image.pixels)).toEqual([Number(blank - 1n), Number.NaN, Number(blank + 1n)]);
  });

  it('BLANK is ignored for floats (they use NaN)', () => {
    const image = decodeImage(readFits(imageHdu({ bitpix: -32, axes: [2, 1], stored: [-1, 5], blank: -1 }), 'n.fts'), 0);
    expect(values(image.pixels)).toEqual([-1, 5]);
  });
});

describe('the HDUs of a file', () => {
  const file = concat(
    emptyPrimary([['TELESCOP', 'UCoMP']]),
    imageHdu({ bitpix: -32, axes: [4, 3], stored: Array.from({ length: 12 }, (_, i) => i), extension: true, extname: 'Stokes I' }),
    tableHdu(5, 'TABLE'),
    imageHdu({ bitpix: 16, axes: [2, 2, 3], stored: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], extension: true }),
  );

  it('lists the primary HDU and every extension, marking which hold images', () => {
    const read = readFits(file, 'ucomp.fts');
    expect(read.hdus.map((hdu) => [hdu.index, hdu.type, hdu.isImage, hdu.name, hdu.axes])).toEqual([
      [0, 'primary', false, undefined, []],
      [1, 'IMAGE', true, 'Stokes I', [4, 3]],
      [2, 'BINTABLE', false, 'TABLE', [8, 5]],
      [3, 'IMAGE', true, undefined, [2, 2, 3]],
    ]);
    expect(read.hdus.map(describeHdu)).toEqual(['HDU 0 (primary)', "HDU 1 (IMAGE, EXTNAME 'Stokes I')", "HDU 2 (BINTABLE, EXTNAME 'TABLE')", 'HDU 3 (IMAGE)']);
    expect(firstImageHdu(read)?.index).toBe(1);
    expect(read.hdus[0]!.values.get('TELESCOP')).toBe('UCoMP');
  });

  it('decodes an extension image, and the first plane of a cube', () => {
    const read = readFits(file, 'ucomp.fts');
    expect(values(decodeImage(read, 1).pixels)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    const cube = decodeImage(read, 3);
    expect([cube.width, cube.height, cube.planes]).toEqual([2, 2, 3]);
    expect(values(cube.pixels)).toEqual([1, 2, 3, 4]);
  });

  it('refuses to decode what is not an image, and an HDU that is not there, naming where the images are', () => {
    const read = readFits(file, 'ucomp.fts');
    expect(() => decodeImage(read, 2)).toThrow("ucomp.fts holds no image in HDU 2 (BINTABLE, EXTNAME 'TABLE'): its images are in HDUs 1, 3.");
    expect(() => decodeImage(read, 0)).toThrow('ucomp.fts holds no image in HDU 0 (primary): its images are in HDUs 1, 3.');
    expect(() => decodeImage(read, 7)).toThrow('ucomp.fts has no HDU 7: its HDUs are 0 to 3.');
  });

  it('a file of one data-less HDU has no image at all', () => {
    const alone = headerBytes([
      ['SIMPLE', true],
      ['BITPIX', 8],
      ['NAXIS', 0],
    ]);
    expect(() => decodeImage(readFits(alone, 'empty.fts'), 0)).toThrow('empty.fts holds no image in HDU 0 (primary): it holds no image at all.');
  });

  it('reads a last data unit without its padding (saying how much is missing), and ignores bytes after the last HDU that begin no extension', () => {
    const unpadded = imageHdu({ bitpix: 16, axes: [3, 1], stored: [1, 2, 3], unpadded: true });
    expect(values(decodeImage(readFits(unpadded, 'u.fts'), 0).pixels)).toEqual([1, 2, 3]);
    expect(readFits(unpadded, 'u.fts').missingPadding).toBe(2880 - 6);
    const trailing = concat(
      imageHdu({ bitpix: 16, axes: [3, 1], stored: [1, 2, 3] }),
      Uint8Array.from('some trailing notes', (c) => c.charCodeAt(0)),
    );
    expect(readFits(trailing, 't.fts')).toMatchObject({ hdus: [{ index: 0 }], missingPadding: 0 });
  });
});

describe('files that cannot be read say which file and what is wrong', () => {
  const image = imageHdu({ bitpix: -32, axes: [30, 72], stored: new Array(30 * 72).fill(1) }); // 8,640 data bytes

  it('cut inside a data unit: how much of it came', () => {
    expect(readError(image.subarray(0, 2880 + 4096), 'cut.fts').message).toBe("cut.fts ends after 4,096 of 8,640 bytes of HDU 0's data.");
    const twoHdus = concat(emptyPrimary(), imageHdu({ bitpix: 16, axes: [10, 10], stored: new Array(100).fill(0), extension: true }));
    expect(readError(twoHdus.subarray(0, 2880 * 2 + 150)).message).toBe("test.fts ends after 150 of 200 bytes of HDU 1's data.");
  });

  it('cut inside a header, before or after its END card', () => {
    // The header's five cards and END take 480 bytes; the rest of its block is padding.
    expect(readError(image.subarray(0, 300)).message).toBe("test.fts ends after 300 bytes of HDU 0's header, before its END card.");
    expect(readError(image.subarray(0, 1200)).message).toBe("test.fts ends after 1,200 of 2,880 bytes of HDU 0's header.");
  });

  it('not FITS at all', () => {
    expect(
      readError(
        Uint8Array.from('<html>Service unavailable</html>', (c) => c.charCodeAt(0)),
        'page.fts',
      ).message,
    ).toBe('page.fts is not a FITS file: it does not start with "SIMPLE  =".');
    expect(readError(new Uint8Array(0), 'zero.fts').message).toBe('zero.fts is empty, not a FITS file.');
  });

  it('a header no data unit can follow', () => {
    const damaged = headerBytes([
      ['SIMPLE', true],
      ['BITPIX', -32],
      ['NAXIS', 2],
      ['NAXIS1', 10],
    ]);
    expect(readError(damaged).message).toBe('test.fts has a damaged header in HDU 0: no NAXIS2 card.');
    const badScale = imageHdu({ bitpix: 16, axes: [1, 1], stored: [1], extraCards: [['BSCALE', 'big']] });
    expect(readError(badScale).message).toBe('test.fts has a damaged header in HDU 0: BSCALE = big, which is not a usable number.');
  });

  it('the error keeps the file name and the problem apart, for messages of the app', () => {
    const error = readError(image.subarray(0, 2880 + 4096), 'cut.fts');
    expect([error.fileName, error.problem]).toEqual(['cut.fts', "ends after 4,096 of 8,640 bytes of HDU 0's data"]);
  });
});

describe('a file with fewer HDUs than its primary header promises is cut short, as downloads judge it', () => {
  const extension = (value: number): Uint8Array => imageHdu({ bitpix: 16, axes: [10, 10], stored: new Array(100).fill(value), extension: true });
  const withNextend = (count: number): Uint8Array => concat(emptyPrimary([['NEXTEND', count]]), ...Array.from({ length: count }, (_, i) => extension(i)));
  const hduEnd = (hdus: number): number => 2880 + hdus * 2 * 2880; // the empty primary, then a header and a data block each

  it('cut where an HDU ends: which HDU it ends after, and how many extensions NEXTEND declares', () => {
    const whole = withNextend(4);
    expect(readFits(whole, 'whole.fts').hdus).toHaveLength(5);
    expect(readError(whole.subarray(0, hduEnd(1)), 'x.fts').message).toBe('x.fts ends after HDU 1: its primary header declares 4 extensions (NEXTEND = 4).');
    expect(readError(whole.subarray(0, hduEnd(0)), 'x.fts').message).toBe('x.fts ends after HDU 0: its primary header declares 4 extensions (NEXTEND = 4).');
    expect(readError(withNextend(1).subarray(0, hduEnd(0)), 'one.fts').message).toBe(
      'one.fts ends after HDU 0: its primary header declares 1 extension (NEXTEND = 1).',
    );
  });

  it('cut inside the padding of a data unit that is not the last: the same', () => {
    const whole = withNextend(2);
    for (const cut of [hduEnd(1) - 2880 + 200, hduEnd(1) - 1]) {
      expect(readError(whole.subarray(0, cut)).message).toBe('test.fts ends after HDU 1: its primary header declares 2 extensions (NEXTEND = 2).');
    }
    // A cut inside the last data unit's padding is read, as astropy reads it, with NEXTEND or without.
    expect(readFits(whole.subarray(0, hduEnd(2) - 2880 + 200), 'whole.fts')).toMatchObject({ missingPadding: 2880 - 200 });
    expect(readFits(whole.subarray(0, hduEnd(2) - 2880 + 200), 'whole.fts').hdus).toHaveLength(3);
  });

  it('an empty primary HDU that announces extensions and has none after it is read, as astropy reads it', () => {
    // astropy writes EXTEND = T on every primary HDU, a header-only file's too: valid FITS, whatever a download of
    // one would mean (downloads are held to more: see fits-layout.test.ts). With NEXTEND it is held to its count.
    expect(readFits(emptyPrimary(), 'empty.fts').hdus).toHaveLength(1);
    expect(readError(emptyPrimary([['NEXTEND', 2]]), 'empty.fts').message).toBe(
      'empty.fts ends after HDU 0: its primary header declares 2 extensions (NEXTEND = 2).',
    );
    // Without EXTEND = T, or with data of its own, it is a whole file of one HDU.
    expect(
      readFits(
        headerBytes([
          ['SIMPLE', true],
          ['BITPIX', 8],
          ['NAXIS', 0],
          ['EXTEND', false],
        ]),
        'a.fts',
      ).hdus,
    ).toHaveLength(1);
    expect(readFits(imageHdu({ bitpix: 8, axes: [2], stored: [1, 2], extraCards: [['EXTEND', true]] }), 'b.fts').hdus).toHaveLength(1);
    expect(readFits(emptyPrimary([['NEXTEND', 0]]), 'c.fts').hdus).toHaveLength(1);
  });

  it('cut inside the first bytes of the next header: a header cut short, not bytes after the file', () => {
    const whole = concat(emptyPrimary(), extension(1), extension(2));
    expect(readError(whole.subarray(0, hduEnd(1) + 4)).message).toBe("test.fts ends after 4 bytes of HDU 2's header, before its END card.");
  });

  it('a NEXTEND that is not a count is a damaged header', () => {
    expect(readError(concat(emptyPrimary([['NEXTEND', 'four']]), extension(1))).message).toBe(
      "test.fts has a damaged header in HDU 0: NEXTEND = 'four' where a whole number of at least 0 belongs.",
    );
  });

  it('the error holds the HDUs whose headers arrived whole, for `header` to show', () => {
    const whole = withNextend(3);
    expect(readError(whole.subarray(0, hduEnd(2))).hdus.map(describeHdu)).toEqual(['HDU 0 (primary)', 'HDU 1 (IMAGE)', 'HDU 2 (IMAGE)']);
    // Cut inside HDU 2's data: its header is whole.
    expect(readError(whole.subarray(0, hduEnd(2) - 2880 + 50)).hdus.map((hdu) => hdu.index)).toEqual([0, 1, 2]);
    // Cut inside HDU 2's header: only those before it.
    expect(readError(whole.subarray(0, hduEnd(1) + 100)).hdus.map((hdu) => hdu.index)).toEqual([0, 1]);
    expect(readError(whole.subarray(0, 100)).hdus).toEqual([]);
  });
});

describe("the emulator's synthetic files", () => {
  it('read as a coronagraph image: dark occulter in the middle, bright just outside it, fainter further out', () => {
    const subject = { instrument: 'kcor', product: 'pb', filename: '20250324_210304_kcor_l2_pb.fts', dateObs: '2025-03-24T21:03:04' } as const;
    const file = readFits(fitsBytes(subject, { imageSize: 96, ucompImageSize: 0 }), subject.filename);
    expect(file.hdus).toHaveLength(1);
    const header = file.hdus[0]!;
    expect(header.values.get('DATE-OBS')).toBe('2025-03-24T21:03:04');
    expect(header.cards.at(-1)).toMatchObject({ keyword: 'COMMENT', value: null });
    const image = decodeImage(file, 0);
    expect([image.width, image.height]).toEqual([96, 96]);
    const at = (x: number, y: number): number => image.pixels[y * 96 + x]!;
    // The sun's radius is n/6 = 16 pixels and the occulter 1.05 times that, around the centre (47.5, 47.5).
    expect(at(48, 48)).toBe(0);
    expect(at(48 + 18, 48)).toBeGreaterThan(0);
    expect(at(48 + 18, 48)).toBeGreaterThan(10 * at(95, 95));
  });
});
