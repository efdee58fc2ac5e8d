// Reading a FITS file named on the command line: the whole file, split into HDUs by the shared reader. Every
// way it can fail that the user can fix (no such file, a folder, a device or FIFO, not FITS, cut short, no such
// HDU) becomes one UsageError line naming the file, so the command exits with status 2.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { FitsReadError, readFits, type FitsFile, type FitsHdu } from '../../../src-shared/fits/fits-file';
import { UsageError } from '../exit-codes';
import { stopAtOnceDuring } from '../stop-at-once';
import { readProblem } from './file-problems';

/** Opening a FIFO must not wait for a writer (it is refused once open). Windows has no such flag, nor FIFOs. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
/** Read in pieces, so that a stop signal is heard between them. */
const PIECE_BYTES = 16 * 1024 * 1024;

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
 * Only a regular file is read (a device such as /dev/zero or a FIFO has no end), and never more bytes than it
 * had when opened (a file growing meanwhile). `signal` stops the read between pieces.
 */
export async function readFitsFile(path: string, signal?: AbortSignal): Promise<FitsFile> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${readProblem(error)}.`);
  }
  let bytes: Uint8Array;
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new UsageError(`Cannot read ${path}: it is a folder, not a file.`);
    if (!info.isFile()) throw new UsageError(`${path} is not a regular file; give the path of a FITS file.`);
    bytes = await readUpTo(handle, info.size, signal);
  } catch (error) {
    if (error instanceof UsageError || (signal?.aborted && error === signal.reason)) throw error;
    throw new UsageError(`Cannot read ${path}: ${readProblem(error)}.`);
  } finally {
    await handle.close();
  }
  await stillWanted(signal);
  try {
    // Headers only, but a file may hold 100,000 HDUs.
    return stopAtOnceDuring(signal, () => readFits(bytes, path));
  } catch (error) {
    throw asUsageError(error);
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

async function readUpTo(handle: FileHandle, size: number, signal: AbortSignal | undefined): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let filled = 0;
  while (filled < size) {
    signal?.throwIfAborted();
    const { bytesRead } = await handle.read(bytes, filled, Math.min(PIECE_BYTES, size - filled), filled);
    if (bytesRead === 0) break; // shorter now than when opened: the reader says where it ends
    filled += bytesRead;
  }
  return filled === size ? bytes : bytes.subarray(0, filled);
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
