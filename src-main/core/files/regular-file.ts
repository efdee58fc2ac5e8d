// A file on disk read by its name: only a regular file is read. Opening a FIFO waits for a writer for ever (and an
// open stuck in the thread pool keeps the process from exiting), and a device such as /dev/zero never ends, so both
// are refused before a byte is read. A symbolic link at the end of the path is followed (a file the user named, a
// git-annex folder of links) unless the caller refuses one, and a read stops when its AbortSignal fires.
import { createHash } from 'node:crypto';
import { close, closeSync, constants, createReadStream, fstat, fstatSync, open as openDescriptor, openSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';

/** Whether a symbolic link at the end of the path is followed to the file it names, or refused. */
type FinalLink = 'follow' | 'refuse';

export interface OpenOptions {
  finalLink?: FinalLink;
}

/** Something other than a regular file is at the path: `found` says what, as "a FIFO" or "a folder". */
export class NotRegularFileError extends Error {
  readonly found: string;
  readonly isFolder: boolean;

  constructor(
    readonly path: string,
    mode: number,
  ) {
    const found = whatIsThere(mode);
    super(`${path} is ${found}, not a regular file`);
    this.found = found;
    this.isFolder = (mode & constants.S_IFMT) === constants.S_IFDIR;
  }
}

/** What a file's mode says it is, as a sentence's words ("a FIFO"); "a regular file" for one. */
export function whatIsThere(mode: number): string {
  switch (mode & constants.S_IFMT) {
    case constants.S_IFREG:
      return 'a regular file';
    case constants.S_IFDIR:
      return 'a folder';
    case constants.S_IFIFO:
      return 'a FIFO';
    case constants.S_IFLNK:
      return 'a symbolic link';
    case constants.S_IFSOCK:
      return 'a socket';
    default:
      return 'a device';
  }
}

/**
 * No waiting for a FIFO's writer: what is opened is looked at (fstat) and refused before a byte is read. Windows has
 * neither flag, nor FIFOs.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const flagsFor = (finalLink: FinalLink): number => OPEN_FLAGS | (finalLink === 'refuse' ? (constants.O_NOFOLLOW ?? 0) : 0);

function checkRegular(file: string, stats: Stats): void {
  if (!stats.isFile()) throw new NotRegularFileError(file, stats.mode);
}

/** A link refused at the end of the path (O_NOFOLLOW's ELOOP) said as what it is. */
function linkRefused(file: string, finalLink: FinalLink, error: unknown): unknown {
  return (error as NodeJS.ErrnoException).code === 'ELOOP' && finalLink === 'refuse' ? new NotRegularFileError(file, constants.S_IFLNK) : error;
}

/**
 * Opens a regular file for reading, with what it is (`stats`, from the opened file). Throws NotRegularFileError
 * for anything else, and the system's error (ENOENT...) when there is nothing to open.
 */
export async function openRegularFile(file: string, options: OpenOptions = {}): Promise<{ handle: FileHandle; stats: Stats }> {
  const finalLink = options.finalLink ?? 'follow';
  const handle = await open(file, flagsFor(finalLink)).catch((error: unknown) => {
    throw linkRefused(file, finalLink, error);
  });
  try {
    const stats = await handle.stat();
    checkRegular(file, stats);
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** openRegularFile for synchronous readers (the command line's FITS commands): a descriptor to close when done. */
export function openRegularFileSync(file: string, options: OpenOptions = {}): { descriptor: number; stats: Stats } {
  const finalLink = options.finalLink ?? 'follow';
  let descriptor: number;
  try {
    descriptor = openSync(file, flagsFor(finalLink));
  } catch (error) {
    throw linkRefused(file, finalLink, error);
  }
  try {
    const stats = fstatSync(descriptor);
    checkRegular(file, stats);
    return { descriptor, stats };
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
}

export interface HashOptions extends OpenOptions {
  /** Stops the read (the promise rejects with an AbortError). */
  signal?: AbortSignal;
}

/**
 * The SHA-256 of a regular file, read as a stream (a file can be gigabytes; the event loop keeps turning), with
 * what the file was when opened: the bytes hashed are that file's, whatever its name leads to later.
 */
export async function sha256OfRegularFile(file: string, options: HashOptions = {}): Promise<{ sha256: string; stats: Stats }> {
  options.signal?.throwIfAborted();
  const finalLink = options.finalLink ?? 'follow';
  // A plain descriptor, not a FileHandle: its stream costs less CPU a file (reuse hashes thousands).
  const descriptor = await openAsync(file, flagsFor(finalLink)).catch((error: unknown) => {
    throw linkRefused(file, finalLink, error);
  });
  let stats: Stats;
  try {
    stats = await fstatAsync(descriptor);
    checkRegular(file, stats);
  } catch (error) {
    close(descriptor, () => undefined);
    throw error;
  }
  const hash = createHash('sha256');
  // The stream closes the descriptor when it ends or is stopped.
  await pipeline(createReadStream(file, { fd: descriptor, highWaterMark: 1024 * 1024 }), hash, options.signal ? { signal: options.signal } : {});
  return { sha256: hash.digest('hex'), stats };
}

const openAsync = promisify(openDescriptor);
const fstatAsync = promisify(fstat);
