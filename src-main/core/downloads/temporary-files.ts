// Temporary files live beside their target as hidden `.<name>.<8 hex>.part` files: the same file system
// (so the final rename is atomic) and a pattern distinctive enough to clean up after a crash.
import { randomBytes } from 'node:crypto';
import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { truncateUtf8 } from '../../../src-shared/files/safe-filename';

const TEMPORARY_NAME = /^\.(.+)\.[0-9a-f]{8}\.part$/;

/** Bytes of the name kept in a temporary name: with the 15 bytes of affixes, at most the 255 a file system takes. */
const KEPT_NAME_BYTES = 240;

export function temporaryNameFor(localName: string): string {
  return `.${truncateUtf8(localName, KEPT_NAME_BYTES)}.${randomBytes(4).toString('hex')}.part`;
}

export function isTemporaryName(name: string): boolean {
  return TEMPORARY_NAME.test(name);
}

/**
 * Deletes temporary files left in `folder` by a run that was killed; returns their names. With
 * `olderThanMs`, younger ones are kept: they may belong to another process writing there right now.
 */
export async function removeStaleTemporaryFiles(folder: string, options: { olderThanMs?: number } = {}): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const cutoff = Date.now() - (options.olderThanMs ?? 0);
  const removed: string[] = [];
  for (const name of names.filter(isTemporaryName)) {
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
