// `quicklook --colormap/--overlay/--title/--colorbar/--axes`: the quick look as a figure (figure.ts), drawn with
// @napi-rs/canvas and the bundled DejaVu Sans (assets/fonts: the same text on every machine, fonts or none). The
// picture is made as the plain quick look makes it (streamed-quicklook.ts: the exact clip from every pixel) and
// held whole, as a figure must be: about 4 bytes per pixel of the picture (use --size for a very large image).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COLORMAPS, isColormap, paletteOf, type ColormapName } from '../../../src-science/fits/colormaps';
import type { FitsFile } from '../../../src-science/fits/fits-file';
import type { ImageReader } from '../../../src-science/fits/image-reader';
import { keywordsOf } from '../../../src-science/fits/pixel-reading';
import { streamedQuicklook, type QuicklookChoice, type QuicklookPicture } from '../../../src-science/fits/streamed-quicklook';
import { sunOverlay } from '../../../src-science/fits/sun-overlay';
import { drawFigureFrame, figureLayout, figureTitle, type FigureSpec } from '../../../src-science/figures/figure';
import { figureAxes } from '../../../src-science/figures/figure-axes';
import { UsageError } from '../exit-codes';

export interface FigureOptions {
  colormap?: string;
  overlay?: string;
  /** `--title` alone: the header's instrument, product and DATE-OBS; `--title TEXT`: that text. */
  title?: string | boolean;
  colorbar?: boolean;
  /** Helioprojective x and y in arcsec along the picture's edges, ticked as sunpy's plots tick them. */
  axes?: boolean;
}

interface OverlayChoice {
  limb: boolean;
  north: boolean;
  radii: number[];
}

/** Whether any figure option was given (else the quick look is the plain streamed grey PNG). */
export function wantsFigure(options: FigureOptions): boolean {
  return options.colormap !== undefined || options.overlay !== undefined || options.title !== undefined || options.colorbar === true || options.axes === true;
}

export function parseColormap(value: string | undefined): ColormapName {
  if (value === undefined) return 'grey';
  if (isColormap(value)) return value;
  throw new UsageError(`--colormap "${value}" is not one this knows: ${COLORMAPS.join(', ')}.`);
}

/** `limb,radii=1.5:2:3,north`, in any order; each part once. */
export function parseOverlay(value: string | undefined): OverlayChoice | undefined {
  if (value === undefined) return undefined;
  const choice: OverlayChoice = { limb: false, north: false, radii: [] };
  for (const part of value.split(',').map((each) => each.trim())) {
    if (part === 'limb') choice.limb = true;
    else if (part === 'north') choice.north = true;
    else if (part.startsWith('radii=')) {
      const radii = part.slice('radii='.length).split(':').map(Number);
      if (radii.length === 0 || radii.some((radius) => !Number.isFinite(radius) || radius <= 0 || radius > 30)) {
        throw new UsageError(
          `--overlay radii "${part.slice(6)}" must be distances in solar radii above 0 and up to 30, separated by colons, such as radii=1.5:2:3.`,
        );
      }
      choice.radii = [...new Set(radii)].sort((a, b) => a - b);
    } else {
      throw new UsageError(`--overlay "${part}" is not an overlay: give limb, north and radii=R1:R2:..., separated by commas.`);
    }
  }
  return choice;
}

export interface Figure {
  png: Uint8Array;
  picture: QuicklookPicture;
  width: number;
  height: number;
  /** Why the overlay asked for could not be drawn (no world coordinates or solar radius), if so. */
  noOverlay?: string;
  /** Why the axes asked for could not be drawn (no world coordinates), if so. */
  noAxes?: string;
}

/** The figure of `image` (HDU `image.hdu` of `file`), as a PNG. */
export async function quicklookFigure(file: FitsFile, image: ImageReader, choice: QuicklookChoice, options: FigureOptions): Promise<Figure> {
  const colormap = parseColormap(options.colormap);
  const overlayChoice = parseOverlay(options.overlay);
  const picture = streamedQuicklook(image, choice);
  const keywords = keywordsOf(file, image.hdu);
  const unit = keywords.get('BUNIT');
  const spec: FigureSpec = { picture: { width: picture.width, height: picture.height }, image: { width: image.width, height: image.height } };
  if (options.title !== undefined) spec.title = typeof options.title === 'string' ? options.title : figureTitle(keywords);
  if (options.colorbar && picture.clip) {
    spec.colorBar = { colormap, clip: picture.clip, stretch: choice.stretch, unit: typeof unit === 'string' && unit.trim() !== '' ? unit.trim() : null };
  }
  let noOverlay: string | undefined;
  if (overlayChoice) {
    const lines = sunOverlay(keywords, [...(overlayChoice.limb ? [1] : []), ...overlayChoice.radii]);
    if ('reason' in lines) noOverlay = `HDU ${image.hdu} has no overlay: ${lines.reason}.`;
    else spec.overlay = { lines, north: overlayChoice.north };
  }
  let noAxes: string | undefined;
  if (options.axes) {
    const axes = figureAxes(keywords, image);
    if ('reason' in axes) noAxes = `HDU ${image.hdu} has no axes: ${axes.reason}.`;
    else spec.axes = axes;
  }
  const createCanvas = await canvasWithFont();
  const layout = figureLayout(spec, createCanvas(1, 1).getContext('2d'));
  const canvas = createCanvas(layout.width, layout.height);
  const ctx = canvas.getContext('2d');
  drawFigureFrame(ctx, spec, layout, () => {
    const pixels = ctx.createImageData(picture.width, picture.height);
    const words = new Uint32Array(pixels.data.buffer, pixels.data.byteOffset, picture.width * picture.height);
    const palette = paletteOf(colormap);
    for (let i = 0; i < picture.grey.length; i += 1) words[i] = palette[picture.grey[i]!]!;
    ctx.putImageData(pixels, layout.pictureAt.x, layout.pictureAt.y);
  });
  const png = await canvas.encode('png');
  return { png, picture, width: layout.width, height: layout.height, ...(noOverlay ? { noOverlay } : {}), ...(noAxes ? { noAxes } : {}) };
}

/** @napi-rs/canvas's createCanvas, loaded when first drawn with, the bundled DejaVu Sans registered once. */
export async function canvasWithFont(): Promise<(typeof import('@napi-rs/canvas'))['createCanvas']> {
  const { createCanvas, GlobalFonts } = await import('@napi-rs/canvas');
  if (!GlobalFonts.has('DejaVu Sans')) GlobalFonts.registerFromPath(bundledFont(), 'DejaVu Sans');
  return createCanvas;
}

/** DejaVu Sans, beside the built command line (dist/fonts) or in the source tree (assets/fonts). */
function bundledFont(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '..', 'fonts', 'DejaVuSans.ttf'), path.resolve(here, '..', '..', '..', 'assets', 'fonts', 'DejaVuSans.ttf')];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`the figure font is missing (looked in ${candidates.join(' and ')}); reinstall MLSO Downloader`);
  return found;
}
