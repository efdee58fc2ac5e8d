import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { fitsBytes, fitsChunks, rawFitsSize, GZIP_OPTIONS, MEASURED_GZIP_RATIO } from '../../src-main/emulator/synthetic-fits';

const subject = { instrument: 'kcor' as const, product: 'pb', filename: '20250324_210304_kcor_l2_pb.fts', dateObs: '2025-03-24T21:03:04' };

describe('synthetic FITS', () => {
  it('is a primary HDU of 2880-byte blocks with big-endian float32 data', () => {
    const bytes = fitsBytes(subject, 64);
    expect(bytes.length).toBe(rawFitsSize(64));
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
    const streamed = Buffer.concat([...fitsChunks(subject, 300)]);
    expect(streamed.equals(fitsBytes(subject, 300))).toBe(true);
    expect(fitsBytes({ ...subject, filename: '20250324_210319_kcor_l2_pb.fts' }, 300).subarray(2880).equals(streamed.subarray(2880))).toBe(false);
  });

  it('gzips a 1024x1024 image to about the ratio of real KCor files (~0.69)', () => {
    const raw = fitsBytes(subject, 1024);
    const ratio = gzipSync(raw, GZIP_OPTIONS).length / raw.length;
    expect(ratio).toBeGreaterThan(0.64);
    expect(ratio).toBeLessThan(0.72);
    expect(Math.abs(ratio - MEASURED_GZIP_RATIO)).toBeLessThan(0.02);
  });
});
