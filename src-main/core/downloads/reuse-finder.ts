// Before a listed file is fetched, the ledger is asked whether the same file finished in another folder: the same
// address, or the same name and listed size. The old file is used only if it still has the SHA-256 recorded when it
// was written (hashed again as a stream, so the event loop keeps turning); it is then copied (a reflink where the
// file system can) or hard-linked into the new place through a temporary name and a rename, as downloads land.
// What is copied or linked is the real file whose bytes were hashed: in a git-annex or DataLad folder the old name is
// a relative symbolic link, and a hard link to the link itself would point nowhere from its new folder.
import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { copyFile, link, lstat, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { sha256OfRegularFile } from '../files/regular-file';
import type { DownloadLedger, Job } from './download-ledger';
import { temporaryNameFor } from './temporary-files';

/** How a reused file reaches its new place: its own copy (a reflink where possible), or a hard link to the old one. */
export type ReuseBy = 'copy' | 'link';

export interface ReuseWanted {
  entry: FileEntry;
  targetPath: string;
}

/** A file put in place from a finished download: the job it came from, and why it is a copy where a link was asked. */
export interface Reused {
  source: Job;
  notLinked?: string;
}

/** Hashes and copies of one chunk run this many at once. */
const AT_ONCE = 8;

/** The regular file an old download's name leads to, found intact: its real path, and what it was when hashed. */
interface IntactSource {
  realPath: string;
  stats: Stats;
}

export class ReuseFinder {
  /** Old files already hashed, by path: the real file, when it still has its recorded SHA-256. */
  private readonly stillIntact = new Map<string, Promise<IntactSource | undefined>>();

  /** `signal` stops the hashing (the engine closing): place() then rejects with it. */
  constructor(
    private readonly ledger: DownloadLedger,
    private readonly by: ReuseBy,
    private readonly signal?: AbortSignal,
  ) {}

  /**
   * Puts a finished copy of each wanted file in its place where the ledger knows one that is still intact; returns
   * what each placed file came from, by target path. A file that cannot be placed is simply not in it.
   */
  async place(wanted: readonly ReuseWanted[]): Promise<Map<string, Reused>> {
    const placed = new Map<string, Reused>();
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
      // With --link, a copy is made only when no intact old file can be linked (another on the target's disk may).
      let notLinked: { source: Job; intact: IntactSource; why: string } | undefined;
      for (const source of [...candidates, ...sameNameAndSize]) {
        if (source.targetPath === targetPath) continue;
        const intact = await this.intactSource(source);
        if (!intact) continue;
        const placing = await this.placeCopy(intact, targetPath, this.by);
        if (placing === 'placed') {
          placed.set(targetPath, { source });
          return;
        }
        if (placing !== 'failed') notLinked ??= { source, intact, why: placing.notLinked };
      }
      if (notLinked && (await this.placeCopy(notLinked.intact, targetPath, 'copy')) === 'placed') {
        placed.set(targetPath, { source: notLinked.source, notLinked: notLinked.why });
      }
    });
    return placed;
  }

  private intactSource(source: Job): Promise<IntactSource | undefined> {
    let intact = this.stillIntact.get(source.targetPath);
    if (!intact) {
      intact = this.hashed(source);
      this.stillIntact.set(source.targetPath, intact);
    }
    return intact;
  }

  /**
   * The real file behind the old name (a link there is followed: git-annex, DataLad), if it is a regular file with
   * the recorded SHA-256. A FIFO or a device is refused, not read; a stop signal ends the hashing.
   */
  private async hashed(source: Job): Promise<IntactSource | undefined> {
    try {
      const realPath = await realpath(source.targetPath);
      // The real path ends in no link; one there now is a change since realpath, not a file to follow.
      const { sha256, stats } = await sha256OfRegularFile(realPath, { finalLink: 'refuse', ...(this.signal ? { signal: this.signal } : {}) });
      return sha256 === source.sha256 ? { realPath, stats } : undefined;
    } catch (error) {
      if (this.signal?.aborted) throw error;
      return undefined;
    }
  }

  /**
   * The old file under a temporary name beside the target, then renamed: never a half-copied file under a real name.
   * A hard link that cannot be made (another file system, a link the system refuses) is said with why.
   */
  private async placeCopy(from: IntactSource, to: string, by: ReuseBy): Promise<'placed' | 'failed' | { notLinked: string }> {
    const temporary = path.join(path.dirname(to), temporaryNameFor(path.basename(to)));
    try {
      if (by === 'link') {
        const refused = await link(from.realPath, temporary).then(
          () => undefined,
          (error: NodeJS.ErrnoException) => whyNotLinked(error),
        );
        if (refused !== undefined) return { notLinked: refused };
      } else await copyFile(from.realPath, temporary, constants.COPYFILE_FICLONE);
      // What is placed must be the file that was hashed: the same file linked, or copied from it unchanged since.
      const placed = by === 'link' ? await lstat(temporary) : await stat(from.realPath);
      if (!isSameFile(placed, from.stats)) throw new Error(`${from.realPath} changed after it was checked`);
      await rename(temporary, to);
      return 'placed';
    } catch {
      // A full disk, a folder that went away, a file changed meanwhile: the file is fetched as usual.
      await rm(temporary, { force: true });
      return 'failed';
    }
  }
}

/** Why a hard link was not made, in a few words after "copied, not linked:". */
function whyNotLinked(error: NodeJS.ErrnoException): string {
  if (error.code === 'EXDEV') return 'the folders are on different file systems';
  if (error.code === 'EMLINK') return 'the file has as many hard links as the system allows';
  return 'the system refused a hard link to the file';
}

const isSameFile = (a: Stats, b: Stats): boolean => a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

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
