// Files astropy wrote whole, and copies cut inside the zero padding of their last data unit
// (scripts/fixtures/make_cut_padding.py): the reader reads each as astropy does (every HDU, the same data, a warning
// exactly where astropy warns), and the walker that judges downloads and files on disk calls a file whole exactly
// where fitsverify finds no error, a cut one short of the size astropy expected.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFits, shortBlockWarning } from '../../../src-science/fits/fits-file';
import { decodeImage } from '../../../src-science/fits/fits-image';
import { FitsLayoutWalker } from '../../../src-science/fits/fits-layout';

const FIXTURES = path.join(import.meta.dirname, '..', '..', 'fixtures', 'cut-padding');

interface Verdict {
  size: number;
  missingPadding: number;
  astropy: { reads: boolean; hdus: number; dataEqualWhole: boolean; warnings: string[] };
  fitsverify: { status: number; warnings: number; errors: number; errorLines: string[] };
}

const verdicts = JSON.parse(readFileSync(path.join(FIXTURES, 'verdicts.json'), 'utf8')) as Record<string, Verdict>;
const bytesOf = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(FIXTURES, name)));
const wholeOf = (name: string): string => name.replace(/-(cut800|unpadded)/, '');
const cases = Object.entries(verdicts);

/** Each image HDU's pixels, as numbers. */
function pixelsOf(bytes: Uint8Array, name: string): number[][] {
  const file = readFits(bytes, name);
  return file.hdus.filter((hdu) => hdu.isImage).map((hdu) => Array.from(decodeImage(file, hdu.index).pixels));
}

/** The size astropy expected of a file it warned was truncated: "... smaller than the expected size (37440)". */
function expectedByAstropy(verdict: Verdict): number | undefined {
  const found = verdict.astropy.warnings.map((warning) => /expected size \((\d+)\)/.exec(warning)).find(Boolean);
  return found ? Number(found[1]) : undefined;
}

describe('a file cut inside the padding of its last data unit, as astropy and fitsverify judge it', () => {
  it('the fixtures hold whole files and cut ones, which astropy reads with a warning and fitsverify calls an error', () => {
    expect(cases.map(([name, verdict]) => [name, verdict.missingPadding, verdict.astropy.warnings.length, verdict.fitsverify.errors])).toEqual([
      ['image.fits', 0, 0, 0],
      ['image-cut800.fits', 800, 1, 1],
      ['image-unpadded.fits', 2560, 1, 1],
      ['extensions.fits', 0, 0, 0],
      ['extensions-cut800.fits', 800, 1, 1],
    ]);
  });

  it.each(cases)('%s: read as astropy reads it, every HDU and the whole file’s data, warned of where astropy warns', (name, verdict) => {
    const bytes = bytesOf(name);
    expect(bytes.length).toBe(verdict.size);
    const file = readFits(bytes, name);
    expect(file.hdus).toHaveLength(verdict.astropy.hdus);
    expect(verdict.astropy.dataEqualWhole).toBe(true);
    expect(pixelsOf(bytes, name)).toEqual(pixelsOf(bytesOf(wholeOf(name)), wholeOf(name)));
    expect(file.missingPadding).toBe(verdict.missingPadding);
    expect(shortBlockWarning(file) !== undefined).toBe(verdict.astropy.warnings.length > 0);
  });

  it('the warning is one line: where the file ends in its last block, how short of it, and that it is read as astropy reads it', () => {
    const file = readFits(bytesOf('image-cut800.fits'), 'image-cut800.fits');
    expect(shortBlockWarning(file)).toBe(
      'image-cut800.fits ends 2,080 bytes into its last 2,880-byte block, 800 bytes short of it (FITS pads every HDU to whole blocks); read as astropy reads it.',
    );
  });

  it.each(cases)('%s: whole to downloads and the check on disk exactly where fitsverify finds no error', (name, verdict) => {
    const walker = new FitsLayoutWalker();
    walker.write(bytesOf(name));
    const ending = walker.finish();
    if (verdict.fitsverify.errors === 0) {
      expect(ending).toEqual({ complete: true, bytes: verdict.size });
    } else {
      expect(verdict.fitsverify.errorLines).toEqual(['*** Error:   checking data fill: error reading from FITS file']);
      expect(ending).toEqual({ complete: false, arrived: verdict.size, declared: expectedByAstropy(verdict), inPadding: true });
    }
  });
});
