// `pixel FILE X Y [--hdu N] [--json]`: one pixel of a FITS image, counted as FITS counts (from 1, the first row at
// the bottom): its value with BUNIT, and where it is: helioprojective x and y in arcsec, the distance from Sun centre
// in solar radii and the position angle (degrees counter-clockwise from solar north), from the image's world
// coordinates (world-coordinates.ts). Reads the header and the one row the pixel is in.
import type { FitsFile } from '../../../src-science/fits/fits-file';
import type { ImageReader } from '../../../src-science/fits/image-reader';
import { keywordsOf, pixelReading, type PixelReading } from '../../../src-science/fits/pixel-reading';
import type { CliIo } from '../cli-context';
import { EXIT_OK, UsageError } from '../exit-codes';
import type { GlobalOptions } from '../global-options';
import { jsonText } from '../output/json-values';
import { stopAtOnceDuring } from '../stop-at-once';
import { chosenImage, decoded, parseHdu, warnIfShortBlock } from './fits-file-input';
import { openFitsFile } from './fits-file-on-disk';
import { localOutput } from './local-output';
import { pixelValue, pixelValueJson, pixelValueText, type PixelValue } from './pixel-value';

export interface PixelOptions {
  hdu?: string;
  json?: boolean;
}

/**
 * What `pixel --json` prints: one object. Its value as astropy gives it: a number (a real written with a point), the
 * exact digits of an integer past 2^53 as a string, or "Infinity", "-Infinity" or "NaN" (a NaN float or a BLANK one).
 */
export interface PixelReport extends Omit<PixelReading, 'value'> {
  file: string;
  hdu: number;
  image: { width: number; height: number };
  value: number | string;
}

/** The pixel read: its place and value for both forms of output. */
interface PixelFound extends Omit<PixelReport, 'value'> {
  value: PixelValue;
}

export async function pixelCommand(globals: GlobalOptions, io: CliIo, path: string, xText: string, yText: string, options: PixelOptions): Promise<number> {
  const out = localOutput(globals, io);
  const hduOption = parseHdu(options.hdu);
  const report = stopAtOnceDuring(io.signal, () => {
    const opened = openFitsFile(path);
    try {
      const image = chosenImage(opened.file, hduOption);
      const x = pixelNumber('X', xText, image.width, 'width');
      const y = pixelNumber('Y', yText, image.height, 'height');
      warnIfShortBlock(out, opened.file);
      return reportOf(path, opened.file, image, x, y);
    } finally {
      opened.close();
    }
  });
  if (options.json) out.result(jsonText({ ...report, value: pixelValueJson(report.value) }));
  else out.result(describe(report));
  return EXIT_OK;
}

function reportOf(path: string, file: FitsFile, image: ImageReader, x: number, y: number): PixelFound {
  const row = image.single ? new Float32Array(image.width * image.rowsPerTile) : new Float64Array(image.width * image.rowsPerTile);
  decoded(() => image.readRows(y - 1, 1, row));
  const decodedValue = row[x - 1]!;
  const reading = pixelReading(keywordsOf(file, image.hdu), image.hdu, x, y, decodedValue);
  const value = decoded(() => pixelValue(file, image, x, y, decodedValue));
  return { file: path, hdu: image.hdu, image: { width: image.width, height: image.height }, ...reading, value };
}

/** X or Y as the user typed it: a whole number within the image, counted from 1. */
function pixelNumber(name: 'X' | 'Y', text: string, size: number, dimension: string): number {
  const value = Number(text.trim());
  if (!/^\s*\d+\s*$/.test(text) || value < 1 || value > size) {
    throw new UsageError(`${name} "${text}" must be a whole number from 1 to ${size} (the image's ${dimension}): FITS counts pixels from 1.`);
  }
  return value;
}

function describe(report: PixelFound): string {
  const blank = 'real' in report.value && Number.isNaN(report.value.real);
  const value = blank || !report.unit ? pixelValueText(report.value) : `${pixelValueText(report.value)} ${report.unit}`;
  const lines = [`Pixel ${report.pixel.x}, ${report.pixel.y} of HDU ${report.hdu} (${report.image.width} x ${report.image.height}): ${value}`];
  const world = report.world;
  if (!world) {
    lines.push(report.noWorldCoordinates!);
    return lines.join('\n');
  }
  const name = world.kind === 'helioprojective' ? 'Helioprojective' : 'Solar x, y';
  lines.push(`${name}: x ${world.xArcsec.toFixed(2)} arcsec, y ${world.yArcsec.toFixed(2)} arcsec`);
  const angle =
    world.positionAngleDeg === undefined ? 'at Sun centre' : `position angle ${world.positionAngleDeg.toFixed(1)} deg counter-clockwise from solar north`;
  const radii =
    world.solarRadii === undefined
      ? 'distance in solar radii unknown (the header gives no RSUN_OBS, RSUN or DSUN_OBS)'
      : `${world.solarRadii.toFixed(3)} solar radii (${world.sunRadiusArcsec!.toFixed(2)} arcsec each)`;
  lines.push(`From Sun centre: ${radii}, ${angle}`);
  return lines.join('\n');
}
