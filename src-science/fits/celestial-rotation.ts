// The turn of the sphere between a projection's native coordinates (phi, theta) and the celestial ones (here
// helioprojective longitude and latitude), as FITS WCS paper II (section 2.2 to 2.4) defines it and WCSLIB, so
// astropy, computes it: the native pole's celestial place follows from the reference point (CRVAL), the native
// reference point (phi0, theta0), LONPOLE and, where two places fit, the one nearer LATPOLE. All angles in degrees.

export interface RotationParameters {
  /** The reference point's celestial longitude and latitude (CRVAL of the longitude and latitude axes). */
  lon0: number;
  lat0: number;
  /** The reference point's native longitude and latitude (the projection's own unless PVi_1, PVi_2 say). */
  phi0: number;
  theta0: number;
  /** The celestial pole's native longitude (LONPOLE), undefined for the standard's default. */
  lonpole: number | undefined;
  /** Near which latitude to put the native pole when two places fit (LATPOLE, 90 by default). */
  latpole: number;
}

export interface CelestialRotation {
  /** The native pole's celestial longitude and latitude (alpha_p, delta_p) and the celestial pole's native longitude. */
  poleLon: number;
  poleLat: number;
  lonpole: number;
}

const RADIANS = Math.PI / 180;
const DEGREES = 180 / Math.PI;
/** How far past 90 degrees rounding may carry a latitude before it is taken as a real excess (WCSLIB's tolerance). */
const TOLERANCE = 1e-10;

/** The rotation these parameters define, or undefined where no native pole satisfies them. */
export function celestialRotation(parameters: RotationParameters): CelestialRotation | undefined {
  const { lon0, lat0, phi0, theta0, latpole } = parameters;
  // The default puts the celestial pole "above" the reference point in the native frame (paper II, eq. 11).
  const lonpole = parameters.lonpole ?? wrapHalfTurn((lat0 < theta0 ? 180 : 0) + phi0);
  // With the reference point at the native pole, that pole is the reference point.
  if (theta0 === 90) return { poleLon: lon0, poleLat: lat0, lonpole };

  const poleLat = nativePoleLatitude(lat0, theta0, lonpole - phi0, latpole);
  if (poleLat === undefined) return undefined;
  const poleLon = nativePoleLongitude(lon0, lat0, theta0, lonpole - phi0, poleLat);
  return { poleLon, poleLat, lonpole };
}

/** delta_p (paper II, eq. 8): one of up to two latitudes, the one nearer LATPOLE; undefined if none is on the sphere. */
function nativePoleLatitude(lat0: number, theta0: number, turn: number, latpole: number): number | undefined {
  const cosTheta0 = Math.cos(theta0 * RADIANS);
  const sinTheta0 = Math.sin(theta0 * RADIANS);
  const along = cosTheta0 * Math.cos(turn * RADIANS);
  const length = Math.hypot(along, sinTheta0);
  if (length === 0) {
    // The reference point on the native equator, 90 degrees from the pole's meridian: any pole on the reference
    // point's great circle fits, so LATPOLE alone says which, and only a reference point on the equator has one.
    return Math.abs(Math.sin(lat0 * RADIANS)) < TOLERANCE ? clampLatitude(latpole) : undefined;
  }
  let ratio = Math.sin(lat0 * RADIANS) / length;
  if (Math.abs(ratio) > 1 + TOLERANCE) return undefined;
  ratio = Math.max(-1, Math.min(1, ratio));
  const middle = turn === 0 ? theta0 : Math.atan2(sinTheta0, along) * DEGREES;
  const half = turn === 0 ? 90 - lat0 : Math.acos(ratio) * DEGREES;
  // Equally near, WCSLIB takes the lower: so it is listed first.
  const candidates = [wrapHalfTurn(middle - half), wrapHalfTurn(middle + half)].filter((each) => Math.abs(each) <= 90 + TOLERANCE);
  if (candidates.length === 0) return undefined;
  const nearest = candidates.reduce((best, each) => (Math.abs(latpole - each) < Math.abs(latpole - best) ? each : best));
  return clampLatitude(nearest);
}

/** alpha_p (paper II, eq. 9), with the cases where the native and a celestial pole coincide. */
function nativePoleLongitude(lon0: number, lat0: number, theta0: number, turn: number, poleLat: number): number {
  const cosLat0 = Math.cos(lat0 * RADIANS);
  if (Math.abs(Math.cos(poleLat * RADIANS) * cosLat0) < TOLERANCE) {
    // The reference point at a celestial pole: the pole's longitude is the reference point's.
    if (Math.abs(cosLat0) < TOLERANCE) return lon0;
    // A celestial pole at the native pole: the longitudes differ by the turn alone.
    return poleLat > 0 ? lon0 + turn - 180 : lon0 - turn;
  }
  const x = (Math.sin(theta0 * RADIANS) - Math.sin(poleLat * RADIANS) * Math.sin(lat0 * RADIANS)) / (Math.cos(poleLat * RADIANS) * cosLat0);
  const y = (Math.sin(turn * RADIANS) * Math.cos(theta0 * RADIANS)) / cosLat0;
  return lon0 - Math.atan2(y, x) * DEGREES;
}

/** Native (phi, theta) to celestial (longitude, latitude) (paper II, eq. 2). */
export function nativeToCelestial(rotation: CelestialRotation, phi: number, theta: number): [number, number] {
  // The native pole is the pole's place, exactly (the general formula leaves a rounding error there).
  if (theta === 90) return [rotation.poleLon, rotation.poleLat];
  const [turn, lat] = turned(phi - rotation.lonpole, theta, rotation.poleLat);
  return [rotation.poleLon + turn, lat];
}

/** Celestial (longitude, latitude) to native (phi, theta) (paper II, eq. 5): the same turn, backwards. */
export function celestialToNative(rotation: CelestialRotation, lon: number, lat: number): [number, number] {
  const [turn, theta] = turned(lon - rotation.poleLon, lat, rotation.poleLat);
  return [wrapHalfTurn(rotation.lonpole + turn), theta];
}

/**
 * A point `longitude` degrees round and at `latitude` in one frame, seen from a frame whose pole is at `poleLat`
 * in it: its longitude from the pole's meridian and its latitude. The same formula turns either way (eq. 2 and 5).
 */
function turned(longitude: number, latitude: number, poleLat: number): [number, number] {
  const cosLat = Math.cos(latitude * RADIANS);
  const sinPole = Math.sin(poleLat * RADIANS);
  const cosPole = Math.cos(poleLat * RADIANS);
  const halfTurn = Math.sin((longitude * RADIANS) / 2);
  // x = sin(lat) cos(pole) - cos(lat) sin(pole) cos(longitude), written without the cancellation near the pole.
  const x = Math.sin((latitude - poleLat) * RADIANS) + 2 * cosLat * sinPole * halfTurn * halfTurn;
  const y = -cosLat * Math.sin(longitude * RADIANS);
  const z = Math.cos((latitude - poleLat) * RADIANS) - 2 * cosLat * cosPole * halfTurn * halfTurn;
  let outLongitude: number;
  if (x !== 0 || y !== 0) outLongitude = Math.atan2(y, x) * DEGREES;
  // At a pole of the other frame the longitude is free: keep the meridian continuous through it.
  else outLongitude = poleLat > 0 ? longitude + 180 : -longitude;
  // Near a pole arcsin loses digits; the length of the (x, y) part keeps them.
  const outLatitude = Math.abs(z) > 0.99 ? Math.sign(z) * Math.acos(Math.min(1, Math.hypot(x, y))) * DEGREES : Math.asin(z) * DEGREES;
  return [outLongitude, outLatitude];
}

function clampLatitude(latitude: number): number {
  return Math.max(-90, Math.min(90, latitude));
}

/** Degrees into [-180, 180]. */
function wrapHalfTurn(degrees: number): number {
  if (degrees > 180) return degrees - 360;
  if (degrees < -180) return degrees + 360;
  return degrees;
}
