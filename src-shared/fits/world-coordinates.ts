// Where on the sky, and on the Sun, a pixel of an image HDU is: the image's world coordinate system (WCS, FITS WCS
// papers I and II) for the two axes solar images use. Helioprojective axes (CTYPE HPLN-TAN / HPLT-TAN: gnomonic,
// the reference point as native pole) give longitude and latitude in arcsec from Sun centre; two linear axes (SOLX,
// or any CTYPE without a projection code) give CRVAL plus the offset. The pixel-to-intermediate step is the same for
// both: CDi_j if the header has any, else PCi_j (identity by default) times CDELTi, else CDELTi rotated by CROTA2,
// the way WCSLIB (and so astropy) reads an older header; like WCSLIB, CROTA2 turns celestial axes only. Checked against astropy.wcs in world-coordinates.test.ts.
import type { FitsValue } from './fits-cards';

/** Where a pixel is: its place on the sky in arcsec and, when the Sun's size is known, on the Sun. */
export interface PixelPlace {
  /** Helioprojective (or linear) x and y in arcsec: positive x to solar west, positive y to solar north. */
  xArcsec: number;
  yArcsec: number;
  /** The angle on the sky from Sun centre, in solar radii; undefined without the Sun's apparent radius. */
  solarRadii?: number;
  /** Degrees counter-clockwise from solar north (towards east), 0 to 360; undefined at Sun centre itself. */
  positionAngleDeg?: number;
}

export interface WorldCoordinates {
  /** 'helioprojective' for HPLN/HPLT axes, 'linear' for axes without a projection (already in arcsec). */
  kind: 'helioprojective' | 'linear';
  /** The Sun's apparent radius in arcsec (RSUN_OBS, RSUN, or from DSUN_OBS), when the header gives it. */
  sunRadiusArcsec?: number;
  /** The place of a pixel counted as FITS counts (1-based: the first pixel's centre is 1, 1). */
  placeOf(x: number, y: number): PixelPlace;
  /** The pixel (fractional, FITS counts) at a place in arcsec; undefined where the projection cannot show it. */
  pixelOf(xArcsec: number, yArcsec: number): { x: number; y: number } | undefined;
}

/** Why an image has no world coordinates this reader can use (shown beside the pixel's value instead). */
export interface NoWorldCoordinates {
  reason: string;
}

/** The Sun's radius in metres as sunpy takes it (IAU 2015 nominal, sunpy.sun.constants.radius). */
const SUN_RADIUS_METRES = 695_700_000;
const ARCSEC_PER_DEGREE = 3600;
const DEGREES = 180 / Math.PI;
const RADIANS = Math.PI / 180;

/** Arcsec in one of each angle unit CUNIT may name (FITS WCS paper I, table 3); celestial axes default to degrees. */
const ARCSEC_PER_UNIT: Readonly<Record<string, number>> = { deg: 3600, arcmin: 60, arcsec: 1, mas: 0.001, rad: 3600 * DEGREES };

/** Reads an image HDU's keywords: its world coordinates, or why there are none. */
export function worldCoordinatesOf(values: ReadonlyMap<string, FitsValue>): WorldCoordinates | NoWorldCoordinates {
  const type1 = textOf(values.get('CTYPE1'));
  const type2 = textOf(values.get('CTYPE2'));
  if (type1 === '' || type2 === '') return { reason: 'its header names no coordinate axes (CTYPE1, CTYPE2)' };
  const helioprojective = type1.startsWith('HPLN') && type2.startsWith('HPLT');
  const projection1 = projectionOf(type1);
  const projection2 = projectionOf(type2);
  if (projection1 !== projection2) return { reason: `its axes name two projections (${type1}, ${type2})` };
  if (helioprojective && projection1 !== 'TAN') return { reason: `its ${projection1 || 'missing'} projection is not one this reader knows (TAN)` };
  if (!helioprojective && projection1 !== '') return { reason: `its axes (${type1}, ${type2}) are not helioprojective` };
  const scale1 = arcsecPerUnit(values.get('CUNIT1'), type1, helioprojective);
  const scale2 = arcsecPerUnit(values.get('CUNIT2'), type2, helioprojective);
  if (scale1 === undefined || scale2 === undefined) return { reason: 'its axes are not in a unit of angle' };
  const matrix = linearMatrix(values, helioprojective);
  if ('reason' in matrix) return matrix;
  const crpix1 = numberOf(values.get('CRPIX1'), 0);
  const crpix2 = numberOf(values.get('CRPIX2'), 0);
  const crval1 = numberOf(values.get('CRVAL1'), 0);
  const crval2 = numberOf(values.get('CRVAL2'), 0);
  const sunRadiusArcsec = sunRadiusOf(values);
  const sun = sunRadiusArcsec !== undefined ? { sunRadiusArcsec } : {};

  // Intermediate world coordinates, in the axes' own units, of a pixel; and back.
  const intermediate = (x: number, y: number): [number, number] => {
    const dx = x - crpix1;
    const dy = y - crpix2;
    return [matrix.m11 * dx + matrix.m12 * dy, matrix.m21 * dx + matrix.m22 * dy];
  };
  const determinant = matrix.m11 * matrix.m22 - matrix.m12 * matrix.m21;
  const pixelFrom = (u: number, v: number): { x: number; y: number } => ({
    x: crpix1 + (matrix.m22 * u - matrix.m12 * v) / determinant,
    y: crpix2 + (-matrix.m21 * u + matrix.m11 * v) / determinant,
  });
  if (!helioprojective) {
    return {
      kind: 'linear',
      ...sun,
      placeOf: (x, y) => {
        const [u, v] = intermediate(x, y);
        return placeFrom((crval1 + u) * scale1, (crval2 + v) * scale2, sunRadiusArcsec);
      },
      pixelOf: (xArcsec, yArcsec) => pixelFrom(xArcsec / scale1 - crval1, yArcsec / scale2 - crval2),
    };
  }
  const pole = { lon: (crval1 * scale1) / ARCSEC_PER_DEGREE, lat: (crval2 * scale2) / ARCSEC_PER_DEGREE };
  return {
    kind: 'helioprojective',
    ...sun,
    placeOf: (x, y) => {
      const [u, v] = intermediate(x, y);
      const [lon, lat] = deprojectTan((u * scale1) / ARCSEC_PER_DEGREE, (v * scale2) / ARCSEC_PER_DEGREE, pole);
      return placeFrom(lon * ARCSEC_PER_DEGREE, lat * ARCSEC_PER_DEGREE, sunRadiusArcsec);
    },
    pixelOf: (xArcsec, yArcsec) => {
      const projected = projectTan(xArcsec / ARCSEC_PER_DEGREE, yArcsec / ARCSEC_PER_DEGREE, pole);
      return projected && pixelFrom((projected[0] * ARCSEC_PER_DEGREE) / scale1, (projected[1] * ARCSEC_PER_DEGREE) / scale2);
    },
  };
}

interface LinearMatrix {
  m11: number;
  m12: number;
  m21: number;
  m22: number;
}

/** The matrix from pixel offsets to intermediate coordinates, by the first of CD, PC with CDELT, or CROTA2 present. */
function linearMatrix(values: ReadonlyMap<string, FitsValue>, celestial: boolean): LinearMatrix | NoWorldCoordinates {
  const cdKeys = ['CD1_1', 'CD1_2', 'CD2_1', 'CD2_2'];
  let matrix: LinearMatrix;
  if (cdKeys.some((key) => values.has(key))) {
    const [m11, m12, m21, m22] = cdKeys.map((key) => numberOf(values.get(key), 0)) as [number, number, number, number];
    matrix = { m11, m12, m21, m22 };
  } else {
    const cdelt1 = numberOf(values.get('CDELT1'), 1);
    const cdelt2 = numberOf(values.get('CDELT2'), 1);
    const pcKeys = ['PC1_1', 'PC1_2', 'PC2_1', 'PC2_2'];
    let pc: [number, number, number, number];
    if (pcKeys.some((key) => values.has(key))) {
      pc = [numberOf(values.get('PC1_1'), 1), numberOf(values.get('PC1_2'), 0), numberOf(values.get('PC2_1'), 0), numberOf(values.get('PC2_2'), 1)];
    } else {
      // CROTA2 turns the axes as a PC matrix would (WCS paper II, section 6.1), with the pixel aspect kept.
      const rho = celestial ? numberOf(values.get('CROTA2'), 0) * RADIANS : 0;
      const aspect = cdelt1 !== 0 ? cdelt2 / cdelt1 : 1;
      pc = [Math.cos(rho), -Math.sin(rho) * aspect, Math.sin(rho) / aspect, Math.cos(rho)];
    }
    matrix = { m11: cdelt1 * pc[0], m12: cdelt1 * pc[1], m21: cdelt2 * pc[2], m22: cdelt2 * pc[3] };
  }
  const determinant = matrix.m11 * matrix.m22 - matrix.m12 * matrix.m21;
  if (!Number.isFinite(determinant) || determinant === 0) return { reason: 'its pixel scale or rotation makes no coordinate system (a singular matrix)' };
  return matrix;
}

/**
 * Native to celestial for a zenithal projection with the reference point at the native pole (LONPOLE 180, the
 * default when the reference latitude is above the native one, WCS paper II section 2.4): x, y and the pole in degrees.
 */
function deprojectTan(x: number, y: number, pole: { lon: number; lat: number }): [number, number] {
  const r = Math.hypot(x, y);
  // The reference pixel is the reference point, exactly (the general formula leaves a rounding error there).
  if (r === 0) return [pole.lon, pole.lat];
  // TAN: R = (180/pi) cot(theta); phi measured from the native -y axis.
  const phi = Math.atan2(x, -y);
  const theta = Math.atan2(DEGREES, r);
  const dPhi = phi - Math.PI; // phi - phi_p, with phi_p = 180 degrees
  const deltaP = pole.lat * RADIANS;
  const sinTheta = Math.sin(theta);
  const cosTheta = Math.cos(theta);
  const lat = Math.asin(clamp(sinTheta * Math.sin(deltaP) + cosTheta * Math.cos(deltaP) * Math.cos(dPhi)));
  const lon = pole.lon * RADIANS + Math.atan2(-cosTheta * Math.sin(dPhi), sinTheta * Math.cos(deltaP) - cosTheta * Math.sin(deltaP) * Math.cos(dPhi));
  return [wrapDegrees(lon * DEGREES), lat * DEGREES];
}

/** Celestial to native to the TAN plane (the inverse of deprojectTan): degrees in, degrees out; undefined at or beyond 90 degrees from the reference point. */
function projectTan(lonDeg: number, latDeg: number, pole: { lon: number; lat: number }): [number, number] | undefined {
  const dLon = (lonDeg - pole.lon) * RADIANS;
  const lat = latDeg * RADIANS;
  const deltaP = pole.lat * RADIANS;
  const theta = Math.asin(clamp(Math.sin(lat) * Math.sin(deltaP) + Math.cos(lat) * Math.cos(deltaP) * Math.cos(dLon)));
  if (theta <= 0) return undefined;
  const phi = Math.PI + Math.atan2(-Math.cos(lat) * Math.sin(dLon), Math.sin(lat) * Math.cos(deltaP) - Math.cos(lat) * Math.sin(deltaP) * Math.cos(dLon));
  const r = DEGREES / Math.tan(theta);
  return [r * Math.sin(phi), -r * Math.cos(phi)];
}

/** The pixel's place, with its angle from Sun centre and position angle measured on the sphere (as astropy's). */
function placeFrom(xArcsec: number, yArcsec: number, sunRadiusArcsec: number | undefined): PixelPlace {
  const lon = (xArcsec / ARCSEC_PER_DEGREE) * RADIANS;
  const lat = (yArcsec / ARCSEC_PER_DEGREE) * RADIANS;
  // Haversine: well conditioned for the small angles near the Sun.
  const half = Math.sin(lat / 2) ** 2 + Math.cos(lat) * Math.sin(lon / 2) ** 2;
  const fromCentre = 2 * Math.asin(Math.sqrt(clamp(half))) * DEGREES * ARCSEC_PER_DEGREE;
  const place: PixelPlace = { xArcsec, yArcsec };
  if (sunRadiusArcsec !== undefined) place.solarRadii = fromCentre / sunRadiusArcsec;
  if (fromCentre > 0) {
    // Bearing from the centre towards +x is west; solar position angles turn the other way, towards east.
    const angle = Math.atan2(-Math.sin(lon) * Math.cos(lat), Math.sin(lat)) * DEGREES;
    place.positionAngleDeg = ((angle % 360) + 360) % 360;
  }
  return place;
}

/** The Sun's apparent radius in arcsec: RSUN_OBS, else RSUN (KCor's), else from the observer's distance DSUN_OBS. */
function sunRadiusOf(values: ReadonlyMap<string, FitsValue>): number | undefined {
  for (const key of ['RSUN_OBS', 'RSUN']) {
    const value = values.get(key);
    // A radius in arcsec is a few hundred to a few thousand; RSUN_REF-like metres would be 10^8.
    if (typeof value === 'number' && value > 0 && value < 100_000) return value;
  }
  const distance = values.get('DSUN_OBS');
  if (typeof distance === 'number' && distance > SUN_RADIUS_METRES) return Math.asin(SUN_RADIUS_METRES / distance) * DEGREES * ARCSEC_PER_DEGREE;
  return undefined;
}

/** The projection code of a CTYPE ("TAN" of "HPLN-TAN"), or '' for a linear axis. */
function projectionOf(ctype: string): string {
  return ctype.length >= 8 && ctype[4] === '-' ? ctype.slice(5, 8).replace(/-/g, '') : '';
}

/** Arcsec per unit of an axis: CUNIT's, else degrees for a celestial axis (the standard's default), arcsec for SOLX/SOLY. */
function arcsecPerUnit(unit: FitsValue | undefined, ctype: string, celestial: boolean): number | undefined {
  const name = textOf(unit);
  if (name !== '') return ARCSEC_PER_UNIT[name];
  if (celestial) return ARCSEC_PER_UNIT.deg;
  return ctype === 'SOLX' || ctype === 'SOLY' ? 1 : undefined;
}

function textOf(value: FitsValue | undefined): string {
  return typeof value === 'string' ? value.trim() : '';
}

function numberOf(value: FitsValue | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function clamp(value: number): number {
  return Math.min(1, Math.max(-1, value));
}

function wrapDegrees(degrees: number): number {
  const wrapped = ((((degrees + 180) % 360) + 360) % 360) - 180;
  return wrapped === -180 ? 180 : wrapped;
}
