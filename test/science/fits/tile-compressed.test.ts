// Tile-compressed images (FITS standard 4.0, section 10) decoded pixel for pixel as cfitsio decodes them, and
// shown as astropy shows them: the fixtures are files written by astropy and by fpack, with cfitsio's (funpack)
// decoded pixels and astropy's 1-99.5 % clip and asinh rendering (scripts/fixtures/make_tile_compressed.py).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FitsReadError, firstImageHdu, readFits } from '../../../src-science/fits/fits-file';
import { decodeImage, imageReader } from '../../../src-science/fits/fits-image';
import { displayBytes, percentileClip } from '../../../src-science/fits/image-stretch';
import { concat, emptyPrimary, headerBytes } from './fits-writer';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'tile-compressed');

interface Expected {
  width: number;
  height: number;
  bitpix: number;
  compression: string;
  quantize: string | null;
  writer: 'astropy' | 'fpack';
  planes: number;
  clip?: [number, number];
}

const expected = JSON.parse(readFileSync(path.join(FIXTURES, 'expected.json'), 'utf8')) as Record<string, Expected>;
const decodedCases = Object.entries(expected).filter(([, entry]) => entry.clip !== undefined);
const fixture = (name: string, extension: string): Uint8Array => new Uint8Array(readFileSync(path.join(FIXTURES, `${name}.${extension}`)));
const reference = (name: string): Float64Array => {
  const bytes = fixture(name, 'f64');
  return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8);
};

describe('tile-compressed images, against cfitsio and astropy', () => {
  it('covers RICE_1, GZIP_1 and GZIP_2, integers of 8 to 32 bits, floats quantized with and without dither, and lossless floats', () => {
    const kinds = new Set(decodedCases.map(([, entry]) => `${entry.compression} ${entry.bitpix} ${entry.quantize ?? ''}`));
    expect(kinds.size).toBeGreaterThanOrEqual(12);
    expect(decodedCases.length).toBe(20);
    expect(decodedCases.filter(([, entry]) => entry.planes === 3).length).toBe(2);
  });

  it.each(decodedCases)('%s: every pixel exactly as cfitsio decodes it (NaN where blank)', (name, entry) => {
    const file = readFits(fixture(name, 'fits'), `${name}.fits`);
    const hdu = firstImageHdu(file)!;
    expect(hdu.index).toBe(1);
    expect(hdu.compression).toMatchObject({ algorithm: entry.compression, bitpix: entry.bitpix });
    expect(hdu.compression!.axes.slice(0, 2)).toEqual([entry.width, entry.height]);
    const image = decodeImage(file, 1);
    expect([image.width, image.height, image.bitpix, image.planes]).toEqual([entry.width, entry.height, entry.bitpix, entry.planes]);
    const wanted = reference(name);
    expect(image.pixels.length).toBe(wanted.length);
    const differing: string[] = [];
    for (let i = 0; i < wanted.length && differing.length < 5; i += 1) {
      if (!Object.is(image.pixels[i], wanted[i])) differing.push(`pixel ${i}: ${image.pixels[i]} for ${wanted[i]}`);
    }
    expect(differing).toEqual([]);
  });

  it.each(decodedCases)("%s: astropy's 1-99.5 % clip and asinh grey levels", (name, entry) => {
    const image = decodeImage(readFits(fixture(name, 'fits'), `${name}.fits`), 1);
    const clip = percentileClip(image.pixels, 1, 99.5)!;
    expect(clip.low).toBeCloseTo(entry.clip![0], 12 - Math.ceil(Math.log10(Math.abs(entry.clip![1]) || 1)));
    expect(clip.high).toBeCloseTo(entry.clip![1], 12 - Math.ceil(Math.log10(Math.abs(entry.clip![1]) || 1)));
    const grey = displayBytes(image.pixels, image.width, image.height, { ...clip, stretch: 'asinh' });
    expect(Array.from(grey)).toEqual(Array.from(fixture(name, 'grey')));
  });

  it('rows read a few at a time are the rows of the whole image (tiles of 16 x 16 cut across by the bands)', () => {
    for (const name of ['int16_rice_tiles', 'float32_rice_tiles', 'float32_rice_dither1']) {
      const file = readFits(fixture(name, 'fits'), `${name}.fits`);
      const whole = decodeImage(file, 1).pixels;
      const reader = imageReader(file, 1);
      const band = new Float64Array(reader.width * 5);
      for (let first = 0; first < reader.height; first += 5) {
        const count = Math.min(5, reader.height - first);
        reader.readRows(first, count, band);
        expect(Array.from(band.subarray(0, count * reader.width))).toEqual(Array.from(whole.subarray(first * reader.width, (first + count) * reader.width)));
      }
    }
  });

  it.each([
    ['int16_hcompress', 'HCOMPRESS_1'],
    ['int16_plio', 'PLIO_1'],
  ])('%s: named plainly as a compression the reader does not decode', (name, algorithm) => {
    const file = readFits(fixture(name, 'fits'), `${name}.fits`);
    expect(firstImageHdu(file)).toBeUndefined();
    expect(() => decodeImage(file, 1)).toThrow(FitsReadError);
    expect(() => decodeImage(file, 1)).toThrow(
      `${name}.fits holds no image in HDU 1 (BINTABLE, EXTNAME 'COMPRESSED_IMAGE'): it is tile-compressed with ${algorithm}, which this reader does not decode (it decodes RICE_1, GZIP_1 and GZIP_2); it holds no image this reader decodes: HDU 1 is tile-compressed with ${algorithm}, which it does not decode (it decodes RICE_1, GZIP_1 and GZIP_2).`,
    );
  });

  it('a tile whose descriptor points past the heap is a damaged file, named so', () => {
    const bytes = fixture('int16_rice', 'fits').slice();
    const file = readFits(bytes, 'int16_rice.fits');
    // The first row's descriptor: element count, then heap offset (big-endian 32-bit); move the offset far away.
    new DataView(bytes.buffer).setUint32(file.hdus[1]!.dataOffset + 4, 0x7fffff00);
    expect(() => decodeImage(readFits(bytes, 'int16_rice.fits'), 1)).toThrow(
      "int16_rice.fits has a damaged tile-compressed image in HDU 1: tile 1's data lie beyond the end of the heap.",
    );
  });
});

describe('hostile tile-compressed headers and tiles', () => {
  /** A one-tile GZIP_1 image of `axes`, the tile's bytes given: a BINTABLE of one P descriptor, and its heap. */
  function gzipImage(axes: readonly number[], tileBytes: Uint8Array): Uint8Array {
    const heap = tileBytes;
    const row = new Uint8Array(8);
    new DataView(row.buffer).setUint32(0, heap.length);
    const header = headerBytes([
      ['XTENSION', 'BINTABLE'],
      ['BITPIX', 8],
      ['NAXIS', 2],
      ['NAXIS1', 8],
      ['NAXIS2', 1],
      ['PCOUNT', heap.length],
      ['GCOUNT', 1],
      ['TFIELDS', 1],
      ['TTYPE1', 'COMPRESSED_DATA'],
      ['TFORM1', `1PB(${heap.length})`],
      ['ZIMAGE', true],
      ['ZBITPIX', 16],
      ['ZNAXIS', axes.length],
      ...axes.map((length, axis) => [`ZNAXIS${axis + 1}`, length] as const),
      ...axes.map((length, axis) => [`ZTILE${axis + 1}`, length] as const),
      ['ZCMPTYPE', 'GZIP_1'],
    ]);
    const data = concat(row, heap);
    return concat(emptyPrimary(), header, concat(data, new Uint8Array((2880 - (data.length % 2880)) % 2880)));
  }

  it('a tile that inflates far beyond its pixels (a gzip bomb) is refused, not inflated', () => {
    const bomb = gzipSync(new Uint8Array(50_000_000));
    expect(bomb.length).toBeLessThan(100_000);
    const file = readFits(gzipImage([4, 1], bomb), 'bomb.fits');
    expect(() => decodeImage(file, 1)).toThrow(
      'bomb.fits has a damaged tile-compressed image in HDU 1: tile 1 inflates to more than 8 bytes for each of its 4 pixels.',
    );
  });

  it('an image or tile of absurd size claimed by a few header cards is refused before anything is allocated', () => {
    const file = readFits(gzipImage([1_000_000, 1_000_000], gzipSync(new Uint8Array(8))), 'huge.fits');
    expect(() => decodeImage(file, 1)).toThrow(/^huge\.fits has a tile-compressed image in HDU 1 larger than this reader decodes: 1000000 x 1000000 pixels/);
  });

  it('the right tile decodes as given (the helper itself is sound)', () => {
    const tile = new Uint8Array([0, 1, 0, 2, 255, 255, 0x80, 0]);
    expect(Array.from(decodeImage(readFits(gzipImage([4, 1], gzipSync(tile)), 'ok.fits'), 1).pixels)).toEqual([1, 2, -1, -32768]);
  });
});
