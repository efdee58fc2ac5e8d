// The limb, circles and north of an image, in its pixels: for an unrotated header a circle around CRPIX of the
// Sun's radius in pixels; a roll (CROTA2) turns north with it; without a solar radius there is no overlay.
import { describe, expect, it } from 'vitest';
import type { FitsValue } from '../../../src-science/fits/fits-cards';
import { sunOverlay, type SunOverlay } from '../../../src-science/fits/sun-overlay';
import { worldCoordinatesOf, type WorldCoordinates } from '../../../src-science/fits/world-coordinates';
import { fitsBytes } from '../../../src-main/emulator/synthetic-fits';
import { readFits } from '../../../src-science/fits/fits-file';
import { keywordsOf } from '../../../src-science/fits/pixel-reading';
import { UCOMP_L2 } from '../../helpers/emulator-subjects';

const KCOR: Record<string, FitsValue> = {
  CTYPE1: 'HPLN-TAN',
  CTYPE2: 'HPLT-TAN',
  CUNIT1: 'arcsec',
  CUNIT2: 'arcsec',
  CRPIX1: 514.3,
  CRPIX2: 509.8,
  CDELT1: 5.643,
  CDELT2: 5.643,
  RSUN_OBS: 962,
};

function overlayOf(header: Record<string, FitsValue>, radii: number[]): SunOverlay {
  const found = sunOverlay(new Map(Object.entries(header)), radii);
  if ('reason' in found) throw new Error(found.reason);
  return found;
}

describe('the overlay of the Sun on an image', () => {
  it('the limb and each circle lie at their distance from Sun centre, which is CRPIX', () => {
    const overlay = overlayOf(KCOR, [1, 1.5, 3]);
    expect(overlay.centre.x).toBeCloseTo(514.3, 9);
    expect(overlay.centre.y).toBeCloseTo(509.8, 9);
    const wcs = worldCoordinatesOf(new Map(Object.entries(KCOR))) as WorldCoordinates;
    for (const circle of overlay.circles) {
      expect(circle.points).toHaveLength(144);
      for (const point of circle.points) expect(wcs.placeOf(point.x, point.y).solarRadii).toBeCloseTo(circle.solarRadii, 6);
      // About the radius in pixels (962 / 5.643 = 170.5 for the limb): the TAN projection makes it a hair larger.
      const r = Math.hypot(circle.points[0]!.x - 514.3, circle.points[0]!.y - 509.8);
      expect(r / ((circle.solarRadii * 962) / 5.643)).toBeCloseTo(1, 3);
    }
    // North is up in an unrotated image: straight up from the centre, 1.6 solar radii long.
    expect(overlay.north.to.x).toBeCloseTo(514.3, 6);
    expect(overlay.north.to.y - 509.8).toBeCloseTo((1.6 * 962) / 5.643, 0);
  });

  it('a roll turns north with the image: CROTA2 = 30 puts north 30 degrees from the image’s up', () => {
    const overlay = overlayOf({ ...KCOR, CROTA2: 30 }, [2]);
    const angle = (Math.atan2(overlay.north.to.x - overlay.north.from.x, overlay.north.to.y - overlay.north.from.y) * 180) / Math.PI;
    // CROTA2 turns the sky counter-clockwise on the pixels' axes, so north leans to the image's right (clockwise).
    expect(Math.abs(Math.abs(angle) - 30)).toBeLessThan(0.01);
    const wcs = worldCoordinatesOf(new Map(Object.entries({ ...KCOR, CROTA2: 30 }))) as WorldCoordinates;
    expect(wcs.placeOf(overlay.north.to.x, overlay.north.to.y).positionAngleDeg! % 360).toBeCloseTo(0, 4);
  });

  it('says why there is none without world coordinates or a solar radius', () => {
    const { RSUN_OBS: _radius, ...noRadius } = KCOR;
    expect(sunOverlay(new Map(Object.entries(noRadius)), [1])).toEqual({ reason: 'its header gives no solar radius (RSUN_OBS, RSUN or DSUN_OBS)' });
    expect(sunOverlay(new Map(), [1])).toEqual({ reason: 'its header names no coordinate axes (CTYPE1, CTYPE2)' });
  });

  it('a circle the projection’s horizon cuts is not closed across the gap: the overlay says why instead', () => {
    // The reference point 89.9 degrees west of Sun centre: the centre shows, 0.1 degree inside the TAN plane's
    // horizon, but the limb (0.27 degree) reaches past it.
    const header = { ...KCOR, CRVAL1: 89.9 * 3600 };
    expect((worldCoordinatesOf(new Map(Object.entries(header))) as WorldCoordinates).pixelOf(0, 0)).toBeDefined();
    expect(sunOverlay(new Map(Object.entries(header)), [1])).toEqual({
      reason: 'its limb reaches beyond what its projection can show (90 degrees from its reference point)',
    });
    expect(sunOverlay(new Map(Object.entries({ ...header, CRVAL1: 89.5 * 3600 })), [1, 2.5])).toEqual({
      reason: 'its circle at 2.5 solar radii reaches beyond what its projection can show (90 degrees from its reference point)',
    });
  });

  it('north stays inside a 5:4 image with room for its label: UCoMP shows only 1.5 solar radii above the Sun', () => {
    for (const width of [64, 320, 1280]) {
      const file = readFits(fitsBytes(UCOMP_L2, { imageSize: 64, ucompImageSize: width }), UCOMP_L2.filename);
      const keywords = keywordsOf(file, 1);
      const height = keywords.get('NAXIS2') as number;
      const found = sunOverlay(keywords, [1]);
      if ('reason' in found) throw new Error(found.reason);
      const { from, to } = found.north;
      // Up the image (the roll is under a degree), ending a twentieth of the image's width below its top edge.
      expect(to.y - from.y).toBeGreaterThan(0.35 * height);
      expect([width, to.y <= height + 0.5 - width / 20]).toEqual([width, true]);
    }
    // A square image with room for 1.6 solar radii keeps them.
    const overlay = overlayOf({ ...KCOR, NAXIS1: 1024, NAXIS2: 1024 }, [1]);
    expect(overlay.north.to.y - 509.8).toBeCloseTo((1.6 * 962) / 5.643, 0);
  });
});
