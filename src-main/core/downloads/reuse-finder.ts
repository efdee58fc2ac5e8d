// Before a listed file is fetched, the ledger is asked whether the same file finished in another folder: the same
// address, or the same name and listed size. The old file is used only if it still has the SHA-256 recorded when it
// was written (hashed again as a stream, so the event loop keeps turning); it is then copied (a reflink where the
// file system can) or hard-linked into the new place through a temporary name and a rename, as downloads land.
import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { copyFile, link, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileEntry } from '../../../src-shared/api/schemas';
import type { DownloadLedger, Job } from './download-ledger';
import { temporaryNameFor } from './temporary-files';

/** How a reused file reaches its new place: its own copy (a reflink where possible), or a hard link to the old one. */
export type ReuseBy = 'copy' | 'link';

export interface ReuseWanted {
  entry: FileEntry;
  targetPath: string;
}

/** Hashes and copies of one piece run this many at once. */
const AT_ONCE = 8;

export class ReuseFinder {
  /** Old files already hashed, by path: whether they still have their recorded SHA-256. */
  private readonly stillIntact = new Map<string, Promise<boolean>>();

  constructor(
    private readonly ledger: DownloadLedger,
    private readonly by: ReuseBy,
  ) {}

  /**
   * Puts a finished copy of each wanted file in its place where the ledger knows one that is still intact; returns
   * the finished job each placed file came from, by target path. A file that cannot be placed is simply not in it.
   */
  async place(wanted: readonly ReuseWanted[]): Promise<Map<string, Job>> {
    const placed = new Map<string, Job>();
    if (wanted.length === 0) return placed;
    const sources = this.ledger.findFinishedCopies(
      wanted.map(({ entry }) => entry.url),
      wanted.map(({ entry }) => entry.filename),
    );
    if (sources.length === 0) return placed;
    const byUrl = groupBy(sources, (job) => job.url);
    const byNameAndSize = groupBy(sources, (job) => sameFileKey(job.filename, job.expectedSize));
    await forEachAtOnce(wanted, AT_ONCE, async ({ entry, targetPath }) => {
      const candidates = byUrl.get(entry.url) ?? [];
      const sameNameAndSize = entry.filesize > 0 ? (byNameAndSize.get(sameFileKey(entry.filename, entry.filesize)) ?? []) : [];
      for (const source of [...candidates, ...sameNameAndSize]) {
        if (source.targetPath === targetPath || !(await this.isIntact(source))) continue;
        if (await this.placeCopy(source.targetPath, targetPath)) {
          placed.set(targetPath, source);
          return;
        }
      }
    });
    return placed;
  }

  private isIntact(source: Job): Promise<boolean> {
    let intact = this.stillIntact.get(source.targetPath);
    if (!intact) {
      intact = sha256OfFile(source.targetPath).then(
        (sha256) => sha256 === source.sha256,
        () => false,
      );
      this.stillIntact.set(source.targetPath, intact);
    }
    return intact;
  }

  /** The old file under a temporary name beside the target, then renamed: never a half-copied file under a real name. */
  private async placeCopy(from: string, to: string): Promise<boolean> {
    const temporary = path.join(path.dirname(to), temporaryNameFor(path.basename(to)));
    try {
      if (this.by === 'link') await link(from, temporary);
      else await copyFile(from, temporary, constants.COPYFILE_FICLONE);
      await rename(temporary, to);
      return true;
    } catch {
      // A full disk, a link across file systems, a folder that went away: the file is fetched as usual.
      await rm(temporary, { force: true });
      return false;
    }
  }
}

/** The SHA-256 of a file, read as a stream (a file can be hundreds of megabytes; the event loop keeps turning). */
async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

/** A name and listed size, together, as one key ("\0" is in no file name). */
const sameFileKey = (filename: string, size: number): string => `${filename}\0${size}`;

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** `work` over every item, `limit` at a time. */
export async function forEachAtOnce<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += limit) await Promise.all(items.slice(start, start + limit).map(work));
}
