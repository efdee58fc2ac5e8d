// Lists a folder's sub-folders for web mode's folder chooser, and makes a new one. Only folders are listed: a
// file, a FIFO or a socket never is, and a symbolic link only when it leads to a folder (a link loop leads nowhere
// and is left out). A folder that cannot be read is listed as such, with the reason, so the user can go Up.
import { mkdir, opendir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Dirent } from 'node:fs';
import { checkSafeFilename } from '../../../src-shared/files/safe-filename';
import { escapeControlCharacters } from '../../../src-shared/format/display-text';
import { FOLDER_LISTING_LIMIT, type FolderEntry, type FolderListing } from '../../../src-shared/files/folder-listing';
import { InvalidInputError } from '../errors';

const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ELOOP: 'too many symbolic links on its path',
  EIO: 'input/output error',
};

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const compareNames = (a: string, b: string): number => byName.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

export interface ListOptions {
  showHidden?: boolean;
  /** Where to start when `asked` is empty or relative: the home folder unless told. */
  home?: string;
  limit?: number;
}

/** The sub-folders of `asked`, or of its nearest existing parent, or of the home folder. */
export async function listFolders(asked: string | undefined, options: ListOptions = {}): Promise<FolderListing> {
  const home = options.home ?? os.homedir();
  const folder = await nearestFolder(asked?.trim() && path.isAbsolute(asked.trim()) ? path.resolve(asked.trim()) : home, home);
  const parent = path.dirname(folder) === folder ? null : path.dirname(folder);
  const base = { path: folder, label: escapeControlCharacters(folder), parent };
  let names: string[];
  try {
    names = await subFolderNames(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    return {
      ...base,
      folders: [],
      total: 0,
      hidden: 0,
      problem: `This folder cannot be read (${REASONS[code] ?? code.toLowerCase()}). Go Up or choose another folder.`,
    };
  }
  const visible = options.showHidden ? names : names.filter((name) => !name.startsWith('.'));
  visible.sort(compareNames);
  const folders: FolderEntry[] = visible
    .slice(0, options.limit ?? FOLDER_LISTING_LIMIT)
    .map((name) => ({ name, label: escapeControlCharacters(name), path: path.join(folder, name) }));
  return { ...base, folders, total: visible.length, hidden: names.length - visible.length, problem: null };
}

/** Makes `name` inside `parent`, refusing any name the downloads themselves would refuse; answers its path. */
export async function makeFolder(parent: string, name: string): Promise<string> {
  const check = checkSafeFilename(name);
  if (!check.ok) throw new InvalidInputError(`The folder name "${escapeControlCharacters(name)}" cannot be used: ${check.reason}. Choose another name.`);
  if (!path.isAbsolute(parent)) throw new InvalidInputError(`"${escapeControlCharacters(parent)}" is not a full path. Choose the folder to make it in.`);
  const target = path.join(parent, name);
  try {
    await mkdir(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new InvalidInputError(`"${escapeControlCharacters(name)}" already exists here. Choose another name.`);
    throw new InvalidInputError(
      `The folder "${escapeControlCharacters(name)}" could not be made (${(code && REASONS[code]) ?? code?.toLowerCase() ?? 'unknown error'}). Choose another place.`,
    );
  }
  return target;
}

async function nearestFolder(start: string, home: string): Promise<string> {
  for (let probe = start; ; probe = path.dirname(probe)) {
    try {
      if ((await stat(probe)).isDirectory()) return probe;
    } catch {
      // Missing or unreachable: its parent may do.
    }
    if (path.dirname(probe) === probe) return home;
  }
}

async function subFolderNames(folder: string): Promise<string[]> {
  const names: string[] = [];
  const listing = await opendir(folder);
  for await (const entry of listing) {
    if (await leadsToFolder(folder, entry)) names.push(entry.name);
  }
  return names;
}

async function leadsToFolder(folder: string, entry: Dirent): Promise<boolean> {
  if (entry.isDirectory()) return true;
  // A link is followed; a file system that does not say what an entry is (unknown type) is asked.
  const unknown = !entry.isFile() && !entry.isFIFO() && !entry.isSocket() && !entry.isCharacterDevice() && !entry.isBlockDevice();
  if (!entry.isSymbolicLink() && !unknown) return false;
  try {
    return (await stat(path.join(folder, entry.name))).isDirectory();
  } catch {
    return false;
  }
}
