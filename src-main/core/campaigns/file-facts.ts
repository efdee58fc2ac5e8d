// What a campaign needs to know of a file on disk: its size (absent when it is not a file) and its SHA-256, read as
// a stream (campaign files can be hundreds of megabytes). Only a regular file is hashed (regular-file.ts): a FIFO or
// a device under a file's name is refused, not waited on or read for ever. A link at the end is followed: a
// campaign folder may be a git-annex or DataLad one, whose files are links to the real ones.
import { stat } from 'node:fs/promises';
import { sha256OfRegularFile } from '../files/regular-file';

/** The SHA-256 of a regular file; `signal` stops the read. */
export async function sha256OfFile(file: string, signal?: AbortSignal): Promise<string> {
  return (await sha256OfRegularFile(file, signal ? { signal } : {})).sha256;
}

export async function sizeOfFile(file: string): Promise<number | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}
