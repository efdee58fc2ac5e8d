// A header longer than any real one, as a hostile server could send: the download check (the layout walker, on
// the main process's thread) refuses it at once instead of spending seconds joining a string.
import { describe, expect, it } from 'vitest';
import { FitsLayoutError, FitsLayoutWalker } from '../../../src-science/fits/fits-layout';

/** A primary header without data whose LONGSTR goes on over `count` CONTINUE cards. */
function continuedHeader(count: number): Uint8Array {
  const records = [
    'SIMPLE  =                    T',
    'BITPIX  =                    8',
    'NAXIS   =                    0',
    "LONGSTR = '&'",
    ...Array.from({ length: count }, (_, i) => `CONTINUE  '${'x'.repeat(66)}${i < count - 1 ? '&' : ''}'`),
    'END',
  ];
  const text = records.map((record) => record.padEnd(80)).join('');
  return Uint8Array.from(text.padEnd(Math.ceil(text.length / 2880) * 2880), (c) => c.charCodeAt(0));
}

describe('the download check on a header of 16,000 CONTINUE cards (a 1.3 MB header)', () => {
  it('is refused as corrupt, naming the card', () => {
    const walker = new FitsLayoutWalker();
    let refusal: unknown;
    try {
      walker.write(continuedHeader(16_000));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(FitsLayoutError);
    expect(refusal).toMatchObject({
      fault: 'corrupt',
      offset: 0,
      message: expect.stringContaining('the FITS header of HDU 0 has a long string (LONGSTR) continued over more than 1,000 CONTINUE cards'),
    });
  });

  it('1,000 CONTINUE cards pass: the file is complete', () => {
    const bytes = continuedHeader(1000);
    const walker = new FitsLayoutWalker();
    walker.write(bytes);
    expect(walker.finish()).toEqual({ complete: true, bytes: bytes.length });
  });
});
