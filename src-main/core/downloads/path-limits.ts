// How long a path the system takes. A campaign's layout can nest many folders (each up to 120 bytes) under a deep
// folder: a file whose path would pass the limit is refused with a reason before anything is made for it, instead
// of an ENAMETOOLONG that would stop the whole listing.
import path from 'node:path';
import { formatCount } from '../../../src-shared/format/counts';
import { MAX_NAME_BYTES, utf8Length } from '../../../src-shared/files/safe-filename';
import { temporaryNameBytes } from './temporary-files';

/**
 * The longest path, in bytes, the system takes: PATH_MAX less its final NUL (4,096 on Linux, 1,024 on macOS).
 * Windows takes longer paths through Node's `\\?\` form; the Linux figure keeps them portable.
 */
export const LONGEST_PATH_BYTES = process.platform === 'darwin' ? 1023 : 4095;

/**
 * Why a file could not be written at `targetPath` (absolute), or undefined. Its temporary file, beside it with a
 * longer name, counts too: the download writes that first.
 */
export function pathLengthProblem(targetPath: string): string | undefined {
  const folder = path.dirname(targetPath);
  const name = path.basename(targetPath);
  const folderBytes = Buffer.byteLength(path.join(folder, 'x')) - 1;
  const longest = folderBytes + Math.max(Buffer.byteLength(name), temporaryNameBytes(name));
  if (longest > LONGEST_PATH_BYTES) {
    return `its path would be ${formatCount(longest)} bytes, more than the system allows (${formatCount(LONGEST_PATH_BYTES)}); choose a shorter folder or layout`;
  }
  return longFolderProblem(folder);
}

/** The last folder asked about and its answer: a listing's files share a few folders, asked about a million times. */
let lastFolder: { folder: string; problem: string | undefined } | undefined;

function longFolderProblem(folder: string): string | undefined {
  if (lastFolder?.folder === folder) return lastFolder.problem;
  const longFolder = folder.split(path.sep).find((part) => utf8Length(part) > MAX_NAME_BYTES);
  const problem =
    longFolder === undefined
      ? undefined
      : `its path would hold a folder name of ${formatCount(utf8Length(longFolder))} bytes, more than a file system allows (${MAX_NAME_BYTES})`;
  lastFolder = { folder, problem };
  return problem;
}
