// Writing a command's result to a path the user named (`campaign export --out`, `quicklook --out`): whole or not
// at all for a file, as it is for a device, a pipe or a link, and every problem the user can fix in one line.
import { randomBytes } from 'node:crypto';
import { lstat, rename, rm, writeFile } from 'node:fs/promises';
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
    const temporary = `${file}.${randomBytes(4).toString('hex')}.part`;
    try {
      await writeFile(temporary, data);
      await rename(temporary, file);
    } finally {
      await rm(temporary, { force: true });
    }
  } catch (error) {
    throw new UsageError(`Cannot write ${target}: ${writeProblem(error)}.`);
  }
}
