// Where each circle's radius is written ("2 R☉"), on a figure and over the image on screen: on the circle itself,
// as far towards the picture's lower right as the label fits inside the picture without covering another label
// (north's label is up, so the two keep apart). A circle whose every point leaves no room is not labelled.
import { circleLabel } from './overlay-style';
import type { OverlayPoint, SunOverlay } from '../fits/sun-overlay';

export interface LabelBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface PlacedLabel {
  solarRadii: number;
  text: string;
  /** The label's centre, in the box's coordinates (y down). */
  x: number;
  y: number;
}

/**
 * Labels for the circles other than the limb. `toBox` maps an image point (FITS counts) into the box's
 * coordinates (y down), `size` gives a label's width and height there, `picture` is the picture's extent.
 */
export function circleLabels(
  circles: SunOverlay['circles'],
  toBox: (point: OverlayPoint) => { x: number; y: number },
  picture: LabelBox,
  size: (text: string) => { width: number; height: number },
): PlacedLabel[] {
  const placed: (PlacedLabel & { box: LabelBox })[] = [];
  for (const circle of circles) {
    if (circle.solarRadii === 1) continue;
    const text = circleLabel(circle.solarRadii);
    const { width, height } = size(text);
    const candidates = circle.points
      .map(toBox)
      .map(({ x, y }) => ({ x, y, box: { left: x - width / 2, right: x + width / 2, top: y - height / 2, bottom: y + height / 2 } }))
      .filter(({ box }) => inside(box, picture) && !placed.some((other) => overlap(box, other.box)))
      .sort((a, b) => b.x + b.y - (a.x + a.y));
    const best = candidates[0];
    if (best) placed.push({ solarRadii: circle.solarRadii, text, ...best });
  }
  return placed.map(({ solarRadii, text, x, y }) => ({ solarRadii, text, x, y }));
}

function inside(box: LabelBox, within: LabelBox): boolean {
  return box.left >= within.left && box.right <= within.right && box.top >= within.top && box.bottom <= within.bottom;
}

function overlap(a: LabelBox, b: LabelBox): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}
