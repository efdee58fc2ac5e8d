// The figure as users make it for a talk: the built mlso-dl (node scripts/build-main.mjs first) writing its PNG
// through a real pipe, read back pixel by pixel. Overlays stay within the picture, a 256-pixel figure's title is
// drawn whole, and `--axes` ticks each edge where astropy puts each value sunpy's plot ticks
// (test/fixtures/figure-axes, written by scripts/fixtures/make_figure_axes.py).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decode } from 'fast-png';
import { afterEach, describe, expect, it } from 'vitest';
import type { FitsValue } from '../../src-science/fits/fits-cards';
import { runPiped, stopBuiltCli } from '../helpers/built-cli';
import { imageHdu, type CardSpec } from '../science/fits/fits-writer';
import { EMULATOR_FILE, emulatorFitsBytes, fitsFileOf } from './fits-test-input';

afterEach(async () => {
  await stopBuiltCli();
});

interface Picture {
  width: number;
  height: number;
  /** The largest of R, G and B at (x, y), row 0 at the top. */
  level: (x: number, y: number) => number;
}

async function figureOf(args: string[]): Promise<Picture> {
  const run = await runPiped(['quicklook', ...args, '--out', '-'], 'cat');
  expect(run.stderr).toBe('');
  expect(run.statuses).toEqual([0, 0]);
  const png = decode(run.output);
  return {
    width: png.width,
    height: png.height,
    level: (x, y) => {
      const at = (y * png.width + x) * png.channels;
      return Math.max(png.data[at]!, png.data[at + 1]!, png.data[at + 2]!);
    },
  };
}

/** Pixels that are not the black ground, outside the box from (left, top), `size` square. */
function litOutside(figure: Picture, left: number, top: number, size: number): number {
  let lit = 0;
  for (let y = 0; y < figure.height; y += 1) {
    for (let x = 0; x < figure.width; x += 1) {
      const inside = x >= left && x < left + size && y >= top && y < top + size;
      if (!inside && figure.level(x, y) > 0) lit += 1;
    }
  }
  return lit;
}

describe('the built mlso-dl quicklook: a figure fit for a talk', () => {
  it('--overlay limb,radii=3,north on a 256-pixel KCor image: not one overlay pixel outside the picture', async () => {
    const input = await fitsFileOf(emulatorFitsBytes(256), EMULATOR_FILE);
    const figure = await figureOf([input, '--overlay', 'limb,radii=3,north']);
    // Text 12 px, margins 10 px: the picture is at (10, 10), and the ground around it is black but for what overlays cross it.
    expect([figure.width, figure.height]).toEqual([276, 276]);
    expect(litOutside(figure, 10, 10, 256)).toBe(0);
  });

  it('--title on a 256-pixel figure: the whole title, wrapped within the picture, none of it cut at the edge', async () => {
    const input = await fitsFileOf(emulatorFitsBytes(256), EMULATOR_FILE);
    const figure = await figureOf([input, '--title']);
    const titleRows = figure.height - 276;
    // "COSMO K-Coronagraph pb · 2025-03-24 21:03:04 UT" is 330 pixels wide at 12 px: two lines, 15 pixels apart.
    expect(titleRows).toBe(24 + 15);
    const lit: number[] = [];
    for (let y = 0; y < 10 + titleRows; y += 1) for (let x = 0; x < figure.width; x += 1) if (figure.level(x, y) > 64) lit.push(x);
    expect(lit.length).toBeGreaterThan(300);
    // Within the picture's columns (10 to 265), so nothing runs into the margin or off the figure.
    expect(lit.reduce((least, x) => Math.min(least, x))).toBeGreaterThanOrEqual(10);
    expect(lit.reduce((most, x) => Math.max(most, x))).toBeLessThan(266);
  });
});

interface FixtureCase {
  name: string;
  header: Record<string, FitsValue>;
  coordinates: { coordinate: 'x' | 'y'; ticks: { edge: 'bottom' | 'top' | 'left' | 'right'; value: number; at: number }[] }[];
}
const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'figure-axes', 'astropy-ticks.json'), 'utf8')) as {
  cases: FixtureCase[];
};

/** An 8-bit image of zeros (a black picture, so only the frame and ticks are lit around it) with the case's header. */
function blackImageOf(header: Record<string, FitsValue>): Uint8Array {
  const width = header['NAXIS1'] as number;
  const height = header['NAXIS2'] as number;
  const extraCards: CardSpec[] = Object.entries(header)
    .filter(([key]) => !key.startsWith('NAXIS'))
    .map(([key, value]): CardSpec => [key, value as string | number]);
  return imageHdu({ bitpix: 8, axes: [width, height], stored: new Array<number>(width * height).fill(0), extraCards });
}

/** Centres (intensity-weighted) of the lit runs along a row or a column of the figure. */
function tickCentres(levels: number[]): number[] {
  const centres: number[] = [];
  let sum = 0;
  let weighted = 0;
  levels.forEach((level, at) => {
    if (level > 0) {
      sum += level;
      weighted += level * at;
    }
    if ((level === 0 || at === levels.length - 1) && sum > 0) {
      centres.push(weighted / sum);
      sum = 0;
      weighted = 0;
    }
  });
  return centres;
}

describe('the built mlso-dl quicklook --axes, against astropy', () => {
  for (const [name, size] of [
    ['kcor-256', undefined],
    ['kcor-1024', 512],
    ['rotated-crota2', undefined],
    ['ucomp-pc', 640],
  ] as const) {
    it(`${name}${size ? ` at --size ${size}` : ''}: a tick on each edge where astropy puts each value, within half a pixel`, async () => {
      const each = fixture.cases.find((one) => one.name === name)!;
      const input = await fitsFileOf(blackImageOf(each.header));
      const figure = await figureOf([input, '--axes', ...(size ? ['--size', String(size)] : [])]);
      const width = each.header['NAXIS1'] as number;
      const height = each.header['NAXIS2'] as number;
      const scale = size ? size / Math.max(width, height) : 1;
      const [shownWidth, shownHeight] = [Math.round(width * scale), Math.round(height * scale)];
      // The frame: a white line around the picture, one pixel outside it; its top-left corner is the first lit pixel
      // of the first row lit along most of the picture's width.
      let top = 0;
      while (top < figure.height && Array.from({ length: figure.width }, (_, x) => figure.level(x, top)).filter((level) => level === 255).length < shownWidth)
        top += 1;
      let left = 0;
      while (figure.level(left, top) !== 255) left += 1;
      const box = { left: left + 1, top: top + 1, right: left + 1 + shownWidth, bottom: top + 1 + shownHeight };
      expect(Array.from({ length: shownHeight }, (_, y) => figure.level(box.left - 1, box.top + y)).every((level) => level === 255)).toBe(true);
      // Two pixels out from the frame, only ticks are lit.
      const lines = {
        bottom: Array.from({ length: figure.width }, (_, x) => figure.level(x, box.bottom + 2)),
        top: Array.from({ length: figure.width }, (_, x) => figure.level(x, box.top - 3)),
        left: Array.from({ length: figure.height }, (_, y) => figure.level(box.left - 3, y)),
        right: Array.from({ length: figure.height }, (_, y) => figure.level(box.right + 2, y)),
      };
      for (const edge of ['bottom', 'top', 'left', 'right'] as const) {
        const wanted = each.coordinates
          .flatMap(({ ticks }) => ticks)
          .filter((tick) => tick.edge === edge)
          // A pixel's centre is at its index + 0.5: FITS x is left + (x - 0.5) * scale, FITS y counts up from the bottom.
          .map((tick) => (edge === 'bottom' || edge === 'top' ? box.left + (tick.at - 0.5) * scale : box.top + (height - tick.at + 0.5) * scale) - 0.5)
          .sort((a, b) => a - b)
          // Ticks of x and of y closer than 3 pixels draw one lit run (ucomp-pc's top edge): its centre is between them.
          .reduce<number[][]>((runs, at) => {
            const last = runs.at(-1);
            if (last && at - last.at(-1)! < 3) last.push(at);
            else runs.push([at]);
            return runs;
          }, [])
          .map((run) => run.reduce((sum, at) => sum + at, 0) / run.length);
        const found = tickCentres(lines[edge]);
        expect(found.length, `${edge}: ticks at ${found.map((at) => at.toFixed(1)).join(', ')} for ${wanted.map((at) => at.toFixed(1)).join(', ')}`).toBe(
          wanted.length,
        );
        found.forEach((at, i) => expect(Math.abs(at - wanted[i]!), `${edge} tick ${i}: ${at} for astropy's ${wanted[i]}`).toBeLessThan(0.5));
      }
    });
  }
});
