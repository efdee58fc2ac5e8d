// The app's "Save image": the figure the command line's quicklook makes (src-science/figures), drawn on the window's
// own canvas from the picture on screen, its overlays and colour bar, at the image's full resolution or a chosen
// size, and saved as a PNG through the browser's download.
import { drawFigureFrame, figureLayout, type FigureSpec } from '../../src-science/figures/figure';
import type { FigureAxes } from '../../src-science/figures/figure-axes';
import type { OverlayAnswer, RenderedImage } from './workers/fits-protocol';
import type { ColormapName } from '../../src-science/fits/colormaps';
import { saveBlob } from '../lib/save-text-file';

export interface FigureRequest {
  image: RenderedImage;
  /** The longer side of the picture in the figure; undefined for the image's own size. */
  size?: number;
  title?: string;
  colorBar?: FigureSpec['colorBar'];
  overlay?: FigureSpec['overlay'];
  axes?: FigureAxes;
}

/** The figure as a PNG. */
async function figurePng(request: FigureRequest, host: Document = document): Promise<Blob> {
  const { image } = request;
  const scale = request.size === undefined ? 1 : request.size / Math.max(image.width, image.height);
  const picture = { width: Math.max(1, Math.round(image.width * scale)), height: Math.max(1, Math.round(image.height * scale)) };
  const spec: FigureSpec = { picture, image: { width: image.width, height: image.height } };
  if (request.title) spec.title = request.title;
  if (request.colorBar) spec.colorBar = request.colorBar;
  if (request.overlay) spec.overlay = request.overlay;
  if (request.axes) spec.axes = request.axes;
  const source = host.createElement('canvas');
  source.width = image.width;
  source.height = image.height;
  source.getContext('2d')!.putImageData(new ImageData(image.rgba, image.width, image.height), 0, 0);
  const canvas = host.createElement('canvas');
  const ctx = canvas.getContext('2d')!;
  // Measured before the canvas takes its size (which resets the context; the drawing sets the font again).
  const layout = figureLayout(spec, ctx);
  canvas.width = layout.width;
  canvas.height = layout.height;
  drawFigureFrame(ctx, spec, layout, () => {
    // A picture enlarged from a small image keeps its pixels sharp, as the quick-look shows them; a shrunk one is smoothed.
    ctx.imageSmoothingEnabled = scale < 1;
    ctx.drawImage(source, layout.pictureAt.x, layout.pictureAt.y, picture.width, picture.height);
  });
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the figure could not be encoded'))), 'image/png'));
}

/** What is drawn with the picture on screen, to go on its saved figure too: the overlay's lines, the colour bar. */
export function figureExtras(
  overlay: OverlayAnswer | null,
  view: { north: boolean; colorBar: boolean; colormap: ColormapName },
  image: RenderedImage | null,
  stretch: string,
  unit: string | null,
): Pick<FigureRequest, 'overlay' | 'colorBar'> {
  return {
    ...(overlay && !('reason' in overlay) ? { overlay: { lines: overlay, north: view.north } } : {}),
    ...(view.colorBar && image?.clip ? { colorBar: { colormap: view.colormap, clip: image.clip, stretch, unit } } : {}),
  };
}

/** A FITS file's name without its extension (.fts, .fits, .fit, with .gz), for the image saved of it. */
export function fileStem(name: string): string {
  return name.replace(/\.(fits?|fts)(\.gz)?$/i, '');
}

export async function saveFigure(fileName: string, request: FigureRequest): Promise<void> {
  saveBlob(fileName, await figurePng(request));
}
