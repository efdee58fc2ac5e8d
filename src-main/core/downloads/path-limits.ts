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
 * A folder's path with the separator a file name follows, as path.join(folder, name) begins for any safe name (one
 * plain last segment, which joining only appends): a listing puts a million names in a few folders, and each path is
 * then this and the name.
 */
export function pathBeforeName(folder: string): string {
  return path.join(folder, ANY_NAME).slice(0, -ANY_NAME.length);
}

const ANY_NAME = 'f';

/**
 * Why a file could not be written at `targetPath` (absolute), or undefined. Its temporary file, beside it with a
 * longer name, counts too: the download writes that first.
 */
export function pathLengthProblem(targetPath: string): string | undefined {
  const folder = path.dirname(targetPath);
  if (lastFolder?.folder !== folder) lastFolder = { folder, limit: new FolderPathLimit(folder) };
  return lastFolder.limit.problemOf(path.basename(targetPath));
}

/** The last folder asked about and its limit: a campaign's files share a few folders, asked about a million times. */
let lastFolder: { folder: string; limit: FolderPathLimit } | undefined;

/**
 * The path limits of the files of one folder, its own part measured once: a listing puts a million names in a few
 * folders, and each name is then checked by adding up lengths.
 */
export class FolderPathLimit {
  /** Bytes of the folder's path with the separator before a name. */
  private readonly folderBytes: number;
  /** A name of the folder longer than a file system takes, which no file in it can get past. */
  private readonly folderProblem: string | undefined;

  constructor(folder: string) {
    this.folderBytes = Buffer.byteLength(pathBeforeName(folder));
    const longFolder = folder.split(path.sep).find((part) => utf8Length(part) > MAX_NAME_BYTES);
    this.folderProblem =
      longFolder === undefined
        ? undefined
        : `its path would hold a folder name of ${formatCount(utf8Length(longFolder))} bytes, more than a file system allows (${MAX_NAME_BYTES})`;
  }

  /** Why a file named `name` could not be written in the folder, or undefined. */
  problemOf(name: string): string | undefined {
    // A UTF-16 unit is at most 3 bytes of UTF-8, and a temporary name at most the name and its affixes: most names
    // are clearly short enough without counting their bytes.
    if (this.folderBytes + name.length * 3 + TEMPORARY_AFFIX_BYTES > LONGEST_PATH_BYTES) {
      const longest = this.folderBytes + Math.max(Buffer.byteLength(name), temporaryNameBytes(name));
      if (longest > LONGEST_PATH_BYTES) {
        return `its path would be ${formatCount(longest)} bytes, more than the system allows (${formatCount(LONGEST_PATH_BYTES)}); choose a shorter folder or layout`;
      }
    }
    return this.folderProblem;
  }
}

/** What a temporary name adds to the longest name it is made for (temporaryNameBytes of a name of none). */
const TEMPORARY_AFFIX_BYTES = temporaryNameBytes('');
