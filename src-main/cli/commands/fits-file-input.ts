// Reading a FITS file named on the command line: the whole file, split into HDUs by the shared reader. Every
// way it can fail that the user can fix (no such file, a folder, not FITS, cut short, no such HDU) becomes one
// UsageError line naming the file, so the command exits with status 2.
import { readFile } from 'node:fs/promises';
import { FitsReadError, readFits, type FitsFile } from '../../../src-shared/fits/fits-file';
import { UsageError } from '../exit-codes';

export async function readFitsFile(path: string): Promise<FitsFile> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${fileProblem(error)}.`);
  }
  try {
    return readFits(bytes, path);
  } catch (error) {
    if (error instanceof FitsReadError) throw new UsageError(error.message);
    throw error;
  }
}

/** The reader's complaints about a file are about the user's input: shown as they are, status 2. */
export function asUsageError(error: unknown): unknown {
  return error instanceof FitsReadError ? new UsageError(error.message) : error;
}

/** `--hdu`: a whole number from 0 (the primary HDU), checked by the command so a mistake gets one plain line. */
export function parseHdu(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`--hdu "${value}" must be a whole number: 0 is the primary HDU, 1 the first extension.`);
  return Number(value);
}

/** What went wrong reading or writing a path, in a few words; the system's own message for anything unusual. */
export function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'there is no such file';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'a part of the path is not a folder';
  return error instanceof Error ? error.message : String(error);
}
