// A figure of an image for a slide or a paper: the picture at its own resolution (or a chosen size), with an
// optional title above (instrument, product, DATE-OBS UT), the overlays (limb, circles, north) drawn through the
// image's WCS, and a colour bar below with the clip values and unit. Drawn through the Canvas 2D calls below, which
// the browser's canvas (the app's "Save image") and @napi-rs/canvas (`mlso-dl quicklook`) both provide, so the app
// and the command line make the same figure.
import { cssColour, type ColormapName } from '../fits/colormaps';
import type { ClipRange } from '../fits/image-stretch';
import type { OverlayPoint, SunOverlay } from '../fits/sun-overlay';

/** The part of CanvasRenderingContext2D a figure is drawn with. */
export interface FigureContext {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  font: string;
  textAlign: string;
  textBaseline: string;
  fillRect(x: number, y: number, width: number, height: number): void;
  fillText(text: string, x: number, y: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  stroke(): void;
  setLineDash(segments: number[]): void;
}

export interface FigureSpec {
  /** The picture as drawn: RGBA, top row first. */
  picture: { width: number; height: number };
  /** The image's own size in pixels (the overlay's coordinates), when the picture was shrunk from it. */
  image: { width: number; height: number };
  title?: string;
  colorBar?: { colormap: ColormapName; clip: ClipRange; stretch: string; unit: string | null };
  overlay?: { lines: SunOverlay; north: boolean };
}

export interface FigureLayout {
  width: number;
  height: number;
  /** Where the picture goes (its top-left corner). */
  pictureAt: { x: number; y: number };
  /** Text size in pixels, from the picture's size: legible on a slide whatever the image's resolution. */
  textSize: number;
}

/** The figure's size and where its parts go. */
export function figureLayout(spec: FigureSpec): FigureLayout {
  const textSize = Math.max(12, Math.round(Math.max(spec.picture.width, spec.picture.height) / 45));
  const margin = Math.round(textSize * 0.8);
  const titleBand = spec.title ? Math.round(textSize * 2) : 0;
  const barBand = spec.colorBar ? Math.round(textSize * 3.2) : 0;
  return {
    width: spec.picture.width + 2 * margin,
    height: spec.picture.height + 2 * margin + titleBand + barBand,
    pictureAt: { x: margin, y: margin + titleBand },
    textSize,
  };
}

/**
 * Draws everything but the picture's pixels (which the caller puts at layout.pictureAt with its canvas's own
 * putImageData or drawImage): the ground, the title, the overlays over the picture and the colour bar.
 */
export function drawFigureFrame(ctx: FigureContext, spec: FigureSpec, layout: FigureLayout, drawPicture: () => void): void {
  const { textSize, pictureAt } = layout;
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, layout.width, layout.height);
  drawPicture();
  ctx.fillStyle = '#fff';
  ctx.textBaseline = 'middle';
  ctx.font = `${textSize}px "DejaVu Sans", sans-serif`;
  if (spec.title) {
    ctx.textAlign = 'left';
    ctx.fillText(spec.title, pictureAt.x, pictureAt.y - textSize);
  }
  if (spec.overlay) drawOverlay(ctx, spec, layout, spec.overlay);
  if (spec.colorBar)
    drawColourBar(ctx, spec.colorBar, { x: pictureAt.x, y: pictureAt.y + spec.picture.height + textSize * 0.8, width: spec.picture.width, textSize });
}

function drawOverlay(ctx: FigureContext, spec: FigureSpec, layout: FigureLayout, overlay: NonNullable<FigureSpec['overlay']>): void {
  const scale = spec.picture.width / spec.image.width;
  const at = (point: OverlayPoint) => ({
    x: layout.pictureAt.x + (point.x - 0.5) * scale,
    y: layout.pictureAt.y + (spec.image.height - point.y + 0.5) * scale,
  });
  const line = Math.max(1, layout.textSize / 8);
  ctx.lineWidth = line;
  for (const circle of overlay.lines.circles) {
    if (circle.points.length < 2) continue;
    const limb = circle.solarRadii === 1;
    ctx.strokeStyle = limb ? '#ffd23f' : '#7fd4ff';
    ctx.setLineDash(limb ? [] : [4 * line, 3 * line]);
    ctx.beginPath();
    const first = at(circle.points[0]!);
    ctx.moveTo(first.x, first.y);
    for (const point of circle.points.slice(1)) {
      const each = at(point);
      ctx.lineTo(each.x, each.y);
    }
    ctx.closePath();
    ctx.stroke();
  }
  ctx.setLineDash([]);
  if (overlay.north) {
    const from = at(overlay.lines.north.from);
    const to = at(overlay.lines.north.to);
    ctx.strokeStyle = '#ff7a59';
    ctx.lineWidth = line * 1.5;
    ctx.beginPath();
    ctx.moveTo(from.x, from.y);
    ctx.lineTo(to.x, to.y);
    ctx.stroke();
    ctx.fillStyle = '#ff7a59';
    ctx.textAlign = 'center';
    ctx.fillText('N', to.x, to.y - layout.textSize * 0.7);
  }
}

function drawColourBar(ctx: FigureContext, bar: NonNullable<FigureSpec['colorBar']>, box: { x: number; y: number; width: number; textSize: number }): void {
  const height = Math.round(box.textSize * 0.9);
  // One rectangle per grey level: the same 256 colours the picture's pixels take.
  for (let level = 0; level < 256; level += 1) {
    ctx.fillStyle = cssColour(bar.colormap, level);
    const from = box.x + (box.width * level) / 256;
    ctx.fillRect(Math.floor(from), box.y, Math.ceil(box.width / 256) + 1, height);
  }
  ctx.fillStyle = '#fff';
  const labelsAt = box.y + height + box.textSize * 0.9;
  ctx.textAlign = 'left';
  ctx.fillText(displayedValue(bar.clip.low), box.x, labelsAt);
  ctx.textAlign = 'right';
  ctx.fillText(displayedValue(bar.clip.high), box.x + box.width, labelsAt);
  ctx.textAlign = 'center';
  ctx.fillText(`${bar.stretch} stretch${bar.unit ? `, ${bar.unit}` : ''}`, box.x + box.width / 2, labelsAt);
}

/** A physical value in four significant figures, in exponent form when very small or large (1.103e-6). */
export function displayedValue(value: number): string {
  if (value === 0 || !Number.isFinite(value)) return String(value);
  const size = Math.abs(value);
  return size < 1e-3 || size >= 1e5 ? value.toExponential(3).replace(/\.?0+e/, 'e') : String(Number(value.toPrecision(4)));
}

/** "COSMO K-Coronagraph pb · 2025-03-24 21:03:04 UT": the title a figure gets from its header. */
export function figureTitle(keywords: ReadonlyMap<string, unknown>): string {
  const text = (key: string): string => {
    const value = keywords.get(key);
    return typeof value === 'string' ? value.trim() : '';
  };
  const what = [text('INSTRUME') || text('TELESCOP'), text('PRODUCT'), text('EXTNAME')].filter((part) => part !== '').join(' ');
  const when = text('DATE-OBS');
  const time = when ? `${when.replace('T', ' ').replace(/Z$/, '').slice(0, 19)} UT` : '';
  return [what, time].filter((part) => part !== '').join(' · ') || 'Image';
}
