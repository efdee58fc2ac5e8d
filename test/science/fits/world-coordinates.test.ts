// The world coordinates of a pixel against astropy.wcs (test/fixtures/wcs/astropy-pixels.json, written by
// scripts/fixtures/make_wcs_pixels.py): 20 pixels of each header, helioprojective unrotated, rotated by CROTA2, with
// a PC matrix, with a CD matrix far from the Sun, with PC, CD and CROTA2 together (PC counts), with CD and CROTA2
// (CD counts), and linear axes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FitsValue } from '../../../src-science/fits/fits-cards';
import { worldCoordinatesOf, type WorldCoordinates } from '../../../src-science/fits/world-coordinates';

interface FixturePixel {
  pixel: [number, number];
  arcsec: [number, number];
  fromCentreArcsec?: number;
  positionAngleDeg?: number;
}
interface FixtureCase {
  name: string;
  header: Record<string, FitsValue>;
  pixels: FixturePixel[];
  worldPoints: { arcsec: [number, number]; pixel: [number, number] }[];
}
const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../fixtures/wcs/astropy-pixels.json'), 'utf8')) as { cases: FixtureCase[] };

function coordinatesOf(header: Record<string, FitsValue>): WorldCoordinates {
  const found = worldCoordinatesOf(new Map(Object.entries(header)));
  if ('reason' in found) throw new Error(found.reason);
  return found;
}

describe('world coordinates of a pixel, against astropy.wcs', () => {
  it('has the seven cases, 20 pixels each', () => {
    expect(fixture.cases.map((each) => [each.name, each.pixels.length])).toEqual([
      ['unrotated', 20],
      ['rotated-crota2', 20],
      ['pc-matrix', 20],
      ['cd-far-from-sun', 20],
      ['pc-over-cd', 20],
      ['cd-over-crota', 20],
      ['linear', 20],
    ]);
  });

  for (const each of fixture.cases) {
    it(`${each.name}: x and y within 0.01 arcsec; distance and position angle as astropy's separation gives them`, () => {
      const wcs = coordinatesOf(each.header);
      expect(wcs.kind).toBe(each.name === 'linear' ? 'linear' : 'helioprojective');
      for (const { pixel, arcsec, fromCentreArcsec, positionAngleDeg } of each.pixels) {
        const place = wcs.placeOf(pixel[0], pixel[1]);
        expect(Math.abs(place.xArcsec - arcsec[0]), `x of pixel ${pixel.join(', ')}`).toBeLessThan(0.01);
        expect(Math.abs(place.yArcsec - arcsec[1]), `y of pixel ${pixel.join(', ')}`).toBeLessThan(0.01);
        if (fromCentreArcsec !== undefined && wcs.sunRadiusArcsec !== undefined) {
          expect(Math.abs(place.solarRadii! * wcs.sunRadiusArcsec - fromCentreArcsec)).toBeLessThan(0.01);
        }
        if (positionAngleDeg !== undefined) {
          const apart = Math.abs(place.positionAngleDeg! - positionAngleDeg);
          expect(Math.min(apart, 360 - apart), `position angle of pixel ${pixel.join(', ')}`).toBeLessThan(1e-6);
        }
      }
    });
  }

  for (const each of fixture.cases) {
    it(`${each.name}: back from arcsec to the pixel astropy's world_to_pixel_values gives, within 0.001 pixel`, () => {
      const wcs = coordinatesOf(each.header);
      expect(each.worldPoints).toHaveLength(12);
      for (const { arcsec, pixel } of each.worldPoints) {
        const found = wcs.pixelOf(arcsec[0], arcsec[1])!;
        expect(Math.abs(found.x - pixel[0]), `x of ${arcsec.join(', ')}`).toBeLessThan(0.001);
        expect(Math.abs(found.y - pixel[1]), `y of ${arcsec.join(', ')}`).toBeLessThan(0.001);
      }
    });
  }

  it('takes the Sun radius from RSUN_OBS, then RSUN, then DSUN_OBS (as sunpy: arcsin of 695,700 km over the distance)', () => {
    const base = { CTYPE1: 'HPLN-TAN', CTYPE2: 'HPLT-TAN', CUNIT1: 'arcsec', CUNIT2: 'arcsec', CDELT1: 5.6, CDELT2: 5.6, CRPIX1: 512.5, CRPIX2: 512.5 };
    expect(coordinatesOf({ ...base, RSUN_OBS: 970.1, RSUN: 960, DSUN_OBS: 1.5e11 }).sunRadiusArcsec).toBe(970.1);
    expect(coordinatesOf({ ...base, RSUN: 960, DSUN_OBS: 1.5e11 }).sunRadiusArcsec).toBe(960);
    // 1 au: 959.63 arcsec, the Sun's mean apparent radius.
    expect(coordinatesOf({ ...base, DSUN_OBS: 149_597_870_700 }).sunRadiusArcsec).toBeCloseTo(959.23, 1);
    expect(coordinatesOf(base).sunRadiusArcsec).toBeUndefined();
    expect(coordinatesOf(base).placeOf(512.5, 512.5 + 100).solarRadii).toBeUndefined();
  });

  it('north is 0 degrees, east (left, -x) 90, south 180, west 270; Sun centre has no angle', () => {
    const wcs = coordinatesOf({
      CTYPE1: 'HPLN-TAN',
      CTYPE2: 'HPLT-TAN',
      CUNIT1: 'arcsec',
      CUNIT2: 'arcsec',
      CDELT1: 1,
      CDELT2: 1,
      CRPIX1: 100,
      CRPIX2: 100,
      RSUN_OBS: 50,
    });
    expect(wcs.placeOf(100, 200).positionAngleDeg).toBeCloseTo(0, 9);
    expect(wcs.placeOf(0, 100).positionAngleDeg).toBeCloseTo(90, 9);
    expect(wcs.placeOf(100, 0).positionAngleDeg).toBeCloseTo(180, 9);
    expect(wcs.placeOf(200, 100).positionAngleDeg).toBeCloseTo(270, 9);
    expect(wcs.placeOf(200, 100).solarRadii).toBeCloseTo(2, 6);
    expect(wcs.placeOf(100, 100)).toEqual({ xArcsec: 0, yArcsec: 0, solarRadii: 0 });
  });

  it('says why when the header has no usable coordinates', () => {
    const reason = (header: Record<string, FitsValue>) => (worldCoordinatesOf(new Map(Object.entries(header))) as { reason?: string }).reason;
    expect(reason({ CTYPE1: 'HPLN-AZP', CTYPE2: 'HPLT-AZP' })).toMatch(/AZP projection/);
    expect(reason({ CTYPE1: 'RA---TAN', CTYPE2: 'DEC--TAN' })).toMatch(/not helioprojective/);
    expect(reason({ CTYPE1: 'HPLN-TAN', CTYPE2: 'HPLT-TAN', CUNIT1: 'm', CUNIT2: 'm' })).toMatch(/unit of angle/);
    expect(reason({ CTYPE1: 'HPLN-TAN', CTYPE2: 'HPLT-TAN', CDELT1: 0 })).toMatch(/singular/);
    expect(reason({ NAXIS1: 10 })).toMatch(/names no coordinate axes/);
    // Linear axes in pixels (no unit): not a place on the sky. SOLX/SOLY are arcsec by definition.
    expect(reason({ CTYPE1: 'X', CTYPE2: 'Y' })).toMatch(/unit of angle/);
    expect(reason({ CTYPE1: 'SOLX', CTYPE2: 'SOLY' })).toBeUndefined();
    // A distortion astropy would apply (SIP's A_i_j, B_i_j) is refused, never read as plain TAN.
    expect(reason({ CTYPE1: 'HPLN-TAN-SIP', CTYPE2: 'HPLT-TAN-SIP', A_ORDER: 2, B_ORDER: 2 })).toBe(
      'its distortion (SIP in HPLN-TAN-SIP) is not one this reader applies',
    );
    expect(reason({ CTYPE1: 'HPLN-TAN', CTYPE2: 'HPLT-TAN    ' })).toBeUndefined();
  });
});
