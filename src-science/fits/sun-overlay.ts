// The lines drawn over a solar image: the limb, circles at chosen distances from Sun centre (in solar radii) and
// solar north, in the image's pixels (FITS counts, fractional), from its world coordinates. Each circle is the set
// of points at that angle from Sun centre on the sky, projected through the header's WCS, so a rolled, off-centre
// or non-square-pixel image gets its circles where they truly are.
import type { FitsValue } from './fits-cards';
import { worldCoordinatesOf } from './world-coordinates';

export interface OverlayPoint {
  x: number;
  y: number;
}

export interface SunOverlay {
  /** Sun centre, in pixels. */
  centre: OverlayPoint;
  /** The Sun's radius in arcsec the circles are drawn from. */
  sunRadiusArcsec: number;
  /** One closed line per distance asked for (1 is the limb), in the order asked. */
  circles: { solarRadii: number; points: OverlayPoint[] }[];
  /**
   * From Sun centre towards solar north, NORTH_REACH solar radii long, or shorter where the image (NAXIS1 x NAXIS2)
   * ends sooner: a 1280 x 1024 UCoMP image shows only about 1.5 solar radii above the Sun, and the label must show.
   */
  north: { from: OverlayPoint; to: OverlayPoint };
}

/** Points per circle: smooth at any size an image is shown at. */
const CIRCLE_POINTS = 144;
const NORTH_REACH = 1.6;
/** The shortest north drawn, whatever the image's size: just beyond the limb. */
const NORTH_LEAST = 1.1;
/** Room kept between north's end and the image's edge for its label, as a fraction of the image's width. */
const LABEL_ROOM = 1 / 20;
const ARCSEC_PER_RADIAN = (180 / Math.PI) * 3600;

/** The overlay of an image with these keywords, or why it has none (no world coordinates, no Sun radius). */
export function sunOverlay(keywords: ReadonlyMap<string, FitsValue>, solarRadii: readonly number[]): SunOverlay | { reason: string } {
  const wcs = worldCoordinatesOf(keywords);
  if ('reason' in wcs) return wcs;
  const radius = wcs.sunRadiusArcsec;
  if (radius === undefined) return { reason: 'its header gives no solar radius (RSUN_OBS, RSUN or DSUN_OBS)' };
  const centre = wcs.pixelOf(0, 0);
  if (!centre) return { reason: 'Sun centre is outside what its projection can show' };
  /** The pixel at `distance` arcsec from Sun centre towards position angle `angle` (radians, counter-clockwise from north). */
  const at = (distance: number, angle: number): OverlayPoint | undefined => {
    const rho = distance / ARCSEC_PER_RADIAN;
    const lat = Math.asin(Math.sin(rho) * Math.cos(angle));
    const lon = Math.atan2(-Math.sin(rho) * Math.sin(angle), Math.cos(rho));
    return wcs.pixelOf(lon * ARCSEC_PER_RADIAN, lat * ARCSEC_PER_RADIAN);
  };
  const circles: SunOverlay['circles'] = [];
  for (const each of solarRadii) {
    const points: OverlayPoint[] = [];
    for (let step = 0; step < CIRCLE_POINTS; step += 1) {
      const point = at(each * radius, (2 * Math.PI * step) / CIRCLE_POINTS);
      // A circle cut by the projection's horizon would be closed across the gap: a line where nothing is.
      if (!point) {
        const circle = each === 1 ? 'limb' : `circle at ${each} solar radii`;
        return { reason: `its ${circle} reaches beyond what its projection can show (90 degrees from its reference point)` };
      }
      points.push(point);
    }
    circles.push({ solarRadii: each, points });
  }
  const inImage = withinImage(keywords);
  let reach = NORTH_REACH;
  let to = at(reach * radius, 0);
  while (reach > NORTH_LEAST && to && !inImage(to)) {
    reach = Math.max(NORTH_LEAST, reach - 0.05);
    to = at(reach * radius, 0);
  }
  if (!to) return { reason: 'solar north reaches beyond what its projection can show' };
  return { centre, sunRadiusArcsec: radius, circles, north: { from: centre, to } };
}

/** Whether a point is inside the image with room for a label, by its NAXIS1 and NAXIS2 (any point, when unknown). */
function withinImage(keywords: ReadonlyMap<string, FitsValue>): (point: OverlayPoint) => boolean {
  const width = keywords.get('NAXIS1');
  const height = keywords.get('NAXIS2');
  if (typeof width !== 'number' || typeof height !== 'number' || width <= 0 || height <= 0) return () => true;
  const room = width * LABEL_ROOM;
  return ({ x, y }) => x >= 0.5 + room && x <= width + 0.5 - room && y >= 0.5 + room && y <= height + 0.5 - room;
}
