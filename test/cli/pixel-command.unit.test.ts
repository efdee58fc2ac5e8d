// `mlso-dl pixel FILE X Y`: the value of one pixel and where it is, against astropy's reading of the same header
// (test/fixtures/wcs/astropy-pixels.json), in-process; pixel-process.test.ts runs the built mlso-dl through a pipe.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PixelReport } from '../../src-main/cli/commands/pixel-command';
import { concat, emptyPrimary, imageHdu, type CardSpec } from '../science/fits/fits-writer';
import { fitsFileOf, mlsoDl } from './fits-test-input';

const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '../fixtures/wcs/astropy-pixels.json'), 'utf8')) as {
  cases: { name: string; header: Record<string, string | number>; pixels: { pixel: [number, number]; arcsec: [number, number] }[] }[];
};

/** A small float image (value = 1000 x row + column, both from 1) carrying a fixture case's WCS keywords. */
function imageWith(header: Record<string, string | number>, width: number, height: number, extra: CardSpec[] = []): Uint8Array {
  const stored = Array.from({ length: width * height }, (_, i) => 1000 * (Math.floor(i / width) + 1) + (i % width) + 1);
  const cards: CardSpec[] = Object.entries(header)
    .filter(([key]) => !key.startsWith('NAXIS'))
    .map(([key, value]): CardSpec => [key, value]);
  return imageHdu({ bitpix: -32, axes: [width, height], stored, extraCards: [...cards, ...extra] });
}

describe('mlso-dl pixel', () => {
  it('gives the value with BUNIT and the helioprojective place astropy gives, within 0.01 arcsec', async () => {
    const rotated = fixture.cases.find((each) => each.name === 'rotated-crota2')!;
    // The fixture's image is 1024 x 1024; the pixels asked for here are in the first 40 x 30.
    const file = await fitsFileOf(imageWith(rotated.header, 40, 30, [['BUNIT', 'B/Bsun']]));
    const run = await mlsoDl('pixel', file, '1', '1', '--json');
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as PixelReport;
    const wanted = rotated.pixels.find((p) => p.pixel[0] === 1 && p.pixel[1] === 1)!.arcsec;
    expect(report).toMatchObject({ hdu: 0, image: { width: 40, height: 30 }, pixel: { x: 1, y: 1 }, value: 1001, unit: 'B/Bsun' });
    expect(report.world!.kind).toBe('helioprojective');
    expect(Math.abs(report.world!.xArcsec - wanted[0])).toBeLessThan(0.01);
    expect(Math.abs(report.world!.yArcsec - wanted[1])).toBeLessThan(0.01);
    expect(report.world!.sunRadiusArcsec).toBe(975.4);
    expect(report.world!.solarRadii).toBeCloseTo(Math.hypot(wanted[0], wanted[1]) / 975.4, 3);

    const text = await mlsoDl('pixel', file, '7', '3');
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(
      /^Pixel 7, 3 of HDU 0 \(40 x 30\): 3007 B\/Bsun\nHelioprojective: x -?\d+\.\d\d arcsec, y -?\d+\.\d\d arcsec\nFrom Sun centre: \d\.\d{3} solar radii \(975\.40 arcsec each\), position angle \d+\.\d deg counter-clockwise from solar north\n$/,
    );
  });

  it("reads an extension's image with the primary header's keywords beneath its own (UCoMP keeps RSUN_OBS there)", async () => {
    const { header } = fixture.cases.find((each) => each.name === 'unrotated')!;
    const { RSUN_OBS: _radius, DSUN_OBS: _distance, ...coordinates } = header;
    const primary = emptyPrimary([['RSUN_OBS', 950.5]]);
    const extension = imageHdu({
      bitpix: -32,
      axes: [4, 4],
      stored: Array.from({ length: 16 }, (_, i) => i),
      extension: true,
      extname: '1074.7',
      extraCards: Object.entries(coordinates)
        .filter(([key]) => !key.startsWith('NAXIS'))
        .map(([key, value]): CardSpec => [key, value]),
    });
    const report = JSON.parse((await mlsoDl('pixel', await fitsFileOf(concat(primary, extension)), '2', '4', '--json')).stdout) as PixelReport;
    expect(report).toMatchObject({ hdu: 1, value: 13, unit: null, world: { sunRadiusArcsec: 950.5 } });
  });

  it('says why when the image has no world coordinates, and gives the value all the same; a NaN pixel is "NaN"', async () => {
    const file = await fitsFileOf(imageHdu({ bitpix: -32, axes: [2, 2], stored: [1, Number.NaN, 3, 4] }));
    const report = JSON.parse((await mlsoDl('pixel', file, '2', '1', '--json')).stdout) as PixelReport;
    expect(report).toMatchObject({
      value: 'NaN',
      world: null,
      noWorldCoordinates: 'HDU 0 has no world coordinates: its header names no coordinate axes (CTYPE1, CTYPE2).',
    });
    const text = await mlsoDl('pixel', file, '1', '2');
    expect(text.stdout).toBe('Pixel 1, 2 of HDU 0 (2 x 2): 3\nHDU 0 has no world coordinates: its header names no coordinate axes (CTYPE1, CTYPE2).\n');
  });

  it('refuses a pixel outside the image, or not a whole number, in one line with status 2', async () => {
    const file = await fitsFileOf(imageHdu({ bitpix: 16, axes: [3, 2], stored: [1, 2, 3, 4, 5, 6] }));
    expect(await mlsoDl('pixel', file, '4', '1')).toEqual({
      status: 2,
      stdout: '',
      stderr: `mlso-dl: X "4" must be a whole number from 1 to 3 (the image's width): FITS counts pixels from 1.\n`,
    });
    expect((await mlsoDl('pixel', file, '1', '0')).stderr).toBe(
      `mlso-dl: Y "0" must be a whole number from 1 to 2 (the image's height): FITS counts pixels from 1.\n`,
    );
    expect((await mlsoDl('pixel', file, '1.5', '1')).status).toBe(2);
    expect((await mlsoDl('pixel', file, '1', '1', '--hdu', '3')).status).toBe(2);
  });
});
