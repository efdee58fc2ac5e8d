// Temporary files live beside their target as hidden `.<name>.<8 hex>.part` files: the same file system
// (so the final rename is atomic) and a pattern distinctive enough to clean up after a crash.
import { randomBytes } from 'node:crypto';
import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';

const TEMPORARY_NAME = /^\.(.+)\.[0-9a-f]{8}\.part$/;

export function temporaryNameFor(localName: string): string {
  // Shortened so that the longest allowed name (255 bytes) still leaves room for the affixes.
  return `.${localName.slice(0, 200)}.${randomBytes(4).toString('hex')}.part`;
}

export function isTemporaryName(name: string): boolean {
  return TEMPORARY_NAME.test(name);
}

/** Deletes temporary files left in `folder` by an earlier run that was killed; returns their names. */
export async function removeStaleTemporaryFiles(folder: string, inUse: ReadonlySet<string> = new Set()): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const stale = names.filter((name) => isTemporaryName(name) && !inUse.has(name));
  await Promise.all(stale.map((name) => unlink(path.join(folder, name)).catch(() => undefined)));
  return stale;
}
