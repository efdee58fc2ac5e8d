// A figure of an image for a slide or a paper: the picture at its own resolution (or a chosen size), with an
// optional title above (instrument, product, DATE-OBS UT; wrapped to the picture's width), axes in arcsec with
// ticks (figure-axes.ts), the overlays (limb, labelled circles, north) drawn through the image's WCS and kept
// within the picture, and a colour bar below with the clip values and unit. Drawn through the Canvas 2D calls
// below, which the browser's canvas (the app's "Save image") and @napi-rs/canvas (`mlso-dl quicklook`) both
// provide, so the app and the command line make the same figure.
import { cssColour, type ColormapName } from '../fits/colormaps';
import type { ClipRange } from '../fits/image-stretch';
import type { OverlayPoint, SunOverlay } from '../fits/sun-overlay';
import { circleLabels, type LabelBox } from './circle-labels';
import type { AxisTick, FigureAxes } from './figure-axes';
import { OVERLAY_COLOURS } from './overlay-style';

/** The part of CanvasRenderingContext2D a figure is drawn with. */
export interface FigureContext extends TextMeasure {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  lineJoin: string;
  textAlign: string;
  textBaseline: string;
  fillRect(x: number, y: number, width: number, height: number): void;
  strokeRect(x: number, y: number, width: number, height: number): void;
  fillText(text: string, x: number, y: number): void;
  strokeText(text: string, x: number, y: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  stroke(): void;
  setLineDash(segments: number[]): void;
  rect(x: number, y: number, width: number, height: number): void;
  clip(): void;
  save(): void;
  restore(): void;
  translate(x: number, y: number): void;
  rotate(angle: number): void;
}

/** What a figure's layout measures its text with (a canvas's context). */
export interface TextMeasure {
  font: string;
  measureText(text: string): { width: number };
}

export interface FigureSpec {
  /** The picture as drawn: RGBA, top row first. */
  picture: { width: number; height: number };
  /** The image's own size in pixels (the overlay's coordinates), when the picture was shrunk from it. */
  image: { width: number; height: number };
  title?: string;
  colorBar?: { colormap: ColormapName; clip: ClipRange; stretch: string; unit: string | null };
  overlay?: { lines: SunOverlay; north: boolean };
  axes?: FigureAxes;
}

export interface FigureLayout {
  width: number;
  height: number;
  /** Where the picture goes (its top-left corner). */
  pictureAt: { x: number; y: number };
  /** Text size in pixels, from the picture's size: legible on a slide whatever the image's resolution. */
  textSize: number;
  /** The title's lines, each within the picture's width, in a size that lets each fit. */
  title?: { lines: string[]; size: number; lineHeight: number };
  axes?: AxesLayout;
  /** Where the colour bar's top is. */
  colourBarAt: number;
}

interface AxesLayout {
  tick: number;
  gap: number;
  /** The axis titles that fit beside the picture. */
  xTitle: string;
  yTitle: string;
  /** The widest of the y labels, which stand right-aligned left of the picture. */
  yLabelWidth: number;
}

/** The font every text of a figure is drawn in (the bundled DejaVu Sans on the command line). */
function figureFont(size: number): string {
  return `${size}px "DejaVu Sans", sans-serif`;
}

/** The figure's size and where its parts go, the text measured with `measure` (a canvas's context). */
export function figureLayout(spec: FigureSpec, measure: TextMeasure): FigureLayout {
  const textSize = Math.max(12, Math.round(Math.max(spec.picture.width, spec.picture.height) / 45));
  const margin = Math.round(textSize * 0.8);
  measure.font = figureFont(textSize);
  const widthOf = (text: string): number => measure.measureText(text).width;
  const title = spec.title ? titleLayout(spec.title, spec.picture.width, textSize, widthOf) : undefined;
  const titleBand = title ? Math.round(textSize * 2) + (title.lines.length - 1) * title.lineHeight : 0;
  const barBand = spec.colorBar ? Math.round(textSize * 3.2) : 0;
  let left = 0;
  let right = 0;
  let top = 0;
  let bottom = 0;
  let axes: AxesLayout | undefined;
  if (spec.axes) {
    const tick = Math.max(3, Math.round(textSize * 0.35));
    const gap = Math.max(2, Math.round(textSize * 0.3));
    const labels = (edge: AxisTick['edge']): string[] => spec.axes!.ticks.flatMap((each) => (each.edge === edge && each.label ? [each.label] : []));
    const yLabelWidth = Math.ceil(widest(labels('left'), widthOf));
    const halfXLabel = Math.ceil(widest(labels('bottom'), widthOf) / 2);
    const fitting = (titles: string[], room: number): string => titles.find((each) => widthOf(each) <= room) ?? titles.at(-1)!;
    axes = { tick, gap, yLabelWidth, xTitle: fitting(spec.axes.titles.x, spec.picture.width), yTitle: fitting(spec.axes.titles.y, spec.picture.height) };
    left = Math.max(tick + gap + yLabelWidth + gap + Math.round(textSize * 1.2), halfXLabel);
    right = Math.max(tick, halfXLabel);
    top = tick;
    bottom = tick + gap + Math.round(textSize * 1.2) + gap + Math.round(textSize * 1.2);
  }
  const pictureAt = { x: margin + left, y: margin + titleBand + top };
  const colourBarAt = pictureAt.y + spec.picture.height + bottom + textSize * 0.8;
  return {
    width: pictureAt.x + spec.picture.width + right + margin,
    height: pictureAt.y + spec.picture.height + bottom + barBand + margin,
    pictureAt,
    textSize,
    ...(title ? { title } : {}),
    ...(axes ? { axes } : {}),
    colourBarAt,
  };
}

/**
 * The title in lines that fit `room`: broken at its " · " first, then between words; a word wider than the room
 * alone makes the whole title smaller, never cut.
 */
function titleLayout(title: string, room: number, textSize: number, widthOf: (text: string) => number): NonNullable<FigureLayout['title']> {
  const lines: string[] = [];
  for (const part of title.split(' · ')) {
    const last = lines.at(-1);
    if (last !== undefined && widthOf(`${last} · ${part}`) <= room) lines[lines.length - 1] = `${last} · ${part}`;
    else for (const line of wrapWords(part, room, widthOf)) lines.push(line);
  }
  const most = widest(lines, widthOf);
  const size = most > room ? Math.max(1, Math.floor((textSize * room) / most)) : textSize;
  return { lines, size, lineHeight: Math.round(size * 1.25) };
}

function widest(texts: readonly string[], widthOf: (text: string) => number): number {
  return texts.reduce((most, text) => Math.max(most, widthOf(text)), 0);
}

function wrapWords(text: string, room: number, widthOf: (text: string) => number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && widthOf(`${last} ${word}`) <= room) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * Draws everything but the picture's pixels (which the caller puts at layout.pictureAt with its canvas's own
 * putImageData or drawImage): the ground, the title, the axes, the overlays over the picture and the colour bar.
 */
export function drawFigureFrame(ctx: FigureContext, spec: FigureSpec, layout: FigureLayout, drawPicture: () => void): void {
  const { textSize, pictureAt } = layout;
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, layout.width, layout.height);
  drawPicture();
  ctx.lineJoin = 'round';
  if (layout.title) {
    ctx.fillStyle = '#fff';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.font = figureFont(layout.title.size);
    const top = pictureAt.y - (layout.axes?.tick ?? 0) - Math.round(textSize * 2) - (layout.title.lines.length - 1) * layout.title.lineHeight;
    layout.title.lines.forEach((line, i) => ctx.fillText(line, pictureAt.x, top + textSize + i * layout.title!.lineHeight));
  }
  ctx.font = figureFont(textSize);
  if (spec.axes && layout.axes) drawAxes(ctx, spec, layout, spec.axes, layout.axes);
  if (spec.overlay) drawOverlay(ctx, spec, layout, spec.overlay);
  if (spec.colorBar) drawColourBar(ctx, spec.colorBar, { x: pictureAt.x, y: layout.colourBarAt, width: spec.picture.width, textSize });
}

/** Where a picture's parts are on the figure: an image point (FITS counts) and the picture's extent. */
function pictureGeometry(spec: FigureSpec, layout: FigureLayout): { at: (point: OverlayPoint) => { x: number; y: number }; box: LabelBox; scale: number } {
  const scale = spec.picture.width / spec.image.width;
  const { x, y } = layout.pictureAt;
  return {
    at: (point) => ({ x: x + (point.x - 0.5) * scale, y: y + (spec.image.height - point.y + 0.5) * scale }),
    box: { left: x, top: y, right: x + spec.picture.width, bottom: y + spec.picture.height },
    scale,
  };
}

function drawOverlay(ctx: FigureContext, spec: FigureSpec, layout: FigureLayout, overlay: NonNullable<FigureSpec['overlay']>): void {
  const { at, box } = pictureGeometry(spec, layout);
  // At least 2 pixels: a thinner line covers no pixel whole, and its colour is lost in blending with the outline.
  const line = Math.max(2, layout.textSize / 8);
  const outline = Math.max(1.5, line * 0.75);
  // Lines and labels stay within the picture: a circle wider than the image ends at its edge, not over the title.
  ctx.save();
  ctx.beginPath();
  ctx.rect(box.left, box.top, box.right - box.left, box.bottom - box.top);
  ctx.clip();
  for (const circle of overlay.lines.circles) {
    if (circle.points.length < 2) continue;
    const limb = circle.solarRadii === 1;
    const path = (): void => {
      ctx.beginPath();
      const first = at(circle.points[0]!);
      ctx.moveTo(first.x, first.y);
      for (const point of circle.points.slice(1)) {
        const each = at(point);
        ctx.lineTo(each.x, each.y);
      }
      ctx.closePath();
    };
    ctx.setLineDash(limb ? [] : [4 * line, 3 * line]);
    outlined(ctx, limb ? OVERLAY_COLOURS.limb : OVERLAY_COLOURS.circle, line, outline, path);
  }
  ctx.setLineDash([]);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const size = (text: string): { width: number; height: number } => ({
    width: ctx.measureText(text).width + 2 * outline,
    height: layout.textSize + 2 * outline,
  });
  for (const label of circleLabels(overlay.lines.circles, at, box, size)) outlinedText(ctx, label.text, label.x, label.y, OVERLAY_COLOURS.circle, outline);
  if (overlay.north) {
    const from = at(overlay.lines.north.from);
    const to = at(overlay.lines.north.to);
    outlined(ctx, OVERLAY_COLOURS.north, line * 1.5, outline, () => {
      ctx.beginPath();
      ctx.moveTo(from.x, from.y);
      ctx.lineTo(to.x, to.y);
    });
    // Above the line's end, moved in where the picture would cut it.
    const { width, height } = size('N');
    const x = clamp(to.x, box.left + width / 2, box.right - width / 2);
    const y = clamp(to.y - layout.textSize * 0.7, box.top + height / 2, box.bottom - height / 2);
    outlinedText(ctx, 'N', x, y, OVERLAY_COLOURS.north, outline);
  }
  ctx.restore();
}

/** Strokes the path `trace` makes in `colour` over a black outline `outline` wider on each side. */
function outlined(ctx: FigureContext, colour: string, width: number, outline: number, trace: () => void): void {
  trace();
  ctx.strokeStyle = OVERLAY_COLOURS.outline;
  ctx.lineWidth = width + 2 * outline;
  ctx.stroke();
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.stroke();
}

function outlinedText(ctx: FigureContext, text: string, x: number, y: number, colour: string, outline: number): void {
  ctx.strokeStyle = OVERLAY_COLOURS.outline;
  ctx.lineWidth = 2 * outline;
  ctx.strokeText(text, x, y);
  ctx.fillStyle = colour;
  ctx.fillText(text, x, y);
}

/** A frame around the picture, ticks outward on every edge a tick's line crosses, labels and titles beside. */
function drawAxes(ctx: FigureContext, spec: FigureSpec, layout: FigureLayout, axes: FigureAxes, place: AxesLayout): void {
  const { at, box } = pictureGeometry(spec, layout);
  const { textSize } = layout;
  const { tick, gap } = place;
  const width = Math.max(1, Math.round(textSize / 12));
  ctx.strokeStyle = '#fff';
  ctx.fillStyle = '#fff';
  ctx.lineWidth = width;
  ctx.setLineDash([]);
  // Square corners, as a plot's frame has.
  ctx.lineJoin = 'miter';
  ctx.strokeRect(box.left - width / 2, box.top - width / 2, box.right - box.left + width, box.bottom - box.top + width);
  ctx.lineJoin = 'round';
  const labelled: { tick: AxisTick; x: number; y: number }[] = [];
  for (const each of axes.ticks) {
    const horizontal = each.edge === 'bottom' || each.edge === 'top';
    const point = at(horizontal ? { x: each.at, y: 0.5 } : { x: 0.5, y: each.at });
    const [x, y, dx, dy] = {
      bottom: [point.x, box.bottom, 0, 1],
      top: [point.x, box.top, 0, -1],
      left: [box.left, point.y, -1, 0],
      right: [box.right, point.y, 1, 0],
    }[each.edge];
    ctx.beginPath();
    ctx.moveTo(x!, y!);
    ctx.lineTo(x! + dx! * tick, y! + dy! * tick);
    ctx.stroke();
    if (each.label) labelled.push({ tick: each, x: x!, y: y! });
  }
  const labelHeight = Math.round(textSize * 1.2);
  // Labels in order along their edge; one that would touch the one before it is left out (its tick stays).
  let reached = -Infinity;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const { tick: each, x } of labelled.filter(({ tick: each }) => each.edge === 'bottom').sort((a, b) => a.x - b.x)) {
    const half = ctx.measureText(each.label!).width / 2;
    const centre = clamp(x, half, layout.width - half);
    if (centre - half < reached + gap) continue;
    ctx.fillText(each.label!, centre, box.bottom + tick + gap + labelHeight / 2);
    reached = centre + half;
  }
  reached = -Infinity;
  ctx.textAlign = 'right';
  for (const { tick: each, y } of labelled.filter(({ tick: each }) => each.edge === 'left').sort((a, b) => a.y - b.y)) {
    if (y - textSize / 2 < reached + gap / 2) continue;
    ctx.fillText(each.label!, box.left - tick - gap, y);
    reached = y + textSize / 2;
  }
  ctx.textAlign = 'center';
  ctx.fillText(place.xTitle, (box.left + box.right) / 2, box.bottom + tick + gap + labelHeight + gap + labelHeight / 2);
  ctx.save();
  ctx.translate(box.left - tick - gap - place.yLabelWidth - gap - labelHeight / 2, (box.top + box.bottom) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(place.yTitle, 0, 0);
  ctx.restore();
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
  ctx.textBaseline = 'middle';
  const labelsAt = box.y + height + box.textSize * 0.9;
  ctx.textAlign = 'left';
  ctx.fillText(displayedValue(bar.clip.low), box.x, labelsAt);
  ctx.textAlign = 'right';
  ctx.fillText(displayedValue(bar.clip.high), box.x + box.width, labelsAt);
  ctx.textAlign = 'center';
  ctx.fillText(`${bar.stretch} stretch${bar.unit ? `, ${bar.unit}` : ''}`, box.x + box.width / 2, labelsAt);
}

function clamp(value: number, low: number, high: number): number {
  return low > high ? (low + high) / 2 : Math.min(high, Math.max(low, value));
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
