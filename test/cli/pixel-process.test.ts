// `mlso-dl pixel` as users run it: the built mlso-dl (node scripts/build-main.mjs first) writing into a real pipe,
// on a full-size UCoMP-like image (1280 x 1024 float32 with a PC matrix), against astropy's reading of its header;
// and values JSON has no plain number for (64-bit integers past 2^53, Infinity, NaN), against numpy's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PixelReport } from '../../src-main/cli/commands/pixel-command';
import { runPiped, stopBuiltCli } from '../helpers/built-cli';
import { imageHdu, type CardSpec } from '../science/fits/fits-writer';
import { fitsFileOf } from './fits-test-input';

const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '../fixtures/wcs/astropy-pixels.json'), 'utf8')) as {
  cases: { name: string; header: Record<string, string | number>; pixels: { pixel: [number, number]; arcsec: [number, number] }[] }[];
};

const PIXEL_VALUES_FILE = path.join(import.meta.dirname, '../fixtures/pixel-values/pixel-values.fits');
const PIXEL_VALUES = JSON.parse(readFileSync(path.join(import.meta.dirname, '../fixtures/pixel-values/pixel-values.astropy.json'), 'utf8')) as {
  hdus: { pixels: { x: number; y: number; value: string }[] }[];
};

afterEach(async () => {
  await stopBuiltCli();
});

describe('the built mlso-dl pixel', () => {
  it('--json | cat: value, unit and place of whole pixels of a 1280 x 1024 image, within 0.01 arcsec of astropy', async () => {
    const { header, pixels } = fixture.cases.find((each) => each.name === 'pc-matrix')!;
    const [width, height] = [header.NAXIS1 as number, header.NAXIS2 as number];
    const stored = new Float32Array(width * height).map((_, i) => (i % width) + 0.25);
    const cards = Object.entries(header)
      .filter(([key]) => !key.startsWith('NAXIS'))
      .map(([key, value]): CardSpec => [key, value]);
    const file = await fitsFileOf(imageHdu({ bitpix: -32, axes: [width, height], stored: Array.from(stored), extraCards: [...cards, ['BUNIT', 'ppm']] }));
    const whole = pixels.filter(({ pixel }) => Number.isInteger(pixel[0]) && Number.isInteger(pixel[1])).slice(0, 4);
    expect(whole.length).toBe(4);
    for (const { pixel, arcsec } of whole) {
      const run = await runPiped(['pixel', file, String(pixel[0]), String(pixel[1]), '--json'], 'cat');
      expect(run.stderr).toBe('');
      expect(run.statuses).toEqual([0, 0]);
      const report = JSON.parse(run.output.toString()) as PixelReport;
      expect(report).toMatchObject({ hdu: 0, pixel: { x: pixel[0], y: pixel[1] }, value: pixel[0] - 1 + 0.25, unit: 'ppm' });
      expect(Math.abs(report.world!.xArcsec - arcsec[0])).toBeLessThan(0.01);
      expect(Math.abs(report.world!.yArcsec - arcsec[1])).toBeLessThan(0.01);
    }
  });

  it.each([
    // HDU, x, y, the value line as written, and numpy's value (test/fixtures/pixel-values/pixel-values.astropy.json)
    [2, 1, 1, '"value": "2982553151490137914"', '2982553151490137914'],
    [3, 1, 1, '"value": "18446744073709551615"', '18446744073709551615'],
    [0, 2, 1, '"value": "Infinity"', 'inf'],
    [0, 3, 1, '"value": "-Infinity"', '-inf'],
    [0, 4, 1, '"value": "NaN"', 'nan'],
    [0, 1, 1, '"value": 1.5', '1.5'],
  ])('--json | cat, HDU %i pixel %i, %i of the astropy fixture: %s, as numpy gives %s', async (hdu, x, y, line, numpy) => {
    const expected = PIXEL_VALUES.hdus[hdu]!.pixels.find((pixel) => pixel.x === x && pixel.y === y)!.value;
    expect(expected).toBe(numpy);
    const run = await runPiped(['pixel', PIXEL_VALUES_FILE, String(x), String(y), '--hdu', String(hdu), '--json'], 'cat');
    expect(run.stderr).toBe('');
    expect(run.statuses).toEqual([0, 0]);
    expect(run.output.toString()).toContain(`\n  ${line},\n`);
  });

  it('a file that is not FITS: one line, status 2, nothing on the pipe', async () => {
    const file = await fitsFileOf(new TextEncoder().encode('not a FITS file\n'.repeat(200)), 'notes.fts');
    const run = await runPiped(['pixel', file, '1', '1'], 'cat');
    expect(run.statuses).toEqual([2, 0]);
    expect(run.output.toString()).toBe('');
    expect(run.stderr).toMatch(/^mlso-dl: .*notes\.fts .+\n$/);
  });
});
