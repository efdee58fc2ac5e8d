// The celestial rotation of helioprojective TAN headers against astropy.wcs (test/fixtures/wcs/astropy-poles.json,
// written by scripts/fixtures/make_wcs_poles.py): LONPOLE over six reference points from Sun centre to the poles,
// LATPOLE where the native pole has two places, the native reference point (PV1_1, PV1_2, offset by PV1_0), swapped
// axes, both directions (pixel to sky, sky to pixel), the overlay's limb, circle and north, and the headers astropy
// refuses.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FitsValue } from '../../../src-science/fits/fits-cards';
import { sunOverlay, type OverlayPoint } from '../../../src-science/fits/sun-overlay';
import { worldCoordinatesOf, type WorldCoordinates } from '../../../src-science/fits/world-coordinates';

type Pixel = [number, number];
interface PoleCase {
  name: string;
  header: Record<string, FitsValue>;
  pole: { lonpole: number; latpole: number; twoPoles: boolean };
  pixels: { pixel: Pixel; arcsec: [number, number]; fromCentreArcsec: number; positionAngleDeg: number }[];
  worldPoints: { arcsec: [number, number]; pixel: Pixel | null }[];
  overlay?: {
    sunRadiusArcsec: number;
    centre: Pixel | null;
    limb: (Pixel | null)[];
    threeRadii: (Pixel | null)[];
    north: { solarRadii: number; pixel: Pixel | null }[];
  };
}
interface PoleFixture {
  grid: PoleCase[];
  nativeReference: PoleCase[];
  swapped: PoleCase[];
  overlay: PoleCase[];
  refused: { name: string; header: Record<string, FitsValue>; astropy: string }[];
}
const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../fixtures/wcs/astropy-poles.json'), 'utf8')) as PoleFixture;
const read = [...fixture.grid, ...fixture.nativeReference, ...fixture.swapped, ...fixture.overlay];

const ARCSEC_AROUND = 360 * 3600;

function coordinatesOf(header: Record<string, FitsValue>): WorldCoordinates {
  const found = worldCoordinatesOf(new Map(Object.entries(header)));
  if ('reason' in found) throw new Error(found.reason);
  return found;
}

/** Longitudes are compared around the circle: 180 degrees and -180 are one place. */
function longitudeApart(a: number, b: number): number {
  const apart = Math.abs(a - b) % ARCSEC_AROUND;
  return Math.min(apart, ARCSEC_AROUND - apart);
}

function pixelsApart(found: OverlayPoint | undefined, wanted: Pixel): number {
  return found ? Math.hypot(found.x - wanted[0], found.y - wanted[1]) : Infinity;
}

describe('the celestial rotation of helioprojective TAN headers, against astropy.wcs', () => {
  it('has the grid: 6 reference points x 7 LONPOLEs, 15 native reference points, 6 swapped, 4 overlays, 6 refused', () => {
    expect([fixture.grid.length, fixture.nativeReference.length, fixture.swapped.length, fixture.overlay.length, fixture.refused.length]).toEqual([
      42, 15, 6, 4, 6,
    ]);
    // LATPOLE matters: headers alike but for it whose native pole astropy puts in two places.
    const choices = fixture.nativeReference.filter((each) => each.pole.twoPoles && each.name.startsWith('pv1_2 45, crval2 60'));
    expect(new Set(choices.map((each) => each.pole.latpole))).toEqual(new Set([75, 15]));
  });

  for (const each of read) {
    it(`${each.name}: x and y of 19 pixels within 0.01 arcsec, the distance and position angle from Sun centre`, () => {
      const wcs = coordinatesOf(each.header);
      expect(wcs.kind).toBe('helioprojective');
      for (const { pixel, arcsec, fromCentreArcsec, positionAngleDeg } of each.pixels) {
        const place = wcs.placeOf(pixel[0], pixel[1]);
        expect(longitudeApart(place.xArcsec, arcsec[0]), `x of pixel ${pixel.join(', ')}`).toBeLessThan(0.01);
        expect(Math.abs(place.yArcsec - arcsec[1]), `y of pixel ${pixel.join(', ')}`).toBeLessThan(0.01);
        if (wcs.sunRadiusArcsec !== undefined) {
          expect(Math.abs(place.solarRadii! * wcs.sunRadiusArcsec - fromCentreArcsec), `distance of pixel ${pixel.join(', ')}`).toBeLessThan(0.01);
        }
        const apart = Math.abs(place.positionAngleDeg! - positionAngleDeg);
        expect(Math.min(apart, 360 - apart), `position angle of pixel ${pixel.join(', ')}`).toBeLessThan(1e-6);
      }
    });
  }

  for (const each of read) {
    it(`${each.name}: Sun centre and 24 points 2 to 12 degrees out, back to astropy's pixel within 0.001 (or none where it finds none)`, () => {
      const wcs = coordinatesOf(each.header);
      expect(each.worldPoints).toHaveLength(25);
      for (const { arcsec, pixel } of each.worldPoints) {
        const found = wcs.pixelOf(arcsec[0], arcsec[1]);
        if (pixel === null) expect(found, `${arcsec.join(', ')} is beyond the TAN plane's horizon`).toBeUndefined();
        else expect(pixelsApart(found, pixel), `pixel of ${arcsec.join(', ')}`).toBeLessThan(0.001);
      }
    });
  }

  for (const each of read.filter((one) => one.overlay)) {
    it(`${each.name}: the overlay's centre, limb, 3 solar radii circle and north where astropy puts them, or none when the Sun is out of sight`, () => {
      const wanted = each.overlay!;
      const overlay = sunOverlay(new Map(Object.entries(each.header)), [1, 3]);
      if (wanted.centre === null) {
        expect(overlay).toEqual({ reason: 'Sun centre is outside what its projection can show' });
        return;
      }
      if ('reason' in overlay) throw new Error(overlay.reason);
      expect(overlay.sunRadiusArcsec).toBe(wanted.sunRadiusArcsec);
      expect(pixelsApart(overlay.centre, wanted.centre)).toBeLessThan(0.001);
      const [limb, threeRadii] = overlay.circles;
      for (let k = 0; k < 12; k += 1) {
        // Every 12th of 144 points: solar position angles 0, 30, ... 330 degrees.
        expect(pixelsApart(limb!.points[12 * k], wanted.limb[k]!), `limb at ${30 * k} degrees`).toBeLessThan(0.001);
        expect(pixelsApart(threeRadii!.points[12 * k], wanted.threeRadii[k]!), `3 solar radii at ${30 * k} degrees`).toBeLessThan(0.001);
      }
      const north = wanted.north.filter(({ pixel }) => pixelsApart(overlay.north.to, pixel!) < 0.001);
      expect(north, 'north ends where astropy puts one of its lengths').toHaveLength(1);
    });
  }

  it('axes that are not one helioprojective longitude and one latitude are refused with that reason', () => {
    const reason = (type1: string, type2: string) =>
      (worldCoordinatesOf(new Map(Object.entries({ CTYPE1: type1, CTYPE2: type2 }))) as { reason?: string }).reason;
    expect(reason('HPLT-TAN', 'HPLT-TAN')).toBe('its axes (HPLT-TAN, HPLT-TAN) are not a helioprojective longitude and latitude (HPLN and HPLT)');
    expect(reason('HPLN-TAN', 'DEC--TAN')).toBe('its axes (HPLN-TAN, DEC--TAN) are not a helioprojective longitude and latitude (HPLN and HPLT)');
    expect(reason('HPLT-AZP', 'HPLN-AZP')).toBe('its AZP projection is not one this reader knows (TAN)');
  });

  for (const each of fixture.refused) {
    it(`refused as astropy refuses it (${each.astropy}): ${each.name}`, () => {
      const found = worldCoordinatesOf(new Map(Object.entries(each.header)));
      expect('reason' in found ? found.reason : 'read').toMatch(REFUSALS[each.name]!);
    });
  }
});

/** Each refusal's reason, as the user reads it after "has no world coordinates: ". */
const REFUSALS: Record<string, RegExp> = {
  'native reference latitude above 90': /^its native latitude of the reference point \(PV1_2 = 95\) is beyond 90 degrees$/,
  'lonpole 90 from phi0 with theta0 0 and crval2 off the equator':
    /^its LONPOLE, PV1_1 and PV1_2 put no celestial pole where its reference latitude \(CRVAL2\) needs one$/,
  'crval2 beyond what lonpole and theta0 allow': /^its LONPOLE, PV1_1 and PV1_2 put no celestial pole where its reference latitude \(CRVAL2\) needs one$/,
  'no native pole: lonpole at phi0, theta0 20, crval2 -30':
    /^its LONPOLE, PV1_1 and PV1_2 put no celestial pole where its reference latitude \(CRVAL2\) needs one$/,
  'offset reference point below the native equator': /^its reference point \(PV1_1, PV1_2\) is on the hemisphere the TAN projection cannot show$/,
  'pv1_5: a parameter the longitude axis does not have': /^its PV1_5 is not a parameter of a TAN longitude axis \(PV1_0 to PV1_4\)$/,
};
