// Writing a command's result to a path the user named (`campaign export --out`, `quicklook --out`, `movie --out`):
// whole or not at all for a file, as it is for a device, a pipe or a link, and every problem the user can fix in one
// line.
import { randomBytes } from 'node:crypto';
import { lstat, open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../exit-codes';
import { writeProblem } from './file-problems';

/**
 * A file is written beside itself first and renamed over the target once complete, so a failure never leaves half
 * of it under the real name. A device, a pipe or a link (`/dev/stdout`, a named pipe) is written as it is: renaming
 * over it would replace it (run as root, `--out /dev/full` would have turned the device into a plain file).
 */
export async function writeWholeFile(target: string, data: string | Uint8Array): Promise<void> {
  const file = path.resolve(target);
  const existing = await lstat(file).catch(() => undefined);
  try {
    if (existing?.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
    if (existing && !existing.isFile()) {
      await writeFile(file, data);
      return;
    }
    const temporary = temporaryNameBeside(file);
    try {
      await writeFile(temporary, data);
      await rename(temporary, file);
    } finally {
      await rm(temporary, { force: true });
    }
  } catch (error) {
    throw cannotWrite(target, error);
  }
}

/** A file written in pieces (a movie, frame by frame), whole or not at all as writeWholeFile's. */
export interface FileInPieces {
  write(bytes: Uint8Array): Promise<void>;
  /** The file is complete: it takes its name. */
  commit(): Promise<void>;
  /** The file will not be completed (an error, a stop signal): nothing of it is left under any name. */
  discard(): Promise<void>;
}

/** Opens `target` for writing in pieces: a temporary file beside it, or a device, pipe or link as it is. */
export async function openFileInPieces(target: string): Promise<FileInPieces> {
  const file = path.resolve(target);
  const existing = await lstat(file).catch(() => undefined);
  const asItIs = existing !== undefined && !existing.isFile() && !existing.isDirectory();
  const writing = asItIs ? file : temporaryNameBeside(file);
  let handle: FileHandle;
  try {
    if (existing?.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
    handle = await open(writing, asItIs ? 'w' : 'wx');
  } catch (error) {
    throw cannotWrite(target, error);
  }
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    write: async (bytes) => {
      try {
        await handle.write(bytes);
      } catch (error) {
        throw cannotWrite(target, error);
      }
    },
    commit: async () => {
      try {
        await close();
        if (!asItIs) await rename(writing, file);
      } catch (error) {
        throw cannotWrite(target, error);
      }
    },
    discard: async () => {
      await close().catch(() => undefined);
      if (!asItIs) await rm(writing, { force: true });
    },
  };
}

/** An empty temporary file beside `target`, for a program that writes the file itself (ffmpeg) under that name. */
export interface TemporaryFile {
  readonly path: string;
  /** The program has completed it: it takes the target's name. */
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** Makes the temporary file now, so that a folder that is missing or not writable is said before any work is done. */
export async function temporaryFileBeside(target: string): Promise<TemporaryFile> {
  const file = path.resolve(target);
  const existing = await lstat(file).catch(() => undefined);
  // The program goes back over what it wrote: a pipe or a device cannot take that, and renaming would replace it.
  if (existing && !existing.isFile() && !existing.isDirectory()) throw new UsageError(`Cannot write ${target}: it is not a plain file.`);
  const temporary = temporaryNameBeside(file);
  try {
    if (existing?.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
    await (await open(temporary, 'wx')).close();
  } catch (error) {
    throw cannotWrite(target, error);
  }
  return {
    path: temporary,
    commit: async () => {
      try {
        await rename(temporary, file);
      } catch (error) {
        throw cannotWrite(target, error);
      }
    },
    discard: () => rm(temporary, { force: true }),
  };
}

/** Beside the target (the same folder: the rename is atomic), and this run's own. */
function temporaryNameBeside(file: string): string {
  return `${file}.${randomBytes(4).toString('hex')}.part`;
}

function cannotWrite(target: string, error: unknown): UsageError {
  return new UsageError(`Cannot write ${target}: ${writeProblem(error)}.`);
}
