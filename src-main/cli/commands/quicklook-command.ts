// `quicklook FILE.fts --out FILE.png`: a FITS image as an 8-bit grey PNG, clipped at two percentiles and
// stretched, oriented as ds9 shows it (FITS rows go up from the bottom). Works on the file alone, no server. The
// file is read a band of rows at a time (streamed-quicklook.ts) and the PNG compressed as its rows are made
// (png-stream.ts), so memory follows the compressed PNG, not the image, which decoded whole takes several times its size.
import { shrunkSize } from '../../../src-science/fits/image-downscale';
import type { StretchName } from '../../../src-science/fits/image-stretch';
import { streamedQuicklookRows, type QuicklookChoice } from '../../../src-science/fits/streamed-quicklook';
import type { CliIo } from '../cli-context';
import { EXIT_OK, UsageError } from '../exit-codes';
import type { GlobalOptions } from '../global-options';
import { printJson, type CliOutput } from '../output/cli-output';
import { stopAtOnceDuring } from '../stop-at-once';
import { asUsageError, chosenImage, decoded, parseHdu, stillWanted, warnIfShortBlock } from './fits-file-input';
import { parseClip, parseSize, parseStretch } from './image-options';
import { parseColormap, parseOverlay, quicklookFigure, wantsFigure, type Figure, type FigureOptions } from './quicklook-figure';
import type { ImageReader } from '../../../src-science/fits/image-reader';
import { openFitsFile } from './fits-file-on-disk';
import { writeWholeFile } from './output-file';
import { GreyPngStream } from './png-stream';
import { localOutput } from './local-output';

export interface QuicklookOptions extends FigureOptions {
  out: string;
  stretch?: string;
  clip?: string;
  hdu?: string;
  size?: string;
  json?: boolean;
}

/** What was written, as --json prints it. */
interface QuicklookSummary {
  file: string;
  hdu: number;
  /** The image's own size, and the PNG's (smaller with --size). */
  image: { width: number; height: number };
  png: { width: number; height: number };
  stretch: StretchName;
  clip: { percents: [number, number]; low: number | null; high: number | null };
  out: string;
  /** Figure options in force (colour map, overlays, title, colour bar), when any was given. */
  figure?: { colormap: string; overlay: string | null; title: boolean; colorBar: boolean; axes: boolean };
}

export async function quicklookCommand(globals: GlobalOptions, io: CliIo, path: string, options: QuicklookOptions): Promise<number> {
  const out = localOutput(globals, io);
  const stretch = parseStretch(options.stretch);
  const percents = parseClip(options.clip);
  const size = parseSize(options.size);
  const hduOption = parseHdu(options.hdu);
  if (options.json && options.out === '-') throw new UsageError('--json and --out - would both write to standard output: give --out a file name.');

  if (wantsFigure(options)) return figureCommand(out, io, path, options, { percents, stretch, ...(size === undefined ? {} : { maxSize: size }) }, hduOption);

  // Seconds of synchronous work for a large image, with nothing to undo: a stop signal ends it at once.
  const { image, clip, shown, png } = stopAtOnceDuring(io.signal, () => {
    const opened = openFitsFile(path);
    try {
      const image = chosenImage(opened.file, hduOption);
      warnIfShortBlock(out, opened.file);
      // The PNG is compressed as its rows are made: neither the image nor its grey levels are ever held whole.
      const shownSize = size === undefined ? image : shrunkSize(image.width, image.height, size);
      const stream = new GreyPngStream(shownSize.width, shownSize.height);
      const shown = decoded(() =>
        streamedQuicklookRows(image, { percents, stretch, ...(size === undefined ? {} : { maxSize: size }) }, (grey, rows) => stream.addRows(grey, rows)),
      );
      return { image, clip: shown.clip, shown, png: stream.finish() };
    } finally {
      opened.close();
    }
  });
  if (image.planes > 1) out.info(`HDU ${image.hdu} holds ${image.planes} planes of ${image.width} x ${image.height}; the quick look shows the first.`);
  if (!clip) out.info(`Every pixel of HDU ${image.hdu} is blank (NaN or BLANK): the quick look is black.`);
  await stillWanted(io.signal);
  await writeOutput(out, options.out, png);

  const summary: QuicklookSummary = {
    file: path,
    hdu: image.hdu,
    image: { width: image.width, height: image.height },
    png: { width: shown.width, height: shown.height },
    stretch,
    clip: { percents, low: clip?.low ?? null, high: clip?.high ?? null },
    out: options.out,
  };
  if (options.json) printJson(out, summary);
  else if (options.out !== '-') out.info(describe(summary));
  return EXIT_OK;
}

/** The quick look as a figure (quicklook-figure.ts): the picture with colour map, overlays, title, axes and colour bar. */
async function figureCommand(
  out: CliOutput,
  io: CliIo,
  path: string,
  options: QuicklookOptions,
  choice: QuicklookChoice,
  hdu: number | undefined,
): Promise<number> {
  // The options are checked before the file is read, so a mistake costs nothing.
  parseColormap(options.colormap);
  parseOverlay(options.overlay);
  const opened = openFitsFile(path);
  let figure: Figure;
  let image: ImageReader;
  try {
    image = chosenImage(opened.file, hdu);
    warnIfShortBlock(out, opened.file);
    figure = await decodedAsync(() => quicklookFigure(opened.file, image, choice, options));
  } finally {
    opened.close();
  }
  if (figure.noOverlay) out.info(figure.noOverlay);
  if (figure.noAxes) out.info(figure.noAxes);
  if (!figure.picture.clip) out.info(`Every pixel of HDU ${image.hdu} is blank (NaN or BLANK): the quick look is black.`);
  await stillWanted(io.signal);
  await writeOutput(out, options.out, figure.png);
  const clip = figure.picture.clip;
  const summary: QuicklookSummary = {
    file: path,
    hdu: image.hdu,
    image: { width: image.width, height: image.height },
    png: { width: figure.width, height: figure.height },
    stretch: choice.stretch,
    clip: { percents: [choice.percents[0], choice.percents[1]], low: clip?.low ?? null, high: clip?.high ?? null },
    out: options.out,
    figure: {
      colormap: parseColormap(options.colormap),
      overlay: options.overlay ?? null,
      title: options.title !== undefined,
      colorBar: options.colorbar === true,
      axes: options.axes === true,
    },
  };
  if (options.json) printJson(out, summary);
  else if (options.out !== '-') out.info(describe(summary));
  return EXIT_OK;
}

async function decodedAsync<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asUsageError(error);
  }
}

/** Writes the PNG to standard output (`-`) or to the named path, as campaign exports are written. */
async function writeOutput(out: CliOutput, target: string, png: Uint8Array): Promise<void> {
  if (target === '-') out.stdout.write(png);
  else await writeWholeFile(target, png);
}

function describe(summary: QuicklookSummary): string {
  const { png, clip } = summary;
  const range = clip.low === null ? 'every pixel blank' : `${clip.percents[0]}-${clip.percents[1]} % = ${short(clip.low)} to ${short(clip.high!)}`;
  return `Wrote ${summary.out}: ${png.width} x ${png.height}, HDU ${summary.hdu}, ${summary.stretch} stretch, clip ${range}.`;
}

/** Physical values of any size in four digits or fewer: 1.11e-6, 45.6, 32768. */
function short(value: number): string {
  const size = Math.abs(value);
  if (value === 0 || (size >= 1e-3 && size < 1e6)) return String(Number(value.toPrecision(4)));
  return value.toExponential(3).replace(/\.?0+e/, 'e');
}
