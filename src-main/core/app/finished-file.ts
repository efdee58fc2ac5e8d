// files:read: the bytes of a finished download, for quick-look and the player. Only the file the engine wrote
// is read: a path through a symbolic link (the file or a folder of its layout replaced by one) could hand the
// window any file of the computer, and something that is not a plain file (a FIFO, a device) could block the
// read for ever or never end it. Each is refused in a sentence saying what to do.
import { constants, type Stats } from 'node:fs';
import { lstat, open, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { FileBytes } from '../../../src-shared/contract/contract';
import type { DownloadLedger } from '../downloads/download-ledger';
import { InvalidInputError } from '../errors';

/** Quick-look reads whole files; a larger one is refused rather than held in memory twice (here and in the renderer). */
const LARGEST_READ_BYTES = 1024 * 1024 * 1024;

/**
 * Not following a link in the last step, and not waiting for a FIFO's writer. Windows has neither flag: there
 * the lstat before opening is the check.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * `roots`: the folders downloads go into (the download folder); a file below one of them must be reached without
 * a link on the way from that folder down. A file outside them is checked from its own folder down.
 */
export async function readFinishedFile(ledger: DownloadLedger, id: number, roots: readonly string[]): Promise<FileBytes> {
  const job = ledger.get(id);
  if (!job) throw new InvalidInputError('That download is no longer in the list.');
  const name = path.basename(job.targetPath);
  if (job.state !== 'done') throw new InvalidInputError(`${name} has not finished downloading, so there is nothing to show yet.`);
  const root = rootOf(job.targetPath, roots);
  const again = 'download it (or sync its campaign) again';
  const gone = (): InvalidInputError => new InvalidInputError(`${name} is no longer in ${job.folder}: ${again}.`);
  const elsewhere = (): InvalidInputError => new InvalidInputError(`${name} is no longer inside ${root} (a folder on its way is a link elsewhere): ${again}.`);
  const link = (): InvalidInputError => new InvalidInputError(`${name} has been replaced by a link, which is not followed: ${again}.`);
  const notPlain = (): InvalidInputError => new InvalidInputError(`${name} is no longer a plain file: ${again}.`);

  // Before opening anything: opening some devices does something by itself.
  let entry: Stats;
  try {
    if (!(await isInside(root, path.dirname(job.targetPath)))) throw elsewhere();
    entry = await lstat(job.targetPath);
  } catch (error) {
    throw error instanceof InvalidInputError ? error : gone();
  }
  if (entry.isSymbolicLink()) throw link();
  if (!entry.isFile()) throw notPlain();

  let handle: FileHandle;
  try {
    handle = await open(job.targetPath, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw link();
    if (code === 'ENOENT' || code === 'ENOTDIR') throw gone();
    throw new InvalidInputError(`Cannot read ${name}: ${(error as Error).message}.`);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw notPlain();
    // The path may have changed between the checks and the opening: what was opened must still be the file at
    // that place inside the folder.
    if (!(await isSameFileInside(job.targetPath, root, opened))) throw elsewhere();
    if (opened.size > LARGEST_READ_BYTES) throw new InvalidInputError(`${name} is larger than 1 GiB: open it in a FITS viewer such as ds9.`);
    return { name, bytes: await readUpTo(handle, opened.size) };
  } finally {
    await handle.close();
  }
}

/** The root holding `target` (by its path as written), or the file's own folder. */
function rootOf(target: string, roots: readonly string[]): string {
  return roots.map((root) => path.resolve(root)).find((root) => contains(root, target)) ?? path.dirname(target);
}

function contains(folder: string, inner: string): boolean {
  const relative = path.relative(folder, inner);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** Whether `inner`, links resolved, is `folder` or below it (links above the folder itself are the user's own). */
async function isInside(folder: string, inner: string): Promise<boolean> {
  return contains(await realpath(folder), await realpath(inner));
}

async function isSameFileInside(target: string, root: string, opened: Stats): Promise<boolean> {
  try {
    const real = await realpath(target);
    const there = await stat(real);
    return there.dev === opened.dev && there.ino === opened.ino && (await isInside(root, path.dirname(real)));
  } catch {
    return false;
  }
}

/** At most `size` bytes: a file growing while it is read does not make the read longer than the size checked. */
async function readUpTo(handle: FileHandle, size: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === size ? bytes : bytes.subarray(0, filled);
}
