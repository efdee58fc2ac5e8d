import { describe, expect, it } from 'vitest';
import { FitsLayoutError, FitsLayoutWalker, type FitsEnding } from '../../../src-science/fits/fits-layout';
import { dataUnit, header, imageHeader, multiHduFile, primaryHeader, split } from './fits-test-files';

type Verdict = FitsEnding | { fault: string; offset: number };

/** Feeds `bytes` in pieces of `size`; returns the verdict and every byte the walker let through, in order. */
function walk(bytes: Buffer, size: number): { verdict: Verdict; passed: Buffer } {
  const walker = new FitsLayoutWalker();
  const passed: Uint8Array[] = [];
  const pass = (part: Uint8Array): void => {
    // Copied: a piece handed on must stay valid after the walker moves on.
    passed.push(Uint8Array.prototype.slice.call(part));
  };
  let verdict: Verdict;
  try {
    for (const piece of split(bytes, size)) walker.write(piece, pass);
    verdict = walker.finish();
  } catch (error) {
    if (!(error instanceof FitsLayoutError)) throw error;
    verdict = { fault: error.fault, offset: error.offset };
  }
  return { verdict, passed: Buffer.concat(passed) };
}

const PIECE_SIZES = [1, 7, 80, 2879, 2880, 2881, 1 << 20];

/** The same verdict and the same bytes let through, wherever the chunk boundaries fall. */
function expectEverySplit(bytes: Buffer, verdict: Verdict, passedBytes: number): void {
  for (const size of PIECE_SIZES) {
    const result = walk(bytes, size);
    expect(result.verdict, `pieces of ${size}`).toEqual(verdict);
    expect(result.passed.length, `pieces of ${size}`).toBe(passedBytes);
    expect(result.passed.equals(bytes.subarray(0, passedBytes)), `pieces of ${size}`).toBe(true);
  }
}

const image64 = Buffer.concat([imageHeader(64), dataUnit(64 * 64 * 4)]);

describe('a FITS stream that holds what its headers declare', () => {
  it('one image HDU', () => {
    expectEverySplit(image64, { complete: true, bytes: image64.length }, image64.length);
  });

  it('a primary HDU without data', () => {
    const bytes = header([
      ['SIMPLE', true],
      ['BITPIX', 8],
      ['NAXIS', 0],
    ]);
    expectEverySplit(bytes, { complete: true, bytes: 2880 }, 2880);
  });

  it('an empty primary HDU, image extensions and a binary table, headers of several blocks', () => {
    const { bytes } = multiHduFile({ longHeader: true });
    expectEverySplit(bytes, { complete: true, bytes: bytes.length }, bytes.length);
  });
});

describe('a FITS stream that ends inside the padding of its last data unit (the archive serves whole blocks)', () => {
  it('is incomplete, short of the end of its last 2,880-byte block, its data all let through', () => {
    const { bytes } = multiHduFile({ unpaddedEnd: true });
    expectEverySplit(bytes, { complete: false, arrived: bytes.length, declared: Math.ceil(bytes.length / 2880) * 2880, inPadding: true }, bytes.length);
    const single = image64.subarray(0, 2880 + 64 * 64 * 4 + 10); // part of the padding is there
    expectEverySplit(single, { complete: false, arrived: single.length, declared: image64.length, inPadding: true }, single.length);
  });
});

describe('a FITS stream shorter than its headers declare', () => {
  it('a header declaring 10,000 data bytes and nothing after it', () => {
    const bytes = primaryHeader(10_000);
    expectEverySplit(bytes, { complete: false, arrived: 2880, declared: 12_880 }, 2880);
  });

  it('an image missing its last byte', () => {
    const bytes = image64.subarray(0, 2880 + 64 * 64 * 4 - 1);
    expectEverySplit(bytes, { complete: false, arrived: bytes.length, declared: 2880 + 64 * 64 * 4 }, bytes.length);
  });

  it('an extension whose data did not arrive', () => {
    const { parts } = multiHduFile();
    const bytes = Buffer.concat(parts.slice(0, 6));
    expectEverySplit(bytes, { complete: false, arrived: bytes.length, declared: bytes.length + 12 * 100 + 500 }, bytes.length);
  });

  it('an extension header cut short, even within its first card', () => {
    const { parts } = multiHduFile();
    const before = Buffer.concat(parts.slice(0, 3));
    for (const kept of [3, 9, 100, 2879]) {
      const bytes = Buffer.concat([before, parts[3]!.subarray(0, kept)]);
      // The first bytes of an extension are held back until they prove to be "XTENSION=".
      expectEverySplit(bytes, { complete: false, arrived: bytes.length }, kept < 9 ? before.length : bytes.length);
    }
  });

  it('a primary header cut short, and no bytes at all', () => {
    expectEverySplit(image64.subarray(0, 1000), { complete: false, arrived: 1000 }, 1000);
    expect(walk(Buffer.alloc(0), 1).verdict).toEqual({ complete: false, arrived: 0 });
  });
});

describe('a multi-extension stream judged by the NEXTEND of its primary header', () => {
  const declaring = (nextend: number, options: { unpaddedEnd?: boolean } = {}): { bytes: Buffer; parts: Buffer[] } =>
    multiHduFile({ ...options, primaryCards: [['NEXTEND', nextend]] });

  it('whole; without the final padding of its last data unit, every HDU there but its last block cut short', () => {
    const { bytes } = declaring(3);
    expectEverySplit(bytes, { complete: true, bytes: bytes.length }, bytes.length);
    const unpadded = declaring(3, { unpaddedEnd: true }).bytes;
    expectEverySplit(unpadded, { complete: false, arrived: unpadded.length, declared: bytes.length, inPadding: true }, unpadded.length);
  });

  it('cut at every HDU boundary before the last: incomplete, with how many of the declared HDUs arrived', () => {
    const { parts } = declaring(3);
    for (const [kept, hdus] of [
      [1, 1],
      [3, 2],
      [5, 3],
    ] as const) {
      const bytes = Buffer.concat(parts.slice(0, kept));
      expectEverySplit(bytes, { complete: false, arrived: bytes.length, hdus, declaredHdus: 4 }, bytes.length);
    }
  });

  it('cut inside the padding of a data unit that is not the last declared: incomplete', () => {
    const { parts } = declaring(3);
    for (const [kept, short, hdus] of [
      [3, 100, 2],
      [5, 1, 3],
    ] as const) {
      const bytes = Buffer.concat(parts.slice(0, kept)).subarray(0, -short);
      expectEverySplit(bytes, { complete: false, arrived: bytes.length, hdus, declaredHdus: 4 }, bytes.length);
    }
  });

  it('NEXTEND = 0 with an empty primary HDU is a whole file; more extensions than declared lose nothing', () => {
    const { parts } = declaring(0);
    expectEverySplit(parts[0]!, { complete: true, bytes: 2880 }, 2880);
    const { bytes } = declaring(1);
    expectEverySplit(bytes, { complete: true, bytes: bytes.length }, bytes.length);
  });

  it('NEXTEND is not taken as a promise without EXTEND = T', () => {
    const bytes = header([
      ['SIMPLE', true],
      ['BITPIX', 8],
      ['NAXIS', 0],
      ['NEXTEND', 2],
    ]);
    expectEverySplit(bytes, { complete: true, bytes: 2880 }, 2880);
  });

  it.each([
    ['negative', -1],
    ['not a number', 'two'],
    ['fractional', 2.5],
  ] as const)('a NEXTEND that is %s makes the primary header corrupt', (_name, value) => {
    const { bytes } = multiHduFile({ primaryCards: [['NEXTEND', value]] });
    expectEverySplit(bytes, { fault: 'corrupt', offset: 0 }, 2880);
  });
});

describe('a multi-extension stream whose primary header declares no count', () => {
  it('an empty primary HDU that announces extensions, and nothing after it: incomplete', () => {
    const { parts } = multiHduFile();
    expectEverySplit(parts[0]!, { complete: false, arrived: 2880, hdus: 1 }, 2880);
  });

  it('cut at a later HDU boundary, it cannot be told from a whole file (the README says so)', () => {
    const { parts } = multiHduFile();
    const bytes = Buffer.concat(parts.slice(0, 3));
    expectEverySplit(bytes, { complete: true, bytes: bytes.length }, bytes.length);
  });
});

describe('a FITS stream longer than its headers declare', () => {
  it('stops at the declared end of a 64x64 image followed by zeros', () => {
    const bytes = Buffer.concat([image64, Buffer.alloc(100_000)]);
    expectEverySplit(bytes, { fault: 'oversized', offset: image64.length }, image64.length);
  });

  it('never lets through bytes that only begin like an extension', () => {
    const bytes = Buffer.concat([image64, Buffer.from('XTENSIOX= '), Buffer.alloc(5000)]);
    expectEverySplit(bytes, { fault: 'oversized', offset: image64.length }, image64.length);
  });

  it('after several HDUs, text where the next header should begin', () => {
    const { bytes: file } = multiHduFile();
    const bytes = Buffer.concat([file, Buffer.from('<html><body>trailing page</body></html>')]);
    expectEverySplit(bytes, { fault: 'oversized', offset: file.length }, file.length);
  });
});

describe('a FITS stream whose headers make no sense', () => {
  const corrupt = (bytes: Buffer, passed: number): void => expectEverySplit(bytes, { fault: 'corrupt', offset: 0 }, passed);

  it('a header with no END in the first 1000 blocks', () => {
    const endless = header(
      [
        ['SIMPLE', true],
        ['BITPIX', 8],
        ['NAXIS', 0],
      ],
      { fillerCards: 36 * 1000 },
    );
    const bytes = endless.subarray(0, 1001 * 2880);
    for (const size of [80, 2879, 2880, 2881, 1 << 20]) {
      const result = walk(bytes, size);
      expect(result.verdict).toEqual({ fault: 'corrupt', offset: 0 });
      expect(result.passed.length).toBeLessThanOrEqual(1000 * 2880);
    }
  });

  it.each([
    ['a non-numeric axis length', [['NAXIS1', 'abc']]],
    ['a negative axis length', [['NAXIS1', -5]]],
    ['a fractional axis length', [['NAXIS1', 1.5]]],
    ['an impossible BITPIX', [['BITPIX', 12]]],
    ['a missing axis', [['NAXIS', 3]]],
    ['a negative PCOUNT', [['PCOUNT', -1]]],
  ] as const)('%s', (_name, changes) => {
    const cards = new Map<string, string | number | boolean>([
      ['SIMPLE', true],
      ['BITPIX', 8],
      ['NAXIS', 2],
      ['NAXIS1', 10],
      ['NAXIS2', 10],
    ]);
    for (const [keyword, value] of changes) cards.set(keyword, value);
    const bytes = Buffer.concat([header([...cards]), dataUnit(100)]);
    corrupt(bytes, 2880);
  });

  it('missing BITPIX or NAXIS', () => {
    corrupt(
      header([
        ['SIMPLE', true],
        ['NAXIS', 0],
      ]),
      2880,
    );
    corrupt(
      header([
        ['SIMPLE', true],
        ['BITPIX', 8],
      ]),
      2880,
    );
  });

  it('an extension with a broken header is corrupt at its own offset', () => {
    const bytes = Buffer.concat([
      image64,
      header([
        ['XTENSION', 'IMAGE'],
        ['BITPIX', 16],
        ['NAXIS', 1],
        ['NAXIS1', 'many'],
      ]),
    ]);
    expectEverySplit(bytes, { fault: 'corrupt', offset: image64.length }, bytes.length);
  });

  it('a body that is not FITS at all', () => {
    expectEverySplit(Buffer.from('<!DOCTYPE html><html></html>'), { fault: 'not-fits', offset: 0 }, 0);
  });
});

describe('walking a file on disk', () => {
  it('skips data units without seeing them and reaches the same verdict', () => {
    const { bytes } = multiHduFile({ longHeader: true, unpaddedEnd: true });
    const walker = new FitsLayoutWalker();
    let offset = 0;
    let seen = 0;
    while (offset < bytes.length) {
      const skippable = walker.skippableBytes;
      if (skippable > 0) {
        const n = Math.min(skippable, bytes.length - offset);
        walker.skip(n);
        offset += n;
        continue;
      }
      const block = bytes.subarray(offset, offset + 2880);
      walker.write(block);
      seen += block.length;
      offset += block.length;
    }
    // It ends inside its last padding, which the skip reached without reading.
    expect(walker.finish()).toEqual({ complete: false, arrived: bytes.length, declared: Math.ceil(bytes.length / 2880) * 2880, inPadding: true });
    expect(seen).toBe(2880 * 2 + 2880 + 2880 * 2 + 2880); // header blocks only
  });
});
