// What header and quicklook share about a FITS file named on the command line (fits-file-on-disk.ts opens it): every
// way it can fail that the user can fix (not FITS, cut short, no such HDU, a bad --hdu) becomes one UsageError line
// naming the file, so the command exits with status 2; and a stop signal is heard between long steps.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describeHdu, firstImageHdu, FitsReadError, shortBlockWarning, type FitsFile, type FitsHdu } from '../../../src-science/fits/fits-file';
import { imageList, imageReader, shortList } from '../../../src-science/fits/fits-image';
import type { ImageReader } from '../../../src-science/fits/image-reader';
import { UsageError } from '../exit-codes';
import type { CliOutput } from '../output/cli-output';

/**
 * The reader refused the file (the message is its one line, status 2); `hdus` are those whose headers arrived
 * whole before the problem, which `header` still shows of a damaged file.
 */
export class FitsFileRefusal extends UsageError {
  constructor(
    message: string,
    readonly hdus: readonly FitsHdu[],
  ) {
    super(message);
  }
}

/**
 * Between two long steps of a command's own work: lets a stop signal that came meanwhile be heard (its handler
 * runs on the event loop), then ends the command with the signal's reason if one did.
 */
export async function stillWanted(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return;
  await nextTurn();
  signal.throwIfAborted();
}

/** Says (on stderr, even with --quiet) that a file read as astropy reads it is not whole: it ends short of a block. */
export function warnIfShortBlock(out: CliOutput, file: FitsFile): void {
  const warning = shortBlockWarning(file);
  if (warning) out.error(warning);
}

/** The reader's complaints about a file are about the user's input: shown as they are, status 2. */
export function asUsageError(error: unknown): unknown {
  return error instanceof FitsReadError ? new FitsFileRefusal(error.message, error.hdus) : error;
}

/** `--hdu`: a whole number from 0 (the primary HDU), checked by the command so a mistake gets one plain line. */
export function parseHdu(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`--hdu "${value}" must be a whole number: 0 is the primary HDU, 1 the first extension.`);
  return Number(value);
}

/** The image of HDU `chosen`, or of the first HDU that holds one; the reader's complaints become usage errors. */
export function chosenImage(file: FitsFile, chosen: number | undefined): ImageReader {
  const index = chosen ?? firstImageHdu(file)?.index;
  if (index === undefined) throw new UsageError(`${file.fileName} holds no image: ${shortList(file.hdus.map(describeHdu))}; ${imageList(file)}.`);
  return decoded(() => imageReader(file, index));
}

/** `work`, with the reader's complaints (a damaged tile, a file cut while read) made usage errors. */
export function decoded<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw asUsageError(error);
  }
}
