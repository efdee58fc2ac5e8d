// How the quick-look, the thumbnails and the player turn values into grey levels unless told otherwise, and the
// rule for a clip typed by hand.
import { DEFAULT_CLIP_PERCENTS, STRETCHES, type StretchName } from '../../src-science/fits/image-stretch';
import type { DisplayChoice, HduSummary, PixelReading } from './workers/fits-protocol';
import { displayedValue } from '../../src-science/figures/figure';

/** asinh: linear in the faint outer corona, logarithmic near the occulter, so streamers show at a glance. */
export const DEFAULT_DISPLAY: DisplayChoice = { stretch: 'asinh', clipPercents: DEFAULT_CLIP_PERCENTS };

export const STRETCH_LABELS: Readonly<Record<StretchName, string>> = { linear: 'Linear', sqrt: 'Square root', log: 'Log', asinh: 'Asinh' };
export { STRETCHES };

/** Why a clip cannot be used, or null when it can: two percentiles from 0 to 100, the lower first. */
export function clipProblem(low: number | null | undefined, high: number | null | undefined): string | null {
  const usable = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100;
  if (!usable(low) || !usable(high)) return 'Enter two percentiles from 0 to 100, such as 1 and 99.5.';
  if (low >= high) return 'The lower percentile must be below the upper one, such as 1 and 99.5.';
  return null;
}

/** "1–99.5 %", for labels. */
export function clipText(clipPercents: readonly [number, number]): string {
  return `${clipPercents[0]}–${clipPercents[1]} %`;
}

const SAMPLE_TYPES: Readonly<Record<number, string>> = { 8: 'uint8', 16: 'int16', 32: 'int32', 64: 'int64', [-32]: 'float32', [-64]: 'float64' };

/** An HDU in the picker: "HDU 1 (IMAGE, I): 1280 × 1024, float32", "HDU 3 (BINTABLE): no image". */
export function describeHduChoice(hdu: HduSummary): string {
  const what = hduName(hdu);
  if (!hdu.isImage) return `${what}: no image`;
  return `${what}: ${hdu.axes.join(' × ')}, ${SAMPLE_TYPES[hdu.bitpix] ?? `BITPIX ${hdu.bitpix}`}`;
}

/** The same figures the saved images and the command line's figures show. */
export { displayedValue };

/** "HDU 2 (IMAGE, Q)": the HDU's number, its type and its EXTNAME. */
export function hduName(hdu: HduSummary): string {
  return `HDU ${hdu.index} (${hdu.type}${hdu.name ? `, ${hdu.name}` : ''})`;
}

/**
 * The readout of the pixel under the pointer, in parts: "Pixel 700, 512", "9.444e-7 B/Bsun", "x 1044.4″ y 5.2″",
 * "1.086 R☉", "PA 270.3°" (counter-clockwise from solar north); a part is left out when the header cannot give it.
 */
export function readoutParts(reading: PixelReading): string[] {
  const value = reading.value === null ? 'blank' : `${displayedValue(reading.value)}${reading.unit ? ` ${reading.unit}` : ''}`;
  const parts = [`Pixel ${reading.pixel.x}, ${reading.pixel.y}`, value];
  const world = reading.world;
  if (!world) return parts;
  parts.push(`x ${world.xArcsec.toFixed(1)}″ y ${world.yArcsec.toFixed(1)}″`);
  if (world.solarRadii !== undefined) parts.push(`${world.solarRadii.toFixed(3)} R☉`);
  if (world.positionAngleDeg !== undefined) parts.push(`PA ${world.positionAngleDeg.toFixed(1)}°`);
  return parts;
}
