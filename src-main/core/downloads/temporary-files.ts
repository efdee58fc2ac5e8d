// Temporary files live beside their target as hidden `.<name>.<8 hex>.part` files: the same file system
// (so the final rename is atomic) and a pattern distinctive enough to clean up after a crash.
import { randomBytes } from 'node:crypto';
import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { truncateUtf8 } from '../../../src-shared/files/safe-filename';

/** The bytes a file system takes in one name. */
const NAME_BYTES = 255;

/**
 * `.<name>.<8 hex>.<extension>`: a hidden file beside the target, named after it (cut so the whole name fits) and
 * unique, for a download's temporary file (`part`) and the resume file that keeps the beginning of its body (`resume`, resume-file.ts).
 */
export function hiddenNameBeside(localName: string, extension: string): string {
  return `.${truncateUtf8(localName, NAME_BYTES - hiddenAffixBytes(extension))}.${randomBytes(4).toString('hex')}.${extension}`;
}

/** Bytes hiddenNameBeside adds around the name: the dots, the 8 hex digits and the extension. */
const hiddenAffixBytes = (extension: string): number => '.'.length + '.'.length + 8 + '.'.length + extension.length;

/**
 * The length in bytes of any temporary name for `localName`, without making one (no random bytes): the enqueuer
 * asks this of every file of a listing, a million of them.
 */
export function temporaryNameBytes(localName: string): number {
  const affixes = hiddenAffixBytes('part');
  const nameBytes = Buffer.byteLength(localName);
  return (nameBytes <= NAME_BYTES - affixes ? nameBytes : Buffer.byteLength(truncateUtf8(localName, NAME_BYTES - affixes))) + affixes;
}

const HIDDEN_NAME = /^\.(.+)\.[0-9a-f]{8}\.([a-z]+)$/;

/** Whether `name` is one hiddenNameBeside gives with that extension. */
export function isHiddenNameBeside(name: string, extension: string): boolean {
  return HIDDEN_NAME.exec(name)?.[2] === extension;
}

export function temporaryNameFor(localName: string): string {
  return hiddenNameBeside(localName, 'part');
}

export function isTemporaryName(name: string): boolean {
  return isHiddenNameBeside(name, 'part');
}

/**
 * Deletes temporary files left in `folder` by a run that was killed; returns their names. With
 * `olderThanMs`, younger ones are kept: they may belong to another process writing there right now.
 */
export function removeStaleTemporaryFiles(folder: string, options: { olderThanMs?: number } = {}): Promise<string[]> {
  return removeLeftovers(folder, isTemporaryName, options);
}

/**
 * Deletes the files of `folder` whose names `isLeftover` picks (with `olderThanMs`, only those older than that), in
 * one reading of the folder; returns their names.
 */
export async function removeLeftovers(folder: string, isLeftover: (name: string) => boolean, options: { olderThanMs?: number } = {}): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const cutoff = Date.now() - (options.olderThanMs ?? 0);
  const removed: string[] = [];
  for (const name of names.filter(isLeftover)) {
    const file = path.join(folder, name);
    try {
      if (options.olderThanMs !== undefined && (await stat(file)).mtimeMs > cutoff) continue;
      await unlink(file);
      removed.push(name);
    } catch {
      // Gone already, or not ours to remove.
    }
  }
  return removed;
}
