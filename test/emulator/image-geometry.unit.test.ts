// The emulator's files say where the Sun is, as real level 2 files do (HPLN-TAN / HPLT-TAN axes in arcsec, CRPIX at
// the Sun's centre, CDELT, CROTA2 and INST_ROT, RSUN_OBS and DSUN_OBS), and the picture follows the header: read
// with the client's WCS reader, the occulter is around the stated centre and its edge at the stated radius.
import { describe, expect, it } from 'vitest';
import { fitsBytes, type FitsSubject } from '../../src-main/emulator/synthetic-fits';
import { sunDistanceAu } from '../../src-main/emulator/image-geometry';
import { readFits } from '../../src-science/fits/fits-file';
import { decodeImage } from '../../src-science/fits/fits-image';
import { worldCoordinatesOf, type WorldCoordinates } from '../../src-science/fits/world-coordinates';
import { UCOMP_L2 } from '../helpers/emulator-subjects';

const kcor = (filename: string, dateObs: string): FitsSubject => ({ instrument: 'kcor', product: 'pb', filename, dateObs });
const sizes = { imageSize: 512, ucompImageSize: 0 };

function opened(subject: FitsSubject, index = 0, imageSizes = sizes) {
  const file = readFits(fitsBytes(subject, imageSizes), subject.filename);
  const values = new Map([...file.hdus[0]!.values, ...file.hdus[index]!.values]);
  const wcs = worldCoordinatesOf(values) as WorldCoordinates;
  const image = decodeImage(file, index);
  /** The value at a FITS pixel (1-based), rounded to the nearest pixel. */
  const at = (x: number, y: number): number => image.pixels[(Math.round(y) - 1) * image.width + Math.round(x) - 1]!;
  return { file, values, wcs, image, at };
}

/**
 * The picture follows the header: around CRPIX, dark just inside the limb (0.97 solar radii, by the header's WCS) and
 * corona beyond the occulter (1.15), every `stepDeg` degrees round: a circle of the Sun's radius, in x as in y.
 */
function expectOcculterAround({ values, wcs, at }: ReturnType<typeof opened>, stepDeg: number): void {
  const cx = values.get('CRPIX1') as number;
  const cy = values.get('CRPIX2') as number;
  const radiusPixels = wcs.sunRadiusArcsec! / (values.get('CDELT1') as number);
  for (let angle = 0; angle < 360; angle += stepDeg) {
    const towards = (r: number) =>
      [cx + r * radiusPixels * Math.cos((angle * Math.PI) / 180), cy + r * radiusPixels * Math.sin((angle * Math.PI) / 180)] as const;
    const [ix, iy] = towards(0.97);
    expect(Math.abs(wcs.placeOf(ix, iy).solarRadii! - 0.97)).toBeLessThan(0.01);
    expect(at(ix, iy)).toBe(0);
    expect(at(...towards(1.15))).toBeGreaterThan(0);
  }
}

describe("the emulator's image geometry", () => {
  it('a KCor file states helioprojective axes, a plate scale near 5.64 arcsec at 1024, and the Sun for its date', () => {
    const subject = kcor('20250324_210304_kcor_l2_pb.fts', '2025-03-24T21:03:04');
    const { values, wcs } = opened(subject);
    expect(Object.fromEntries(['CTYPE1', 'CTYPE2', 'CUNIT1', 'CUNIT2', 'CRVAL1', 'CRVAL2'].map((key) => [key, values.get(key)]))).toEqual({
      CTYPE1: 'HPLN-TAN',
      CTYPE2: 'HPLT-TAN',
      CUNIT1: 'arcsec',
      CUNIT2: 'arcsec',
      CRVAL1: 0,
      CRVAL2: 0,
    });
    expect(values.get('CDELT1')).toBeCloseTo((5.643 * 1024) / 512, 3);
    expect(Math.abs((values.get('CRPIX1') as number) - 256.5)).toBeLessThan(1.3);
    expect(Math.abs(values.get('CROTA2') as number)).toBeLessThan(0.5);
    expect(values.get('INST_ROT')).toBe(values.get('CROTA2'));
    expect(wcs.kind).toBe('helioprojective');
    // 2025-03-24: the Earth is 0.9974 AU from the Sun, which then looks 962 arcsec in radius.
    expect(values.get('DSUN_OBS') as number).toBeCloseTo(0.99745 * 149_597_870_700, -8);
    expect(wcs.sunRadiusArcsec).toBeCloseTo(962.0, 0);
    expect(values.get('R_SUN')).toBeCloseTo(wcs.sunRadiusArcsec! / (values.get('CDELT1') as number), 2);
  });

  it('the Sun looks larger at perihelion (early January) than at aphelion (early July)', () => {
    expect(sunDistanceAu('2025-01-04T12:00:00')).toBeCloseTo(0.9833, 3);
    expect(sunDistanceAu('2025-07-04T12:00:00')).toBeCloseTo(1.01671, 3);
    const january = opened(kcor('20250104_200000_kcor_l2_pb.fts', '2025-01-04T20:00:00')).wcs.sunRadiusArcsec!;
    const july = opened(kcor('20250704_200000_kcor_l2_pb.fts', '2025-07-04T20:00:00')).wcs.sunRadiusArcsec!;
    expect(january).toBeCloseTo(975.6, 0);
    expect(july).toBeCloseTo(943.7, 0);
  });

  it('the picture follows the header: dark within the occulter around CRPIX, corona from 1.1 solar radii', () => {
    const kcorFile = opened(kcor('20250324_210304_kcor_l2_pb.fts', '2025-03-24T21:03:04'));
    const { values, wcs } = kcorFile;
    expect(wcs.placeOf(values.get('CRPIX1') as number, values.get('CRPIX2') as number).solarRadii).toBe(0);
    expectOcculterAround(kcorFile, 30);
  });

  it('the centre and roll differ a little from file to file; the extensions of a UCoMP file share the file’s', () => {
    const names = ['20250324_210304_kcor_l2_pb.fts', '20250324_210319_kcor_l2_pb.fts', '20250324_210334_kcor_l2_pb.fts'];
    const pointings = names.map((name) => {
      const { values } = opened(kcor(name, '2025-03-24T21:03:04'));
      return [values.get('CRPIX1'), values.get('CRPIX2'), values.get('CROTA2')];
    });
    expect(new Set(pointings.map((each) => each.join())).size).toBe(3);
    const ucomp = UCOMP_L2;
    const file = readFits(fitsBytes(ucomp, sizes), ucomp.filename);
    expect(file.hdus[0]!.values.get('RSUN_OBS')).toBeCloseTo(962.0, 0);
    const centres = file.hdus.slice(1).map((hdu) => `${hdu.values.get('CRPIX1')} ${hdu.values.get('CRPIX2')} ${hdu.values.get('CTYPE1')}`);
    expect(new Set(centres).size).toBe(1);
    // UCoMP's plate scale, 2.9 arcsec at 1280 pixels across, at the synthetic image's size.
    expect(file.hdus[1]!.values.get('CDELT1')).toBeCloseTo((2.9 * 1280) / 512, 3);
    const { wcs, at } = opened(ucomp, 1);
    const cx = file.hdus[1]!.values.get('CRPIX1') as number;
    const cy = file.hdus[1]!.values.get('CRPIX2') as number;
    expect(at(cx, cy)).toBe(0);
    expect(wcs.sunRadiusArcsec).toBeCloseTo(962.0, 0);
  });
});

describe("the emulator's UCoMP images", () => {
  it('are 1280 x 1024 per extension (NAXIS1 x NAXIS2) at the real size, the Sun near 640.5, 512.5 and the picture around it', () => {
    const ucompFile = opened(UCOMP_L2, 1, { imageSize: 256, ucompImageSize: 1280 });
    const { file, values, wcs, image } = ucompFile;
    for (const [index, hdu] of file.hdus.slice(1).entries()) {
      expect([index, hdu.values.get('NAXIS1'), hdu.values.get('NAXIS2'), hdu.axes]).toEqual([index, 1280, 1024, [1280, 1024]]);
    }
    const cx = values.get('CRPIX1') as number;
    const cy = values.get('CRPIX2') as number;
    // The centre wanders up to 6 pixels at the real size, around the middle of each axis.
    expect([Math.abs(cx - 640.5) <= 6, Math.abs(cy - 512.5) <= 6]).toEqual([true, true]);
    expect(values.get('CDELT1')).toBeCloseTo(2.9, 4);
    expect(values.get('CDELT2')).toBeCloseTo(2.9, 4);
    expect([image.width, image.height]).toEqual([1280, 1024]);
    // A circle, not an ellipse: the Sun's 962 arcsec some 332 pixels in x and in y.
    expectOcculterAround(ucompFile, 15);
    const radiusPixels = wcs.sunRadiusArcsec! / 2.9;
    // The top row reaches 1.5 solar radii above the Sun's centre, the right column nearly 2 to the west.
    expect(wcs.placeOf(cx, 1024).solarRadii).toBeCloseTo((1024 - cy) / radiusPixels, 2);
    expect((1024 - cy) / radiusPixels).toBeLessThan(1.6);
  });

  it('keep the 1280 x 1024 shape at a smaller synthetic size: width the size asked, height four fifths of it', () => {
    for (const [size, height] of [
      [256, 205],
      [48, 38],
      [16, 13],
    ] as const) {
      const file = readFits(fitsBytes(UCOMP_L2, { imageSize: size, ucompImageSize: 0 }), UCOMP_L2.filename);
      expect([size, file.hdus[1]!.axes]).toEqual([size, [size, height]]);
      expect(Math.abs((file.hdus[1]!.values.get('CRPIX2') as number) - (height + 1) / 2)).toBeLessThan((6 * size) / 1280 + 0.01);
    }
  });
});
