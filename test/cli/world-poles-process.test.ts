// `mlso-dl pixel` and `quicklook --overlay` as users run them (the built mlso-dl, node scripts/build-main.mjs first,
// through a real pipe) on helioprojective headers turned by LONPOLE or with their axes swapped, against astropy's
// reading of the same headers (test/fixtures/wcs/astropy-poles.json, scripts/fixtures/make_wcs_poles.py).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { decode } from 'fast-png';
import { afterEach, describe, expect, it } from 'vitest';
import type { PixelReport } from '../../src-main/cli/commands/pixel-command';
import { figureLayout } from '../../src-science/figures/figure';
import { runPiped, stopBuiltCli } from '../helpers/built-cli';
import { imageHdu, type CardSpec } from '../science/fits/fits-writer';
import { fitsFileOf } from './fits-test-input';

type Pixel = [number, number];
interface PoleCase {
  name: string;
  header: Record<string, string | number>;
  pixels: { pixel: Pixel; arcsec: [number, number]; positionAngleDeg: number }[];
  overlay?: { centre: Pixel; north: { solarRadii: number; pixel: Pixel }[]; limbEvery5Deg?: Pixel[] };
}
type Refused = { name: string; header: Record<string, string | number> };
const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '../fixtures/wcs/astropy-poles.json'), 'utf8')) as Record<string, PoleCase[]> & {
  refused: Refused[];
};
const caseNamed = (group: string, name: string): PoleCase => fixture[group]!.find((each) => each.name === name)!;

afterEach(async () => {
  await stopBuiltCli();
});

/** A float32 image with this header (its NAXIS cards aside), each pixel its column number: a grey ramp. */
async function imageFile(header: Record<string, string | number>): Promise<string> {
  const [width, height] = [header.NAXIS1 as number, header.NAXIS2 as number];
  const stored = Array.from({ length: width * height }, (_, i) => i % width);
  const cards = Object.entries(header)
    .filter(([key]) => !key.startsWith('NAXIS'))
    .map(([key, value]): CardSpec => [key, value]);
  return fitsFileOf(imageHdu({ bitpix: -32, axes: [width, height], stored, extraCards: cards }));
}

describe('the built mlso-dl pixel on turned and swapped helioprojective axes', () => {
  for (const [group, name] of [
    ['overlay', 'issue: cdelt 300, lonpole 170'],
    ['swapped', 'swapped, crota1 on the latitude axis'],
  ] as const) {
    it(`${name}: --json | cat gives astropy's x, y (within 0.01 arcsec) and position angle for the four corners`, async () => {
      const { header, pixels } = caseNamed(group, name);
      const file = await imageFile(header);
      const corners = pixels.slice(0, 4);
      expect(corners.map(({ pixel }) => pixel)).toEqual([
        [1, 1],
        [256, 1],
        [1, 256],
        [256, 256],
      ]);
      for (const { pixel, arcsec, positionAngleDeg } of corners) {
        const run = await runPiped(['pixel', file, String(pixel[0]), String(pixel[1]), '--json'], 'cat');
        expect([run.stderr, run.statuses]).toEqual(['', [0, 0]]);
        const world = (JSON.parse(run.output.toString()) as PixelReport).world!;
        expect(world.kind).toBe('helioprojective');
        expect(Math.abs(world.xArcsec - arcsec[0]), `x of ${pixel.join(', ')}`).toBeLessThan(0.01);
        expect(Math.abs(world.yArcsec - arcsec[1]), `y of ${pixel.join(', ')}`).toBeLessThan(0.01);
        expect(Math.abs(world.positionAngleDeg! - positionAngleDeg), `position angle of ${pixel.join(', ')}`).toBeLessThan(1e-6);
      }
    });
  }

  it('issue: cdelt 300, lonpole 170: the text form prints astropy’s x and y to the hundredth', async () => {
    const { header, pixels } = caseNamed('overlay', 'issue: cdelt 300, lonpole 170');
    const { arcsec } = pixels[0]!;
    const run = await runPiped(['pixel', await imageFile(header), '1', '1'], 'cat');
    expect([run.stderr, run.statuses]).toEqual(['', [0, 0]]);
    expect(run.output.toString()).toContain(`Helioprojective: x ${arcsec[0].toFixed(2)} arcsec, y ${arcsec[1].toFixed(2)} arcsec\n`);
  });

  it('a header astropy refuses (PV1_2 = 95): the value, and the reason in its own keywords instead of a place', async () => {
    const { header } = fixture.refused.find((each) => each.name === 'native reference latitude above 90')!;
    const run = await runPiped(['pixel', await imageFile(header), '3', '1'], 'cat');
    expect([run.stderr, run.statuses]).toEqual(['', [0, 0]]);
    expect(run.output.toString()).toBe(
      'Pixel 3, 1 of HDU 0 (256 x 256): 2\nHDU 0 has no world coordinates: its native latitude of the reference point (PV1_2 = 95) is beyond 90 degrees.\n',
    );
  });
});

describe('the built mlso-dl quicklook --overlay limb,north on a header turned by LONPOLE', () => {
  /** The figure's RGBA pixels, and where the image's pixel (FITS counts) lands in it. */
  function figureOf(png: Buffer, width: number, height: number) {
    const decoded = decode(png);
    const image = { width, height };
    // No title, colour bar or axes: nothing for the text measure to size.
    const layout = figureLayout({ picture: image, image }, createCanvas(1, 1).getContext('2d'));
    expect([decoded.width, decoded.height]).toEqual([layout.width, layout.height]);
    const rgb = (x: number, y: number) => Array.from(decoded.data.subarray((y * decoded.width + x) * 4, (y * decoded.width + x) * 4 + 3));
    // A pixel's centre in the figure, at (column + 0.5, row + 0.5), from the image's FITS pixel (centre at whole numbers).
    const inFigure = ([x, y]: Pixel): Pixel => [layout.pictureAt.x + x - 0.5, layout.pictureAt.y + height - y + 0.5];
    return { decoded, rgb, inFigure };
  }

  it('draws the limb and north where astropy puts them, and says nothing on stderr', async () => {
    const { header, overlay } = caseNamed('overlay', 'quicklook: lonpole 170, off the Sun');
    const [width, height] = [header.NAXIS1 as number, header.NAXIS2 as number];
    const run = await runPiped(['quicklook', await imageFile(header), '--out', '-', '--overlay', 'limb,north'], 'cat');
    expect([run.stderr, run.statuses]).toEqual(['', [0, 0]]);
    const { decoded, rgb, inFigure } = figureOf(run.output, width, height);

    const limb = overlay!.limbEvery5Deg!.map(inFigure);
    const centre = inFigure(overlay!.centre);
    const north = inFigure(overlay!.north[0]!.pixel);
    // The grey picture has r = g = b; the limb's yellow (#ffd23f) and north's salmon (#ff7a59) lift red over blue,
    // yellow with green nearly as much, salmon with little.
    const yellow: Pixel[] = [];
    const salmon: Pixel[] = [];
    for (let y = 0; y < decoded.height; y += 1) {
      for (let x = 0; x < decoded.width; x += 1) {
        const [r, g, b] = rgb(x, y) as [number, number, number];
        const lift = r - b;
        if (lift > 96 && g - b > 0.6 * lift) yellow.push([x + 0.5, y + 0.5]);
        if (lift > 80 && g - b < 0.35 * lift) salmon.push([x + 0.5, y + 0.5]);
      }
    }
    const apart = (a: Pixel, b: Pixel) => Math.hypot(a[0] - b[0], a[1] - b[1]);
    const fromLimb = (point: Pixel) => nearest(limb.map((each, i) => fromSegment(point, each, limb[(i + 1) % limb.length]!)));
    const fromNorth = (point: Pixel) => fromSegment(point, centre, north);

    expect(yellow.length).toBeGreaterThan(200);
    expect(yellow.filter((point) => fromLimb(point) > 1.5)).toEqual([]);
    // Every 5 degrees of astropy's limb is drawn, but where north's line crosses it.
    expect(limb.filter((point) => fromNorth(point) > 3 && nearest(yellow.map((each) => apart(each, point))) > 1.5)).toEqual([]);
    // North's line from Sun centre (its label beyond the line's end is left aside).
    const line = salmon.filter((point) => apart(point, centre) < 40);
    expect(line.length).toBeGreaterThan(30);
    expect(line.filter((point) => fromNorth(point) > 1.5)).toEqual([]);
  });

  it('a limb past the TAN horizon: the picture, and one line on stderr saying why there is no overlay', async () => {
    const { header } = caseNamed('overlay', 'quicklook: lonpole 170, off the Sun');
    const run = await runPiped(['quicklook', await imageFile({ ...header, CRVAL1: 89.9 * 3600 }), '--out', '-', '--overlay', 'limb,north'], 'wc -c');
    expect(run.statuses).toEqual([0, 0]);
    expect(Number(run.output.toString().trim())).toBeGreaterThan(1000);
    expect(run.stderr).toBe('HDU 0 has no overlay: its limb reaches beyond what its projection can show (90 degrees from its reference point).\n');
  });
});

function nearest(distances: number[]): number {
  return distances.reduce((least, each) => Math.min(least, each), Infinity);
}

/** How far `point` is from the segment from `a` to `b`. */
function fromSegment(point: Pixel, a: Pixel, b: Pixel): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const along = Math.max(0, Math.min(1, ((point[0] - a[0]) * dx + (point[1] - a[1]) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(point[0] - a[0] - along * dx, point[1] - a[1] - along * dy);
}
