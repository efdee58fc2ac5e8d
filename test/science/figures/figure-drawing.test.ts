// How a figure's overlays and title are drawn (figure.ts), on @napi-rs/canvas with the bundled font as the command
// line draws them: the north line and its N, the limb and the circles show on every colour of every colour map;
// circles other than the limb carry their radius; a title wider than the picture is wrapped, never cut.
import path from 'node:path';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { COLORMAPS, paletteOf } from '../../../src-science/fits/colormaps';
import { drawFigureFrame, figureLayout, type FigureSpec } from '../../../src-science/figures/figure';
import type { SunOverlay } from '../../../src-science/fits/sun-overlay';

beforeAll(() => {
  if (!GlobalFonts.has('DejaVu Sans')) GlobalFonts.registerFromPath(path.join(import.meta.dirname, '../../../assets/fonts/DejaVuSans.ttf'), 'DejaVu Sans');
});

/** WCAG's relative luminance of an sRGB colour, and the contrast ratio of two. */
function luminance([r, g, b]: readonly number[]): number {
  const linear = (c: number): number => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
}
function contrast(a: readonly number[], b: readonly number[]): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

const SIDE = 64;
/** A made-up overlay on a 64-pixel image: the limb (r 10) and a circle (r 20) around the centre, north straight up. */
const OVERLAY: SunOverlay = {
  centre: { x: 32.5, y: 32.5 },
  sunRadiusArcsec: 960,
  circles: [1, 2].map((solarRadii) => ({
    solarRadii,
    points: Array.from({ length: 144 }, (_, i) => ({
      x: 32.5 + 10 * solarRadii * Math.sin((2 * Math.PI * i) / 144),
      y: 32.5 + 10 * solarRadii * Math.cos((2 * Math.PI * i) / 144),
    })),
  })),
  north: { from: { x: 32.5, y: 32.5 }, to: { x: 32.5, y: 54 } },
};

/** Draws the figure with its picture all one colour; returns the figure's RGB at any point and where the picture is. */
function drawnOn(
  colour: readonly number[],
  spec: Omit<FigureSpec, 'picture' | 'image'>,
  context = createCanvas(1, 1).getContext('2d'),
): (x: number, y: number) => number[] {
  const full: FigureSpec = { picture: { width: SIDE, height: SIDE }, image: { width: SIDE, height: SIDE }, ...spec };
  const layout = figureLayout(full, context);
  const canvas = context.canvas;
  canvas.width = layout.width;
  canvas.height = layout.height;
  drawFigureFrame(context, full, layout, () => {
    context.fillStyle = `rgb(${colour.join(',')})`;
    context.fillRect(layout.pictureAt.x, layout.pictureAt.y, SIDE, SIDE);
  });
  const data = context.getImageData(0, 0, layout.width, layout.height).data;
  return (x, y) => {
    const at = (Math.round(layout.pictureAt.y + y) * layout.width + Math.round(layout.pictureAt.x + x)) * 4;
    return [data[at]!, data[at + 1]!, data[at + 2]!];
  };
}

/** The best contrast against `ground` among the picture's pixels in a box (picture pixels, y down). */
function bestContrast(at: (x: number, y: number) => number[], ground: readonly number[], box: { x: [number, number]; y: [number, number] }): number {
  let best = 1;
  for (let y = box.y[0]; y <= box.y[1]; y += 1) for (let x = box.x[0]; x <= box.x[1]; x += 1) best = Math.max(best, contrast(at(x, y), ground));
  return best;
}

describe('overlays on every colour map', () => {
  it('the north line and its N, the limb and a circle keep a 3:1 contrast on each of the 256 colours of every map', () => {
    const context = createCanvas(1, 1).getContext('2d');
    const faint: string[] = [];
    for (const map of COLORMAPS) {
      const bytes = new Uint8Array(paletteOf(map).buffer);
      for (let level = 0; level < 256; level += 1) {
        const ground = [bytes[level * 4]!, bytes[level * 4 + 1]!, bytes[level * 4 + 2]!];
        const at = drawnOn(ground, { overlay: { lines: OVERLAY, north: true } }, context);
        // Picture rows run down: north's line from row 32 up to row 10, its N above; the limb crosses row 32 at
        // column 22, the circle at column 12 (their west sides, away from the circle's label).
        const parts = {
          'north line': bestContrast(at, ground, { x: [30, 34], y: [16, 28] }),
          N: bestContrast(at, ground, { x: [26, 38], y: [0, 8] }),
          limb: bestContrast(at, ground, { x: [20, 24], y: [31, 33] }),
          circle: bestContrast(at, ground, { x: [10, 14], y: [24, 40] }),
        };
        for (const [part, ratio] of Object.entries(parts)) if (ratio < 3) faint.push(`${part} on ${map} level ${level}: ${ratio.toFixed(2)}:1`);
      }
    }
    expect(faint.slice(0, 12), `${faint.length} parts on a colour too faint to see them`).toEqual([]);
  });
});

/** A 2D context that records the text it is asked to fill. */
function recording(context: SKRSContext2D): { context: SKRSContext2D; texts: { text: string; x: number; y: number }[] } {
  const texts: { text: string; x: number; y: number }[] = [];
  const proxy = new Proxy(context, {
    get(target, key) {
      if (key === 'fillText') return (text: string, x: number, y: number) => (texts.push({ text, x, y }), target.fillText(text, x, y));
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, key, value) {
      return Reflect.set(target, key, value);
    },
  });
  return { context: proxy, texts };
}

describe('circle labels', () => {
  it('each circle but the limb carries its radius in solar radii, inside the picture', () => {
    const spec: FigureSpec = { picture: { width: 256, height: 256 }, image: { width: SIDE, height: SIDE }, overlay: { lines: OVERLAY, north: false } };
    const { context, texts } = recording(createCanvas(1, 1).getContext('2d'));
    const layout = figureLayout(spec, context);
    drawFigureFrame(context, spec, layout, () => undefined);
    const labels = texts.filter(({ text }) => text.includes('R☉'));
    expect(labels.map(({ text }) => text)).toEqual(['2 R☉']);
    const { x, y } = labels[0]!;
    expect(x).toBeGreaterThan(layout.pictureAt.x);
    expect(x).toBeLessThan(layout.pictureAt.x + 256);
    expect(y).toBeGreaterThan(layout.pictureAt.y);
    expect(y).toBeLessThan(layout.pictureAt.y + 256);
    // On the circle (radius 20 image pixels, 80 figure pixels, from the centre) towards the lower right.
    const [dx, dy] = [x - (layout.pictureAt.x + 128), y - (layout.pictureAt.y + 128)];
    expect(Math.hypot(dx, dy)).toBeCloseTo(80, -0.5);
    expect(dx).toBeGreaterThan(0);
    expect(dy).toBeGreaterThan(0);
  });
});

describe('the title', () => {
  it('a title wider than a 256-pixel picture is drawn whole, in lines each within the picture', () => {
    const title = 'COSMO K-Coronagraph pb · 2025-03-24 17:45:31 UT';
    const spec: FigureSpec = { picture: { width: 256, height: 256 }, image: { width: 256, height: 256 }, title };
    const { context, texts } = recording(createCanvas(1, 1).getContext('2d'));
    const layout = figureLayout(spec, context);
    drawFigureFrame(context, spec, layout, () => undefined);
    expect(texts.map(({ text }) => text)).toEqual(['COSMO K-Coronagraph pb', '2025-03-24 17:45:31 UT']);
    for (const { text, x } of texts) {
      context.font = '12px "DejaVu Sans"';
      expect(x).toBe(layout.pictureAt.x);
      expect(x + context.measureText(text).width).toBeLessThanOrEqual(layout.pictureAt.x + 256);
    }
  });

  it('a word wider than the picture alone makes the title smaller, never cut', () => {
    const spec: FigureSpec = { picture: { width: 40, height: 40 }, image: { width: 40, height: 40 }, title: 'COSMO K-Coronagraph' };
    const layout = figureLayout(spec, createCanvas(1, 1).getContext('2d'));
    const context = createCanvas(1, 1).getContext('2d');
    context.font = `${layout.title!.size}px "DejaVu Sans"`;
    expect(layout.title!.size).toBeLessThan(12);
    for (const line of layout.title!.lines) expect(context.measureText(line).width).toBeLessThanOrEqual(40);
  });
});
