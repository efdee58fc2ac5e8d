// What to do when a file of the same name is already in the download folder.
import { access } from 'node:fs/promises';
import path from 'node:path';

import type { ExistingFilePolicy } from '../../../src-shared/downloads/existing-file-policy';
import { MAX_NAME_BYTES, truncateUtf8, utf8Length } from '../../../src-shared/files/safe-filename';

export type { ExistingFilePolicy };

export async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * A free name for a second copy: `name (1).fts`, `name (2).fts`, ..., skipping names on disk and names
 * already promised to other jobs. A name near the 255-byte limit loses the end of its stem to make room for
 * the number, so the copy's name is still one a file system takes.
 */
export async function keepBothName(folder: string, filename: string, taken: (targetPath: string) => boolean): Promise<string> {
  for (let n = 1; ; n += 1) {
    const candidate = numberedName(filename, n);
    const target = path.join(folder, candidate);
    if (!taken(target) && !(await exists(target))) return candidate;
  }
}

/** `stem (n).ext` within MAX_NAME_BYTES; an extension too long to keep beside the number is cut as part of the stem. */
export function numberedName(filename: string, n: number): string {
  const number = ` (${n})`;
  let extension = path.extname(filename);
  if (utf8Length(number) + utf8Length(extension) >= MAX_NAME_BYTES) extension = '';
  const stem = filename.slice(0, filename.length - extension.length);
  const room = MAX_NAME_BYTES - utf8Length(number) - utf8Length(extension);
  return `${truncateUtf8(stem, room)}${number}${extension}`;
}
