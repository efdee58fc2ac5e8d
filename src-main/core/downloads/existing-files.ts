// What to do when a file of the same name is already in the download folder.
import { access } from 'node:fs/promises';
import path from 'node:path';

import { EXISTING_FILE_POLICIES, type ExistingFilePolicy } from '../../../src-shared/downloads/existing-file-policy';

export { EXISTING_FILE_POLICIES, type ExistingFilePolicy };

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
 * already promised to other jobs.
 */
export async function keepBothName(folder: string, filename: string, taken: (targetPath: string) => boolean): Promise<string> {
  const extension = path.extname(filename);
  const stem = filename.slice(0, filename.length - extension.length);
  for (let n = 1; ; n += 1) {
    const candidate = `${stem} (${n})${extension}`;
    const target = path.join(folder, candidate);
    if (!taken(target) && !(await exists(target))) return candidate;
  }
}
