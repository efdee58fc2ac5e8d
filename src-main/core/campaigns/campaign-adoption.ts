// Files of a campaign's set already in its folder that the ledger does not know (copied there by hand, a ledger
// started anew): taken in as downloaded when they are what the set expects, so they are not fetched again. Each
// destination folder is read once per sync, a prefilter: a name the folder does not hold needs no look on the disk,
// which for a first sync into an empty folder is every name (a stat per file would take minutes at a million).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { DownloadLedger } from '../downloads/download-ledger';
import { isCompleteFitsFile } from '../downloads/fits-completeness';
import { writtenMtimeOf } from '../downloads/quick-check';
import { forEachAtOnce } from '../downloads/reuse-finder';
import type { CampaignFileState } from './campaign-store';
import { sha256OfFile, sizeOfFile } from './file-facts';

/** The names in each folder when first asked about, case-folded (a case-insensitive disk's "A.fts" is "a.fts"). */
export class FolderPrefilter {
  private readonly byFolder = new Map<string, Promise<ReadonlySet<string> | undefined>>();
  /** The folders read so far, answered without waiting (a first sync asks a million times). */
  private readonly read = new Map<string, ReadonlySet<string> | undefined>();

  /**
   * False only when the folder, as read, cannot hold the name; a folder that cannot be listed may hold anything. The
   * answer comes at once for a folder read before.
   */
  mayHold(folder: string, filename: string): boolean | Promise<boolean> {
    if (this.read.has(folder)) return holds(this.read.get(folder), filename);
    let names = this.byFolder.get(folder);
    if (!names) {
      names = namesIn(folder).then((read) => {
        this.read.set(folder, read);
        return read;
      });
      this.byFolder.set(folder, names);
    }
    return names.then((read) => holds(read, filename));
  }
}

// An empty folder (a first sync's) holds nothing, and no name needs folding to know it.
const holds = (names: ReadonlySet<string> | undefined, filename: string): boolean => names === undefined || (names.size > 0 && names.has(fold(filename)));

async function namesIn(folder: string): Promise<ReadonlySet<string> | undefined> {
  try {
    return new Set((await readdir(folder)).map(fold));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? new Set() : undefined;
  }
}

/** Files checked at once: hashing keeps the thread pool busy, a few more would only queue in it. */
const CHECKS_AT_ONCE = 8;

const fold = (name: string): string => name.normalize('NFC').toLowerCase();

/**
 * Takes in the jobless files that are in the folder and are what the set expects (the SHA-256 a shared file list
 * gave, or, without one, a complete FITS file): each is recorded as a finished job, a chunk's in one transaction.
 */
export async function adoptFilesAlreadyThere(
  ledger: DownloadLedger,
  files: readonly CampaignFileState[],
  prefilter: FolderPrefilter,
  signal: AbortSignal | undefined,
): Promise<void> {
  const candidates: CampaignFileState[] = [];
  for (const file of files) {
    if (file.jobId !== null) continue;
    const mayHold = prefilter.mayHold(path.dirname(file.targetPath), file.filename);
    if (typeof mayHold === 'boolean' ? mayHold : await mayHold) candidates.push(file);
  }
  const found: { file: CampaignFileState; sha256: string; size: number; mtimeMs: number | undefined }[] = [];
  await forEachAtOnce(candidates, CHECKS_AT_ONCE, async (file) => {
    signal?.throwIfAborted();
    const size = await sizeOfFile(file.targetPath);
    if (size === undefined) return;
    if (file.expectedSha256 === null && !(await isCompleteFitsFile(file.targetPath))) return;
    // Its time before the bytes are read: a change while they are read leaves a time the next quick check will not meet.
    const mtimeMs = writtenMtimeOf(file.targetPath);
    const sha256 = await sha256OfFile(file.targetPath, signal);
    if (file.expectedSha256 !== null && sha256 !== file.expectedSha256) return;
    found.push({ file, sha256, size, mtimeMs });
  });
  if (found.length === 0) return;
  ledger.transaction(() => {
    const ids = ledger.insertMany(
      found.map(({ file }) => ({
        url: file.url,
        instrument: file.instrument,
        product: file.product,
        dateObs: file.dateObs,
        filename: file.filename,
        folder: path.dirname(file.targetPath),
        targetPath: file.targetPath,
        expectedSize: file.filesize,
        batchId: null,
        state: 'done' as const,
      })),
    );
    found.forEach(({ sha256, size, mtimeMs }, index) =>
      ledger.markDone(ids[index]!, { sha256, bytesReceived: 0, bytesWritten: size, ...(mtimeMs !== undefined ? { mtimeMs } : {}) }),
    );
  });
}
