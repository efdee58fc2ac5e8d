// The FITS work behind the quick-look, the thumbnails and the player: read the file, decode an image, clip,
// stretch, and hand back RGBA pixels. It runs in the FITS worker (in the renderer's tests, in the page's own
// thread). It keeps what is costly to redo: an open file's decoded images and their clips, so a new stretch is
// only the last step again; and a bounded number of player frames, so memory stays flat over a long sequence.
import { FitsReadError, firstImageHdu, readFits, shortBlockWarning, type FitsFile, type FitsHdu } from '../../../src-science/fits/fits-file';
import { cardValueText } from '../../../src-science/fits/card-value-text';
import { decodeImage } from '../../../src-science/fits/fits-image';
import type { FitsImage } from '../../../src-science/fits/image-reader';
import { downscale } from '../../../src-science/fits/image-downscale';
import type { Pixels } from '../../../src-science/fits/image-percentiles';
import type { FitsValue } from '../../../src-science/fits/fits-cards';
import { paletteOf, type ColormapName } from '../../../src-science/fits/colormaps';
import { keywordsOf, pixelReader, type PixelReader, type PixelReading } from '../../../src-science/fits/pixel-reading';
import { difference, sampledClip, signedStretch, symmetric } from '../../../src-science/fits/frame-grey';
import { sunOverlay } from '../../../src-science/fits/sun-overlay';
import { figureAxes } from '../../../src-science/figures/figure-axes';
import { DEFAULT_CLIP_PERCENTS, displayBytes, STRETCHES, type ClipRange } from '../../../src-science/fits/image-stretch';
import type { AxesAnswer, DisplayChoice, HduSummary, HeaderCard, LoadedFrame, MissingFrames, OpenedFile, OverlayAnswer, RenderedImage } from './fits-protocol';

/** Player frames kept decoded: the one shown, the one before it (for a difference) and those prefetched ahead. */
export const KEPT_FRAMES = 8;
/** Open files: the quick-look's, and one more while the next replaces it. */
const KEPT_DOCUMENTS = 2;
/** Decoded HDUs per open file: flipping between two extensions does not decode again; more would pile up. */
const KEPT_IMAGES = 2;

/** Sides of the warm-up's image: larger than the sample a clip is found from, so every step runs as for a real one. */
const WARM_UP_SIZE = 384;

/** A request about something the worker no longer holds (it restarted, or the file was closed). */
class FitsEngineError extends Error {}

interface OpenDocument {
  file: FitsFile;
  images: Map<number, FitsImage>;
  clips: Map<string, ClipRange | null>;
  /** Per HDU, its pixels' reader (unit and world coordinates found once): made when the pointer first moves over it. */
  readers: Map<number, PixelReader>;
}

interface KeptFrame {
  image: FitsImage;
  dateObs: string | null;
  /** The image HDU's keywords (over the primary's), for the readout of a pixel. */
  keywords: ReadonlyMap<string, FitsValue>;
  /** The readout's reader of its pixels, made when the pointer first moves over the frame. */
  read?: PixelReader;
}

export interface FitsEngineOptions {
  /** The decoder (tests count its calls to prove a new stretch does not decode again). */
  decode?: (file: FitsFile, hdu: number) => FitsImage;
  keptFrames?: number;
}

export class FitsEngine {
  private nextDocument = 1;
  private readonly documents = new Map<number, OpenDocument>();
  /** In the order of last use: the first is the one to forget. */
  private readonly frames = new Map<number, KeptFrame>();
  private readonly decode: (file: FitsFile, hdu: number) => FitsImage;
  private readonly keptFrames: number;

  constructor(options: FitsEngineOptions = {}) {
    this.decode = options.decode ?? decodeImage;
    this.keptFrames = Math.max(2, options.keptFrames ?? KEPT_FRAMES);
  }

  /** How many player frames are held decoded now. */
  get keptFrameCount(): number {
    return this.frames.size;
  }

  open(bytes: Uint8Array, fileName: string): OpenedFile {
    const file = readFits(bytes, fileName);
    const document = this.nextDocument++;
    this.documents.set(document, { file, images: new Map(), clips: new Map(), readers: new Map() });
    forgetOldest(this.documents, KEPT_DOCUMENTS);
    const warning = shortBlockWarning(file);
    return { document, fileName, hdus: file.hdus.map(summaryOf), imageHdu: firstImageHdu(file)?.index ?? null, ...(warning ? { warning } : {}) };
  }

  render(document: number, hdu: number, display: DisplayChoice): RenderedImage {
    const open = this.documents.get(document);
    if (!open) throw new FitsEngineError('This file is no longer open in the viewer: close the quick look and open it again.');
    const image = this.imageOf(open, hdu);
    const clipKey = `${hdu}:${display.clipPercents[0]}:${display.clipPercents[1]}`;
    if (!open.clips.has(clipKey)) open.clips.set(clipKey, clipOf(image.pixels, display));
    return rendered(image.pixels, image.width, image.height, display, open.clips.get(clipKey) ?? null, image.planes);
  }

  close(document: number): void {
    this.documents.delete(document);
  }

  /** Pixel (x, y) of an open file's HDU, counted from 1 as FITS counts; throws when it is outside the image. */
  pixel(document: number, hdu: number, x: number, y: number): PixelReading {
    const open = this.documents.get(document);
    if (!open) throw new FitsEngineError('This file is no longer open in the viewer: close the quick look and open it again.');
    const image = this.imageOf(open, hdu);
    let read = open.readers.get(hdu);
    if (!read) open.readers.set(hdu, (read = pixelReader(keywordsOf(open.file, hdu), hdu)));
    return read(x, y, valueAt(image, x, y));
  }

  /** The lines over an open file's HDU: limb, circles at `solarRadii`, north. */
  overlay(document: number, hdu: number, solarRadii: readonly number[]): OverlayAnswer {
    const open = this.documents.get(document);
    if (!open) throw new FitsEngineError('This file is no longer open in the viewer: close the quick look and open it again.');
    return sunOverlay(keywordsOf(open.file, hdu), solarRadii);
  }

  /** The same over a kept player frame. */
  frameOverlay(key: number, solarRadii: readonly number[]): OverlayAnswer | MissingFrames {
    const frame = this.frames.get(key);
    return frame ? sunOverlay(frame.keywords, solarRadii) : { missing: [key] };
  }

  /** The axes of a figure of an open file's HDU. */
  axes(document: number, hdu: number): AxesAnswer {
    const open = this.documents.get(document);
    if (!open) throw new FitsEngineError('This file is no longer open in the viewer: close the quick look and open it again.');
    return figureAxes(keywordsOf(open.file, hdu), this.imageOf(open, hdu));
  }

  /** The same of a kept player frame. */
  frameAxes(key: number): AxesAnswer | MissingFrames {
    const frame = this.frames.get(key);
    return frame ? figureAxes(frame.keywords, frame.image) : { missing: [key] };
  }

  /** Pixel (x, y) of a kept player frame. */
  framePixel(key: number, x: number, y: number): PixelReading | MissingFrames {
    const frame = this.frames.get(key);
    if (!frame) return { missing: [key] };
    frame.read ??= pixelReader(frame.keywords, frame.image.hdu);
    return frame.read(x, y, valueAt(frame.image, x, y));
  }

  thumbnail(bytes: Uint8Array, fileName: string, maxSize: number, display: DisplayChoice): RenderedImage {
    const file = readFits(bytes, fileName);
    const image = this.decode(file, imageHduOf(file).index);
    const small = downscale(image.pixels, image.width, image.height, maxSize);
    const clip = clipOf(small.pixels, display);
    return rendered(small.pixels, small.width, small.height, display, clip, image.planes);
  }

  loadFrame(key: number, bytes: Uint8Array, fileName: string): LoadedFrame {
    const file = readFits(bytes, fileName);
    const hdu = imageHduOf(file);
    const image = this.decode(file, hdu.index);
    const dateObs = hdu.values.get('DATE-OBS');
    const frame = { image, dateObs: typeof dateObs === 'string' && dateObs !== '' ? dateObs : null, keywords: keywordsOf(file, hdu.index) };
    this.frames.delete(key);
    this.frames.set(key, frame);
    forgetOldest(this.frames, this.keptFrames);
    const named = [frame.keywords.get('INSTRUME'), frame.keywords.get('TELESCOP')].find((value) => typeof value === 'string' && value.trim() !== '');
    return { width: image.width, height: image.height, dateObs: frame.dateObs, instrument: typeof named === 'string' ? named : null };
  }

  renderFrame(key: number, previousKey: number | null, display: DisplayChoice, clip: ClipRange | null): RenderedImage | MissingFrames {
    const missing = [key, ...(previousKey === null ? [] : [previousKey])].filter((wanted) => !this.frames.has(wanted));
    if (missing.length > 0) return { missing };
    const frame = this.touch(key);
    const { width, height, planes } = frame.image;
    if (previousKey === null) {
      const used = clip ?? clipOf(frame.image.pixels, display);
      return rendered(frame.image.pixels, width, height, display, used, planes);
    }
    const previous = this.touch(previousKey).image;
    if (previous.width !== width || previous.height !== height) {
      throw new FitsEngineError(
        `This frame is ${width} × ${height} pixels and the one before it ${previous.width} × ${previous.height}, so no difference can be taken.`,
      );
    }
    const change = difference(frame.image.pixels, previous.pixels);
    const found = clip ?? clipOf(change, display);
    const used = found ? symmetric(found) : null;
    const mapped = { ...display, stretch: 'linear' as const };
    return rendered(signedStretch(change, used, display.stretch), width, height, mapped, used && { low: 0, high: 1 }, planes, used);
  }

  dropFrames(): void {
    this.frames.clear();
  }

  /**
   * Opens and renders a made-up image in each stretch and forgets it. JavaScript engines compile a loop well only
   * after it has run a while, so a first quick-look of a large image is slower than the next one; this spends that
   * time before anyone is waiting.
   */
  warmUp(): void {
    const { document } = this.open(madeUpFits(WARM_UP_SIZE), 'warm-up.fits');
    for (const stretch of STRETCHES) this.render(document, 0, { stretch, clipPercents: DEFAULT_CLIP_PERCENTS });
    this.close(document);
  }

  private imageOf(open: OpenDocument, hdu: number): FitsImage {
    let image = open.images.get(hdu);
    if (image) {
      open.images.delete(hdu);
    } else {
      image = this.decode(open.file, hdu);
    }
    open.images.set(hdu, image);
    forgetOldest(open.images, KEPT_IMAGES);
    return image;
  }

  /** The kept frame, now the most recently used. */
  private touch(key: number): KeptFrame {
    const frame = this.frames.get(key)!;
    this.frames.delete(key);
    this.frames.set(key, frame);
    return frame;
  }
}

/** The display clip, from a stratified sample of a large image's pixels (see CLIP_SAMPLE_SIZE): the viewer must be quick. */
function clipOf(pixels: Pixels, display: DisplayChoice): ClipRange | null {
  return sampledClip(pixels, display.clipPercents);
}

function imageHduOf(file: FitsFile): FitsHdu {
  const hdu = firstImageHdu(file);
  if (!hdu) throw new FitsReadError(file.fileName, 'holds no image in any HDU');
  return hdu;
}

/** The value of FITS pixel (x, y) of the image's first plane. */
function valueAt(image: FitsImage, x: number, y: number): number {
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 1 || y < 1 || x > image.width || y > image.height) {
    throw new FitsEngineError(`Pixel ${x}, ${y} is outside the ${image.width} × ${image.height} image.`);
  }
  return image.pixels[(y - 1) * image.width + (x - 1)]!;
}

/** Drops the entries used longest ago until at most `keep` remain (a Map iterates in insertion order). */
function forgetOldest<K, V>(entries: Map<K, V>, keep: number): void {
  for (const key of entries.keys()) {
    if (entries.size <= keep) return;
    entries.delete(key);
  }
}

function summaryOf(hdu: FitsHdu): HduSummary {
  return {
    index: hdu.index,
    type: hdu.type,
    ...(hdu.name === undefined ? {} : { name: hdu.name }),
    isImage: hdu.isImage,
    // A tile-compressed image is described by its own size and type, not its table's.
    axes: hdu.compression?.axes ?? hdu.axes,
    bitpix: hdu.compression?.bitpix ?? hdu.bitpix,
    cards: hdu.cards.map((card): HeaderCard => ({ keyword: card.keyword, value: cardValueText(card), comment: card.comment })),
  };
}

/** `reported` is the clip in the image's own values, when the pixels given are already mapped to 0..1. */
function rendered(
  pixels: Pixels,
  width: number,
  height: number,
  display: DisplayChoice,
  clip: ClipRange | null,
  planes: number,
  reported: ClipRange | null = clip,
): RenderedImage {
  // An image without a finite value is drawn black (every pixel is NaN), with no clip to report.
  const grey = displayBytes(pixels, width, height, { stretch: display.stretch, low: clip?.low ?? 0, high: clip?.high ?? 0 });
  return { width, height, rgba: rgbaOf(grey, display.colormap ?? 'grey'), clip: reported, planes };
}

/** Grey levels as opaque RGBA, what a canvas takes: one 32-bit write per pixel from the colour map's 256 colours. */
function rgbaOf(grey: Uint8Array, colormap: ColormapName): Uint8ClampedArray<ArrayBuffer> {
  const rgba = new Uint8ClampedArray(grey.length * 4);
  const pixels = new Uint32Array(rgba.buffer);
  const palette = paletteOf(colormap);
  for (let i = 0; i < grey.length; i += 1) pixels[i] = palette[grey[i]!]!;
  return rgba;
}

/** A FITS file of one `size` x `size` float image (a ramp with a few NaN), as a file on disk would hold it. */
function madeUpFits(size: number): Uint8Array {
  const cards = [
    'SIMPLE  =                    T',
    'BITPIX  =                  -32',
    'NAXIS   =                    2',
    `NAXIS1  = ${String(size).padStart(20)}`,
    `NAXIS2  = ${String(size).padStart(20)}`,
    'END',
  ];
  const header = cards.map((card) => card.padEnd(80)).join('');
  const headerBytes = Math.ceil(header.length / 2880) * 2880;
  const dataBytes = Math.ceil((size * size * 4) / 2880) * 2880;
  const bytes = new Uint8Array(headerBytes + dataBytes);
  for (let i = 0; i < headerBytes; i += 1) bytes[i] = i < header.length ? header.charCodeAt(i) : 0x20;
  const data = new DataView(bytes.buffer, headerBytes);
  for (let i = 0; i < size * size; i += 1) data.setFloat32(i * 4, i % 997 === 0 ? Number.NaN : Math.sqrt(i));
  return bytes;
}
