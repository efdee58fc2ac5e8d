import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { fitsBytes, fitsChunks, rawFitsSize, GZIP_OPTIONS, MEASURED_GZIP_RATIO, type FitsSubject } from '../../src-main/emulator/synthetic-fits';
import { readFits } from '../../src-science/fits/fits-file';
import { FitsLayoutWalker } from '../../src-science/fits/fits-layout';

const subject = { instrument: 'kcor' as const, product: 'pb', filename: '20250324_210304_kcor_l2_pb.fts', dateObs: '2025-03-24T21:03:04' };
const sizes = (imageSize: number, ucompImageSize = 0): { imageSize: number; ucompImageSize: number } => ({ imageSize, ucompImageSize });

describe('synthetic FITS', () => {
  it('is a primary HDU of 2880-byte blocks with big-endian float32 data', () => {
    const bytes = fitsBytes(subject, sizes(64));
    expect(bytes.length).toBe(rawFitsSize(subject, sizes(64)));
    expect(bytes.length % 2880).toBe(0);
    const header = bytes.subarray(0, 2880).toString('latin1');
    expect(/^[\x20-\x7e]+$/.test(header)).toBe(true);
    const cards = header.match(/.{80}/g) ?? [];
    expect(cards.slice(0, 5).map((c) => c.slice(0, 30))).toEqual([
      'SIMPLE  =                    T',
      'BITPIX  =                  -32',
      'NAXIS   =                    2',
      'NAXIS1  =                   64',
      'NAXIS2  =                   64',
    ]);
    const end = cards.findIndex((c) => c.trimEnd() === 'END');
    expect(end).toBeGreaterThan(5);
    expect(cards.slice(end + 1).every((c) => c.trim() === '')).toBe(true);
    // The centre is behind the occulter; the edge carries corona.
    const data = bytes.subarray(2880);
    expect(data.readFloatBE((32 * 64 + 32) * 4)).toBe(0);
    expect(data.readFloatBE(0)).toBeGreaterThan(0);
    expect(data.subarray(64 * 64 * 4).every((b) => b === 0)).toBe(true); // padding
  });

  it('is deterministic per file name and the same whether streamed or built whole', () => {
    const streamed = Buffer.concat([...fitsChunks(subject, sizes(300))]);
    expect(streamed.equals(fitsBytes(subject, sizes(300)))).toBe(true);
    expect(
      fitsBytes({ ...subject, filename: '20250324_210319_kcor_l2_pb.fts' }, sizes(300))
        .subarray(2880)
        .equals(streamed.subarray(2880)),
    ).toBe(false);
  });

  it('gzips a 1024x1024 image to about the ratio of real KCor files (~0.69)', () => {
    const raw = fitsBytes(subject, sizes(1024));
    const ratio = gzipSync(raw, GZIP_OPTIONS).length / raw.length;
    expect(ratio).toBeGreaterThan(0.64);
    expect(ratio).toBeLessThan(0.72);
    expect(Math.abs(ratio - MEASURED_GZIP_RATIO.kcor)).toBeLessThan(0.02);
  });
});

const ucompL2: FitsSubject = {
  instrument: 'ucomp',
  product: 'l2',
  filename: '20250324.200652.ucomp.789.l2.fts',
  dateObs: '2025-03-24T20:06:52',
  waveRegion: '789',
  obsPlan: 'synoptic-original-lines.cbk',
  wavelengths: 5,
};

describe('synthetic UCoMP files', () => {
  it('are an empty primary HDU declaring its extensions, then one named float32 image per quantity', () => {
    const bytes = fitsBytes(ucompL2, sizes(48));
    expect(bytes.length).toBe(rawFitsSize(ucompL2, sizes(48)));
    const file = readFits(bytes, ucompL2.filename);
    const [primary, ...extensions] = file.hdus;
    expect(primary!.values.get('NAXIS')).toBe(0);
    expect(primary!.values.get('EXTEND')).toBe(true);
    expect(primary!.values.get('NEXTEND')).toBe(extensions.length);
    expect(primary!.values.get('FILENAME')).toBe(ucompL2.filename);
    expect(extensions.map((hdu) => hdu.name)).toEqual([
      'Center wavelength intensity',
      'Enhanced intensity',
      'Peak intensity',
      'LOS velocity',
      'Line width',
      'Weighted average I',
    ]);
    for (const hdu of extensions) expect([hdu.type, hdu.bitpix, hdu.axes]).toEqual(['IMAGE', -32, [48, 38]]);
    // Each extension holds its own picture, not copies of one.
    const first = extensions[0]!;
    const second = extensions[1]!;
    expect(
      Buffer.from(bytes.subarray(first.dataOffset, first.dataOffset + first.dataBytes)).equals(
        bytes.subarray(second.dataOffset, second.dataOffset + second.dataBytes),
      ),
    ).toBe(false);
    const walker = new FitsLayoutWalker();
    walker.write(bytes);
    expect(walker.finish()).toEqual({ complete: true, bytes: bytes.length });
  });

  it('level 1 files hold one image per wavelength, named after it', () => {
    const l1 = { ...ucompL2, product: 'l1', filename: '20250324.200652.ucomp.789.l1.5.fts' };
    const names = readFits(fitsBytes(l1, sizes(16)), l1.filename)
      .hdus.slice(1)
      .map((hdu) => hdu.name);
    expect(names).toHaveLength(5);
    expect(names[2]).toBe('Corona I 789.40 nm');
  });

  it('take their width from ucompImageSize when it is set, from imageSize otherwise, and are four fifths as high', () => {
    expect(rawFitsSize(ucompL2, sizes(16))).toBe(2880 + 6 * (2880 + 2880));
    expect(rawFitsSize(ucompL2, sizes(16, 60))).toBe(2880 + 6 * (2880 + 60 * 48 * 4)); // 11,520 bytes: four whole blocks
    expect(rawFitsSize(subject, sizes(16, 60))).toBe(2880 + 2880);
    // The real size, 1280 x 1024, gives the reference listing's L2 size (31,501,440 bytes for 20250324.200652.ucomp.789.l2.fts).
    expect(Math.abs(rawFitsSize(ucompL2, sizes(256, 1280)) - 31_501_440) / 31_501_440).toBeLessThan(0.001);
  });

  it('gzip at 1280 x 1024 to the ratio the listing estimates their sizes with', () => {
    const raw = fitsBytes(ucompL2, sizes(256, 1280));
    const ratio = gzipSync(raw, GZIP_OPTIONS).length / raw.length;
    expect(Math.abs(ratio - MEASURED_GZIP_RATIO.ucomp)).toBeLessThan(0.01);
  });

  it('are the same whether streamed or built whole', () => {
    expect(Buffer.concat([...fitsChunks(ucompL2, sizes(40))]).equals(fitsBytes(ucompL2, sizes(40)))).toBe(true);
  });
});
