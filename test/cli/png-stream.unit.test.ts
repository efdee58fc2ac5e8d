// The PNG written a band of rows at a time decodes to the grey levels given, however the rows were split, as
// fast-png's own PNG of the same levels does.
import fc from 'fast-check';
import { decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { GreyPngStream } from '../../src-main/cli/commands/png-stream';

function streamed(grey: Uint8Array, width: number, height: number, bands: readonly number[]): Uint8Array {
  const png = new GreyPngStream(width, height);
  let row = 0;
  for (let i = 0; row < height; i += 1) {
    const rows = Math.min(height - row, bands[i % bands.length]!);
    png.addRows(grey.slice(row * width, (row + rows) * width), rows);
    row += rows;
  }
  return png.finish();
}

describe('the streamed grey PNG', () => {
  it('decodes to the levels given, for any size and split into bands', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 5 }),
        fc.integer(),
        (width, height, bands, seed) => {
          const grey = Uint8Array.from({ length: width * height }, (_, i) => Math.abs(Math.sin(i + seed) * 1000) % 256);
          const png = decode(streamed(grey, width, height, bands));
          expect([png.width, png.height, png.channels, png.depth]).toEqual([width, height, 1, 8]);
          expect(Array.from(png.data)).toEqual(Array.from(grey));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a 2000 x 1500 picture in bands of 7 rows: many IDAT chunks, every one checked by the decoder', () => {
    const grey = Uint8Array.from({ length: 2000 * 1500 }, (_, i) => (i * 2654435761) >>> 24);
    const bytes = streamed(grey, 2000, 1500, [7]);
    expect(Array.from(decode(bytes).data)).toEqual(Array.from(grey));
    // The signature, IHDR first, IEND last.
    expect(Array.from(bytes.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(Buffer.from(bytes.subarray(12, 16)).toString()).toBe('IHDR');
    expect(Buffer.from(bytes.subarray(bytes.length - 8, bytes.length - 4)).toString()).toBe('IEND');
  });

  it('refuses to finish before every row has come', () => {
    const png = new GreyPngStream(2, 2);
    png.addRows(new Uint8Array(2), 1);
    expect(() => png.finish()).toThrow('1 of 2 rows were added');
  });
});
