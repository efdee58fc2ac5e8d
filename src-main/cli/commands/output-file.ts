// Writing a command's result to a path the user named (`campaign export --out`, `quicklook --out`): whole or not
// at all for a file, as it is for a device, a pipe or a link, and every problem the user can fix in one line.
import { randomBytes } from 'node:crypto';
import { lstat, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../exit-codes';

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

function writeProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const problems: Record<string, string> = {
    ENOENT: 'its folder does not exist',
    ENOTDIR: 'a part of the path is not a folder',
    EISDIR: 'it is a folder, not a file',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'the file system is read-only',
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
  };
  return (code !== undefined ? problems[code] : undefined) ?? (error instanceof Error ? error.message : String(error));
}
