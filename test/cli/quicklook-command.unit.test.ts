import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../helpers/fixtures';
import { concat, emptyPrimary, imageHdu, tableHdu } from '../science/fits/fits-writer';
import { EMULATOR_FILE, emulatorFitsBytes, fitsFileOf, mlsoDl, readPng } from './fits-test-input';

const outIn = async (name = 'out.png'): Promise<string> => path.join(await temporaryFolder(), name);

describe('mlso-dl quicklook', () => {
  it('writes an 8-bit grey PNG of an emulator file: black occulter, bright inner corona, fainter outside', async () => {
    const input = await fitsFileOf(emulatorFitsBytes(96), EMULATOR_FILE);
    const out = await outIn();
    const run = await mlsoDl('quicklook', input, '--out', out);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Wrote .*out\.png: 96 x 96, HDU 0, asinh stretch, clip 1-99\.5 % = 0 to \S+\.\n$/);
    const png = await readPng(out);
    expect([png.width, png.height, png.channels, png.depth]).toEqual([96, 96, 1, 8]);
    // The sun's radius is 16 pixels, the occulter 16.8, around the centre (47.5, 47.5).
    expect(png.at(48, 48)).toBe(0);
    expect(png.at(48 + 18, 48)).toBeGreaterThan(200);
    expect(png.at(48 + 18, 48)).toBeGreaterThan(png.at(95, 95));
    expect(png.at(95, 95)).toBeGreaterThan(0);
  });

  it('puts FITS row 1 at the bottom, as ds9 does, and column 1 at the left', async () => {
    // 4 x 3, FITS order (bottom row first): a bright marker at the bottom-left, rows brightening upwards.
    const stored = [100, 0, 0, 0, 50, 50, 50, 50, 90, 90, 90, 90];
    const input = await fitsFileOf(imageHdu({ bitpix: 16, axes: [4, 3], stored }));
    const out = await outIn();
    expect((await mlsoDl('quicklook', input, '--out', out, '--stretch', 'linear', '--clip', '0,100')).status).toBe(0);
    const png = await readPng(out);
    const rows = [0, 1, 2].map((y) => [0, 1, 2, 3].map((x) => png.at(x, y)));
    expect(rows).toEqual([
      [230, 230, 230, 230],
      [128, 128, 128, 128],
      [255, 0, 0, 0],
    ]);
  });

  it('each stretch brightens the middle tones more than linear does', async () => {
    const stored = Array.from({ length: 101 }, (_, i) => i);
    const input = await fitsFileOf(imageHdu({ bitpix: 8, axes: [101, 1], stored }));
    const levels: Record<string, number> = {};
    for (const stretch of ['linear', 'sqrt', 'log', 'asinh']) {
      const out = await outIn(`${stretch}.png`);
      expect((await mlsoDl('quicklook', input, '--out', out, '--stretch', stretch, '--clip', '0,100')).status).toBe(0);
      levels[stretch] = (await readPng(out)).at(10, 0);
    }
    expect(levels['linear']).toBe(26);
    for (const stretch of ['sqrt', 'log', 'asinh']) expect(levels[stretch]).toBeGreaterThan(levels['linear']!);
  });

  it('--size shrinks to fit the square, keeping the aspect ratio', async () => {
    const out = await outIn();
    const input = await fitsFileOf(imageHdu({ bitpix: -32, axes: [100, 50], stored: Array.from({ length: 5000 }, (_, i) => i % 100) }));
    const run = await mlsoDl('quicklook', input, '--out', out, '--size', '32', '--json');
    expect(run.status, run.stderr).toBe(0);
    const png = await readPng(out);
    expect([png.width, png.height]).toEqual([32, 16]);
    expect(JSON.parse(run.stdout)).toMatchObject({ hdu: 0, image: { width: 100, height: 50 }, png: { width: 32, height: 16 }, stretch: 'asinh' });
  });

  describe('files of several HDUs', () => {
    const file = concat(
      emptyPrimary(),
      tableHdu(4),
      imageHdu({ bitpix: -32, axes: [6, 4], stored: new Array(24).fill(1), extension: true, extname: 'I' }),
      imageHdu({ bitpix: 16, axes: [3, 2, 2], stored: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], extension: true }),
    );

    it('shows the first HDU that holds an image unless --hdu says otherwise, and says when only a first plane is shown', async () => {
      const input = await fitsFileOf(file);
      const first = await mlsoDl('quicklook', input, '--out', await outIn(), '--json');
      expect(first.status, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ hdu: 2, png: { width: 6, height: 4 } });
      const cube = await mlsoDl('quicklook', input, '--out', await outIn(), '--hdu', '3', '--json');
      expect(JSON.parse(cube.stdout)).toMatchObject({ hdu: 3, png: { width: 3, height: 2 } });
      expect(cube.stderr).toBe('HDU 3 holds 2 planes of 3 x 2; the quick look shows the first.\n');
    });

    it.each([
      ['1', 'test.fts holds no image in HDU 1 (BINTABLE): its images are in HDUs 2, 3.'],
      ['0', 'test.fts holds no image in HDU 0 (primary): its images are in HDUs 2, 3.'],
      ['9', 'test.fts has no HDU 9: its HDUs are 0 to 3.'],
      ['one', '--hdu "one" must be a whole number: 0 is the primary HDU, 1 the first extension.'],
    ])('--hdu %s: one line, status 2, no PNG', async (hdu, message) => {
      const input = await fitsFileOf(file);
      const out = await outIn();
      const run = await mlsoDl('quicklook', input, '--out', out, '--hdu', hdu);
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(`mlso-dl: ${message.replace('test.fts', input)}\n`);
      expect(await readdir(path.dirname(out))).toEqual([]);
    });

    it('a file without any image says so', async () => {
      const input = await fitsFileOf(concat(emptyPrimary(), tableHdu(3)));
      const run = await mlsoDl('quicklook', input, '--out', await outIn());
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(`mlso-dl: ${input} holds no image: HDU 0 (primary), HDU 1 (BINTABLE); it holds no image at all.\n`);
    });
  });

  it('an image of blank pixels only comes out black, with a note', async () => {
    const input = await fitsFileOf(imageHdu({ bitpix: 16, axes: [2, 2], stored: [-1, -1, -1, -1], blank: -1 }));
    const out = await outIn();
    const run = await mlsoDl('quicklook', input, '--out', out);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^Every pixel of HDU 0 is blank \(NaN or BLANK\): the quick look is black\.\n/);
    const png = await readPng(out);
    expect([png.at(0, 0), png.at(1, 1)]).toEqual([0, 0]);
  });

  describe('bad input: one line, status 2, nothing written', () => {
    it.each([
      [['--clip', '99,1'], '--clip "99,1" must be two percentiles from 0 to 100, the lower first, such as 1,99.5.'],
      [['--clip', '1'], '--clip "1" must be two percentiles from 0 to 100, the lower first, such as 1,99.5.'],
      [['--clip', '1,101'], '--clip "1,101" must be two percentiles from 0 to 100, the lower first, such as 1,99.5.'],
      [['--clip', 'a,b'], '--clip "a,b" must be two percentiles from 0 to 100, the lower first, such as 1,99.5.'],
      [['--stretch', 'gamma'], '--stretch "gamma" is not one of linear, sqrt, log, asinh.'],
      [['--size', '0'], '--size "0" must be a whole number of pixels from 1 to 65535, such as 512.'],
    ])('%j', async (args, message) => {
      const input = await fitsFileOf(emulatorFitsBytes(16));
      const out = await outIn();
      const run = await mlsoDl('quicklook', input, '--out', out, ...args);
      expect(run).toEqual({ status: 2, stdout: '', stderr: `mlso-dl: ${message}\n` });
      expect(await readdir(path.dirname(out))).toEqual([]);
    });

    it('a missing file, a folder, a file that is not FITS, a truncated file', async () => {
      const folder = await temporaryFolder();
      const notFits = path.join(folder, 'page.fts');
      await writeFile(notFits, '<html>Service unavailable</html>');
      const truncated = await fitsFileOf(emulatorFitsBytes(64).subarray(0, 2880 + 4096), 'cut.fts');
      const cases = [
        [path.join(folder, 'nothing.fts'), `Cannot read ${path.join(folder, 'nothing.fts')}: there is no such file.`],
        [folder, `Cannot read ${folder}: it is a folder, not a file.`],
        [notFits, `${notFits} is not a FITS file: it does not start with "SIMPLE  =".`],
        [truncated, `${truncated} ends after 4,096 of 16,384 bytes of HDU 0's data.`],
      ];
      for (const [input, message] of cases) {
        const run = await mlsoDl('quicklook', input!, '--out', path.join(folder, 'out.png'));
        expect(run).toEqual({ status: 2, stdout: '', stderr: `mlso-dl: ${message}\n` });
      }
      expect(await readdir(folder)).toEqual(['page.fts']); // no PNG, no temporary file
    });

    it('a PNG into a folder that does not exist; no temporary file is left behind', async () => {
      const input = await fitsFileOf(emulatorFitsBytes(16));
      const folder = await temporaryFolder();
      const out = path.join(folder, 'missing', 'out.png');
      const run = await mlsoDl('quicklook', input, '--out', out);
      expect(run).toEqual({ status: 2, stdout: '', stderr: `mlso-dl: Cannot write ${out}: its folder does not exist.\n` });
      expect(await readdir(folder)).toEqual([]);
    });

    it('--json with --out - would mix the summary into the PNG', async () => {
      const input = await fitsFileOf(emulatorFitsBytes(16));
      const run = await mlsoDl('quicklook', input, '--out', '-', '--json');
      expect(run).toEqual({ status: 2, stdout: '', stderr: 'mlso-dl: --json and --out - would both write to standard output: give --out a file name.\n' });
    });
  });
});

describe('mlso-dl quicklook on a file of thousands of HDUs', () => {
  it('a file of 3,000 tables and no image: one short line naming the first few HDUs', async () => {
    const input = await fitsFileOf(concat(emptyPrimary(), ...new Array<Uint8Array>(3000).fill(tableHdu(1))));
    const run = await mlsoDl('quicklook', input, '--out', await outIn());
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `mlso-dl: ${input} holds no image: HDU 0 (primary), HDU 1 (BINTABLE), HDU 2 (BINTABLE), HDU 3 (BINTABLE), HDU 4 (BINTABLE) and 2,996 more; it holds no image at all.\n`,
    );
  });
});
