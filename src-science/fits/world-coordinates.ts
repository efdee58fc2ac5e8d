// Where on the sky, and on the Sun, a pixel of an image HDU is: the image's world coordinate system (WCS, FITS WCS
// papers I and II) for the two axes solar images use. Helioprojective axes (CTYPE HPLN-TAN and HPLT-TAN, in either
// order: the gnomonic plane turned onto the sky by the celestial rotation of celestial-rotation.ts, with LONPOLE,
// LATPOLE and the longitude axis's PVi_0 to PVi_4) give longitude and latitude in arcsec from Sun centre; two linear
// axes (SOLX, or any CTYPE without a projection code) give CRVAL plus the offset. The pixel-to-intermediate step is
// the same for both: PCi_j times CDELTi if the header has any PC, else CDi_j if it has any, else CDELTi rotated
// by the latitude axis's CROTA, the way WCSLIB (and so astropy) reads an older header; like WCSLIB, CROTA turns
// celestial axes only. Checked against astropy.wcs in world-coordinates.test.ts and world-poles.test.ts.
import { celestialRotation, celestialToNative, nativeToCelestial, type CelestialRotation } from './celestial-rotation';
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
/** sin(theta) below which a point is on the TAN plane's horizon: 1e-12 is 2e-7 arcsec, and its pixel 10^14 degrees out. */
const HORIZON = 1e-12;

/** Arcsec in one of each angle unit CUNIT may name (FITS WCS paper I, table 3); celestial axes default to degrees. */
const ARCSEC_PER_UNIT: Readonly<Record<string, number>> = { deg: 3600, arcmin: 60, arcsec: 1, mas: 0.001, rad: 3600 * DEGREES };

/** Reads an image HDU's keywords: its world coordinates, or why there are none. */
export function worldCoordinatesOf(values: ReadonlyMap<string, FitsValue>): WorldCoordinates | NoWorldCoordinates {
  const types = [textOf(values.get('CTYPE1')), textOf(values.get('CTYPE2'))] as const;
  if (types[0] === '' || types[1] === '') return { reason: 'its header names no coordinate axes (CTYPE1, CTYPE2)' };
  const axes = axesOf(types[0], types[1]);
  if ('reason' in axes) return axes;
  const celestial = axes.celestial;
  const scale1 = arcsecPerUnit(values.get('CUNIT1'), types[0], celestial !== undefined);
  const scale2 = arcsecPerUnit(values.get('CUNIT2'), types[1], celestial !== undefined);
  if (scale1 === undefined || scale2 === undefined) return { reason: 'its axes are not in a unit of angle' };
  const matrix = linearMatrix(values, celestial);
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
  if (!celestial) {
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

  // Each axis in degrees, as the projection works; the longitude axis may be the second.
  const degrees1 = scale1 / ARCSEC_PER_DEGREE;
  const degrees2 = scale2 / ARCSEC_PER_DEGREE;
  const swapped = celestial.lng === 2;
  const frame = swapped
    ? nativeFrameOf(values, celestial, crval2 * degrees2, crval1 * degrees1)
    : nativeFrameOf(values, celestial, crval1 * degrees1, crval2 * degrees2);
  if ('reason' in frame) return frame;
  const { rotation, offset } = frame;
  return {
    kind: 'helioprojective',
    ...sun,
    placeOf: (x, y) => {
      const [u, v] = intermediate(x, y);
      const [planeX, planeY] = swapped ? [v * degrees2, u * degrees1] : [u * degrees1, v * degrees2];
      const [phi, theta] = deprojectTan(planeX + offset.x, planeY + offset.y);
      const [lon, latitude] = nativeToCelestial(rotation, phi, theta);
      return placeFrom(wrapDegrees(lon) * ARCSEC_PER_DEGREE, latitude * ARCSEC_PER_DEGREE, sunRadiusArcsec);
    },
    pixelOf: (xArcsec, yArcsec) => {
      const [phi, theta] = celestialToNative(rotation, xArcsec / ARCSEC_PER_DEGREE, yArcsec / ARCSEC_PER_DEGREE);
      const projected = projectTan(phi, theta);
      if (!projected) return undefined;
      const planeX = projected[0] - offset.x;
      const planeY = projected[1] - offset.y;
      return swapped ? pixelFrom(planeY / degrees1, planeX / degrees2) : pixelFrom(planeX / degrees1, planeY / degrees2);
    },
  };
}

/** Which axis (1 or 2) is helioprojective longitude and which latitude. */
interface CelestialAxes {
  lng: 1 | 2;
  lat: 1 | 2;
}

/** The axes' kind from their CTYPEs: helioprojective (either order) in the TAN projection, or linear. */
function axesOf(type1: string, type2: string): { celestial?: CelestialAxes } | NoWorldCoordinates {
  const projection1 = projectionOf(type1);
  const projection2 = projectionOf(type2);
  if (projection1 !== projection2) return { reason: `its axes name two projections (${type1}, ${type2})` };
  const kinds = [type1.slice(0, 4), type2.slice(0, 4)].join(',');
  const celestial: CelestialAxes | undefined = kinds === 'HPLN,HPLT' ? { lng: 1, lat: 2 } : kinds === 'HPLT,HPLN' ? { lng: 2, lat: 1 } : undefined;
  if (!celestial) {
    if (/HPL[NT]/.test(kinds)) return { reason: `its axes (${type1}, ${type2}) are not a helioprojective longitude and latitude (HPLN and HPLT)` };
    if (projection1 !== '') return { reason: `its axes (${type1}, ${type2}) are not helioprojective` };
    return {};
  }
  if (projection1 !== 'TAN') return { reason: `its ${projection1 || 'missing'} projection is not one this reader knows (TAN)` };
  // A distortion code after the projection (HPLN-TAN-SIP) moves every pixel: read without it, each place would be off.
  const distorted = [type1, type2].find((type) => type.slice(8).trim() !== '');
  if (distorted) return { reason: `its distortion (${distorted.slice(8).replace(/^-/, '')} in ${distorted}) is not one this reader applies` };
  return { celestial };
}

/**
 * How the TAN plane lies on the sky: the rotation from its native sphere (paper II, section 2), with LONPOLE,
 * LATPOLE and the native reference point from the longitude axis's PVi_1 and PVi_2 (PVi_3, PVi_4 stand in for
 * LONPOLE and LATPOLE), and the plane's offset, which WCSLIB applies only when PVi_0 is set and both PVi_1 and
 * PVi_2 are given, so that the reference pixel lands on the reference point.
 */
function nativeFrameOf(
  values: ReadonlyMap<string, FitsValue>,
  axes: CelestialAxes,
  lon0: number,
  lat0: number,
): { rotation: CelestialRotation; offset: { x: number; y: number } } | NoWorldCoordinates {
  const pv = (m: number): number | undefined => optionalNumber(values.get(`PV${axes.lng}_${m}`));
  const unknown = [...values.keys()].find((key) => new RegExp(`^PV${axes.lng}_([5-9]|\\d{2,})$`).test(key));
  if (unknown) return { reason: `its ${unknown} is not a parameter of a TAN longitude axis (PV${axes.lng}_0 to PV${axes.lng}_4)` };
  const phi0 = pv(1) ?? 0;
  let theta0 = pv(2) ?? 90;
  if (Math.abs(theta0) > 90 + 1e-10) return { reason: `its native latitude of the reference point (PV${axes.lng}_2 = ${theta0}) is beyond 90 degrees` };
  theta0 = Math.max(-90, Math.min(90, theta0));
  let offset = { x: 0, y: 0 };
  if ((pv(0) ?? 0) !== 0 && pv(1) !== undefined && pv(2) !== undefined) {
    const at = projectTan(phi0, theta0);
    if (!at) return { reason: `its reference point (PV${axes.lng}_1, PV${axes.lng}_2) is on the hemisphere the TAN projection cannot show` };
    offset = { x: at[0], y: at[1] };
  }
  const lonpole = pv(3) ?? optionalNumber(values.get('LONPOLE'));
  const latpole = pv(4) ?? optionalNumber(values.get('LATPOLE')) ?? 90;
  const rotation = celestialRotation({
    lon0,
    lat0,
    phi0,
    theta0, // 999 is how older headers write "undefined".
    lonpole: lonpole === 999 ? undefined : lonpole,
    latpole,
  });
  if (!rotation) {
    return { reason: `its LONPOLE, PV${axes.lng}_1 and PV${axes.lng}_2 put no celestial pole where its reference latitude (CRVAL${axes.lat}) needs one` };
  }
  return { rotation, offset };
}

interface LinearMatrix {
  m11: number;
  m12: number;
  m21: number;
  m22: number;
}

/**
 * The matrix from pixel offsets to intermediate coordinates, by the first of PC with CDELT, CD, or CROTA present
 * (WCSLIB's order, so a header holding PC and CD is read by its PC, as astropy reads it); like WCSLIB, the roll is
 * the latitude axis's CROTA, and it turns celestial axes only.
 */
function linearMatrix(values: ReadonlyMap<string, FitsValue>, celestial: CelestialAxes | undefined): LinearMatrix | NoWorldCoordinates {
  const pcKeys = ['PC1_1', 'PC1_2', 'PC2_1', 'PC2_2'];
  const cdKeys = ['CD1_1', 'CD1_2', 'CD2_1', 'CD2_2'];
  const hasPc = pcKeys.some((key) => values.has(key));
  let matrix: LinearMatrix;
  if (!hasPc && cdKeys.some((key) => values.has(key))) {
    const [m11, m12, m21, m22] = cdKeys.map((key) => numberOf(values.get(key), 0)) as [number, number, number, number];
    matrix = { m11, m12, m21, m22 };
  } else {
    const cdelt = [numberOf(values.get('CDELT1'), 1), numberOf(values.get('CDELT2'), 1)] as const;
    let pc: [[number, number], [number, number]];
    if (hasPc) {
      pc = [
        [numberOf(values.get('PC1_1'), 1), numberOf(values.get('PC1_2'), 0)],
        [numberOf(values.get('PC2_1'), 0), numberOf(values.get('PC2_2'), 1)],
      ];
    } else {
      pc = [
        [1, 0],
        [0, 1],
      ];
      if (celestial) {
        // CROTA turns the axes as a PC matrix would (WCS paper II, section 6.1), with the pixel aspect kept.
        const rho = numberOf(values.get(`CROTA${celestial.lat}`), 0) * RADIANS;
        const [i, j] = [celestial.lng - 1, celestial.lat - 1];
        const aspect = cdelt[i] !== 0 ? cdelt[j]! / cdelt[i]! : 1;
        pc[i]![i] = Math.cos(rho);
        pc[j]![j] = Math.cos(rho);
        pc[i]![j] = -Math.sin(rho) * aspect;
        pc[j]![i] = Math.sin(rho) / aspect;
      }
    }
    matrix = { m11: cdelt[0] * pc[0][0], m12: cdelt[0] * pc[0][1], m21: cdelt[1] * pc[1][0], m22: cdelt[1] * pc[1][1] };
  }
  const determinant = matrix.m11 * matrix.m22 - matrix.m12 * matrix.m21;
  if (!Number.isFinite(determinant) || determinant === 0) return { reason: 'its pixel scale or rotation makes no coordinate system (a singular matrix)' };
  return matrix;
}

/** The TAN (gnomonic) plane to its native sphere: x, y in degrees to (phi, theta) in degrees (paper II, section 5.1.3). */
function deprojectTan(x: number, y: number): [number, number] {
  const r = Math.hypot(x, y);
  // The plane's origin is the native pole, exactly.
  if (r === 0) return [0, 90];
  // R = (180/pi) cot(theta); phi measured from the native -y axis.
  return [Math.atan2(x, -y) * DEGREES, Math.atan2(DEGREES, r) * DEGREES];
}

/** The native sphere to the TAN plane, degrees in and out; undefined on and beyond the native equator, which it cannot show. */
function projectTan(phi: number, theta: number): [number, number] | undefined {
  const sinTheta = Math.sin(theta * RADIANS);
  // A point on the horizon, 90 degrees from the native pole, is infinitely far out; rounding may put it a hair above.
  if (sinTheta <= HORIZON) return undefined;
  const r = (DEGREES * Math.cos(theta * RADIANS)) / sinTheta;
  return [r * Math.sin(phi * RADIANS), -r * Math.cos(phi * RADIANS)];
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
  return optionalNumber(value) ?? fallback;
}

function optionalNumber(value: FitsValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function clamp(value: number): number {
  return Math.min(1, Math.max(-1, value));
}

function wrapDegrees(degrees: number): number {
  const wrapped = ((((degrees + 180) % 360) + 360) % 360) - 180;
  return wrapped === -180 ? 180 : wrapped;
}
