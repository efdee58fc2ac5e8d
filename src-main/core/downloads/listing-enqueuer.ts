// Takes a listing into the ledger chunk by chunk, as it arrives, so downloads can start before its end. Each
// chunk is checked (safe names, addresses the client will fetch, files already downloaded or complete in the
// folder, paths the system takes, room on the disk for everything taken so far) and then queued in one
// transaction; a name seen in an earlier chunk is not queued again (and is refused, with why, when that listing
// places it in another folder). A file finished in another folder is taken from there instead of fetched
// (reuse-finder.ts): its job is recorded done at once.
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { checkSafeFilename } from '../../../src-shared/files/safe-filename';
import { DECOMPRESSION_FACTOR, InsufficientSpaceError, type FreeSpaceProbe } from './disk-space';
import type { DownloadLedger, Job, NewJob } from './download-ledger';
import { exists, keepBothName, type ExistingFilePolicy } from './existing-files';
import { isCompleteFitsFile } from './fits-completeness';
import { FolderPathLimit, pathBeforeName } from './path-limits';
import { isStillThere, writtenMtimeOf } from './quick-check';
import { forEachAtOnce, ReuseFinder, type ReuseBy, type Reused } from './reuse-finder';
import { TakenNames } from './taken-names';

export interface EnqueueResult {
  /** Jobs that will run (new, or resumed from an earlier run). */
  queued: number[];
  /** Files that need nothing: already downloaded, or complete in the folder. */
  skipped: { filename: string; reason: string; jobId?: number }[];
  /** Entries refused outright (unsafe names, addresses on another server). */
  rejected: { filename: string; reason: string }[];
  /**
   * Files taken from a finished download in another folder (`from`) instead of fetched; their jobs are done.
   * `notLinked`: why a file is a copy where a hard link was asked.
   */
  reused: { filename: string; from: string; jobId: number; notLinked?: string }[];
}

/** A job as it stands once queued by the enqueuer: what its progress view needs beyond the fresh queue state. */
export type QueuedJob = Pick<Job, 'id' | 'filename' | 'folder' | 'targetPath' | 'instrument' | 'product' | 'dateObs' | 'expectedSize'>;

/** What the enqueuer needs from the engine. */
export interface EnqueuerHost {
  ledger: DownloadLedger;
  /** The batch the jobs join (the command line's run); null for the app's queue. */
  batchId: string | null;
  /** True while the engine is transferring that job. */
  isRunning(id: number): boolean;
  /**
   * Why the listed download address would not be fetched (another server, not a web address), or undefined. Asked
   * for every entry: the client answers a server it found fine from memory (MlsoClient.downloadAddressRefusal).
   */
  addressProblem(url: string): string | undefined;
  freeSpace: FreeSpaceProbe;
  /** How a file finished in another folder is reused: copied (a reflink where possible, the default) or hard-linked. */
  reuseBy?: ReuseBy;
  /** Stops the work on files already on disk (the engine closing): the chunk being added then fails with it. */
  signal?: AbortSignal;
  /** Called with the jobs of a chunk once they are committed, so the workers can take them and progress show them. */
  onQueued(jobs: readonly QueuedJob[]): void;
}

/**
 * Where in the download folder an entry goes: a relative sub-folder ('' for the folder itself), from a campaign's
 * folder layout. It must stay inside the folder; the enqueuer checks that again.
 */
export type SubfolderOf = (entry: FileEntry) => string;

interface Candidate {
  entry: FileEntry;
  /** The folder the entry goes into: the download folder, or a sub-folder of it (a campaign's layout). */
  folder: string;
  /** Where the listed name would go in that folder. */
  targetPath: string;
  /** The ledger's job for that path, from this run or an earlier one. */
  known: Job | undefined;
}

interface Plan {
  entry: FileEntry;
  folder: string;
  targetPath: string;
  resume?: Job;
  /** The finished job in another folder whose file was put in place instead of fetching it. */
  reusedFrom?: Reused;
}

/** What one chunk comes to: merged into the enqueuer's result only once the chunk is queued. */
interface ChunkOutcome extends EnqueueResult {
  /** The chunk's names, each with its Placed code (the folder it was placed in, and whether it was accepted). */
  names: Map<string, Placed>;
  /** Keys the chunk added to ListingEnqueuer.oddlyCased: taken out again if the chunk fails. */
  oddlyCased: string[];
  plans: Plan[];
  /** Finished jobs of an earlier run whose files are still there: they join this batch as skipped. */
  adopted: number[];
}

/** Disk checks of one chunk run this many at once: enough to keep the thread pool busy, few enough to stay gentle. */
const DISK_CHECKS_AT_ONCE = 16;

export class ListingEnqueuer {
  /** Everything taken so far, over all chunks. */
  readonly result: EnqueueResult = { queued: [], skipped: [], rejected: [], reused: [] };
  /** Names taken so far, each with its Placed code: kept compact, a listing can hold a million. */
  private readonly seen = new TakenNames();
  /** The folders of Placed codes, by number, and their numbers. */
  private readonly folders: PlacedFolder[] = [];
  private readonly folderNumbers = new Map<string, number>();
  /** The folder of each sub-folder the layout gave (undefined: outside the download folder), worked out once each. */
  private readonly foldersBySubfolder = new Map<string, string | undefined>();
  /**
   * Accepted names whose case-folded form (see `fold`) differs from them, by `folderKey`: the first taken for each.
   * "A.fts" and "a.fts" are one file on a case-insensitive disk (macOS's and Windows' default), where the second
   * would overwrite the first and the ledger would count two. A name that is its own folded form needs no entry
   * here: `seen` finds it (see sameButCase), and listings are nearly all such names.
   */
  private readonly oddlyCased = new Map<string, string>();
  /** Sub-folders of the layout already made (or found). */
  private readonly madeFolders = new Set<string>();
  private plannedBytes = 0;
  /** Free space when the first file needed room: later chunks are counted against it, with everything before them. */
  private freeAtStart: number | undefined;
  private readonly reuseFinder: ReuseFinder;

  private constructor(
    private readonly host: EnqueuerHost,
    private readonly folder: string,
    private readonly policy: ExistingFilePolicy,
    private readonly folderNames: FolderNamesByFolder,
    private readonly subfolderOf: SubfolderOf | undefined,
  ) {
    this.madeFolders.add(folder);
    this.reuseFinder = new ReuseFinder(host.ledger, host.reuseBy ?? 'copy', host.signal);
  }

  /** An enqueuer for `folder`, which must exist and be writable; `subfolderOf` spreads the files over its sub-folders. */
  static async open(host: EnqueuerHost, folder: string, policy: ExistingFilePolicy, subfolderOf?: SubfolderOf): Promise<ListingEnqueuer> {
    return new ListingEnqueuer(host, folder, policy, new FolderNamesByFolder(), subfolderOf);
  }

  /**
   * Checks and queues one chunk of the listing. Throws InsufficientSpaceError when the files taken so far and
   * this chunk's would not fit in the space that was free at the start: then nothing of the chunk is queued or
   * remembered.
   */
  async add(entries: readonly FileEntry[]): Promise<void> {
    const chunk: ChunkOutcome = { names: new Map(), oddlyCased: [], plans: [], adopted: [], queued: [], skipped: [], rejected: [], reused: [] };
    let queued: QueuedJob[];
    try {
      const candidates = this.candidates(entries, chunk);
      await this.plan(candidates, await this.diskFacts(candidates), chunk);
      await this.checkFreeSpace(chunk.plans);
      await this.makeFolders(chunk.plans);
      await this.reuse(chunk.plans);
      queued = this.commit(chunk);
    } catch (error) {
      for (const key of chunk.oddlyCased) this.oddlyCased.delete(key);
      throw error;
    }
    for (const [name, placed] of chunk.names) this.seen.set(name, placed);
    for (const id of chunk.queued) this.result.queued.push(id);
    for (const job of queued) this.result.queued.push(job.id);
    for (const skip of chunk.skipped) this.result.skipped.push(skip);
    for (const reject of chunk.rejected) this.result.rejected.push(reject);
    for (const reused of chunk.reused) this.result.reused.push(reused);
    if (queued.length > 0) this.host.onQueued(queued);
  }

  /**
   * Finished files the caller found still there at their size, their jobs in hand (a campaign sync reads them with
   * its set): they join the run as skipped, as `add` would have them, without the checks and the look-up of `add`.
   * Their names are not remembered: the caller hands each file over once.
   */
  adoptFinished(files: readonly { jobId: number; filename: string }[]): void {
    if (files.length === 0) return;
    this.host.ledger.adoptIntoBatch(
      files.map((file) => file.jobId),
      this.host.batchId,
    );
    for (const file of files) this.result.skipped.push({ filename: file.filename, reason: 'already downloaded', jobId: file.jobId });
  }

  /** The chunk's new, safe names with the ledger's jobs for them (one query for the chunk). */
  private candidates(entries: readonly FileEntry[], chunk: ChunkOutcome): Candidate[] {
    const named: Candidate[] = [];
    for (const entry of entries) {
      const taken = chunk.names.get(entry.filename) ?? this.seen.get(entry.filename);
      if (taken !== undefined) {
        const elsewhere = this.placedElsewhere(entry, taken === NO_FOLDER ? undefined : this.folders[taken >> 1]!.path);
        if (elsewhere) chunk.rejected.push({ filename: entry.filename, reason: elsewhere });
        continue;
      }
      const candidate = this.candidate(entry, chunk);
      if (candidate) named.push(candidate);
    }
    const known = this.host.ledger.findByTargets(named.map((candidate) => candidate.targetPath));
    if (known.size > 0) for (const candidate of named) candidate.known = known.get(candidate.targetPath);
    return named;
  }

  /**
   * A name not seen before: the candidate it makes, or undefined when it is refused (its reason added to the chunk).
   * Either way the chunk remembers the name, with the folder it was placed in and whether it was taken.
   */
  private candidate(entry: FileEntry, chunk: ChunkOutcome): Candidate | undefined {
    const { filename } = entry;
    let placed = NO_FOLDER;
    const refuse = (reason: string): undefined => {
      chunk.names.set(filename, placed);
      chunk.rejected.push({ filename, reason });
      return undefined;
    };
    const safe = checkSafeFilename(filename);
    if (!safe.ok) return refuse(`unsafe file name: ${safe.reason}`);
    const addressProblem = this.host.addressProblem(entry.url);
    if (addressProblem !== undefined) return refuse(addressProblem);
    const folder = this.folderOf(entry);
    if (folder === undefined) return refuse('its place in the folder layout would be outside the folder');
    const folderNumber = this.folderNumber(folder);
    placed = folderNumber << 1;
    const { prefix, limit } = this.folders[folderNumber]!;
    const tooLong = limit.problemOf(filename);
    if (tooLong !== undefined) return refuse(tooLong);
    const folded = fold(filename);
    const sameButCase = this.sameButCase(filename, folded, folderNumber, chunk);
    if (sameButCase !== undefined) return refuse(`its name differs from "${sameButCase}" only in letter case; many disks would store both as one file`);
    chunk.names.set(filename, placed | ACCEPTED);
    if (folded !== filename) {
      const key = folderKey(folderNumber, folded);
      this.oddlyCased.set(key, filename);
      chunk.oddlyCased.push(key);
    }
    // A safe name is one plain last segment, which path.join would only append to the folder's path.
    return { entry, folder, targetPath: prefix + filename, known: undefined };
  }

  /**
   * The name accepted earlier into the same folder that differs from `name` only in letter case, if any: the
   * folded form itself (an accepted name of `seen`), or a name of `oddlyCased`. Only one of them can be there:
   * whichever came first refused the other.
   */
  private sameButCase(name: string, folded: string, folderNumber: number, chunk: ChunkOutcome): string | undefined {
    if (folded !== name && (chunk.names.get(folded) ?? this.seen.get(folded)) === ((folderNumber << 1) | ACCEPTED)) return folded;
    return this.oddlyCased.size === 0 ? undefined : this.oddlyCased.get(folderKey(folderNumber, folded));
  }

  private folderNumber(folder: string): number {
    let number = this.folderNumbers.get(folder);
    if (number === undefined) {
      number = this.folders.push({ path: folder, prefix: pathBeforeName(folder), limit: new FolderPathLimit(folder) }) - 1;
      this.folderNumbers.set(folder, number);
    }
    return number;
  }

  /** What the disk says, asked only about names that may be in the folder (usually none of a new listing's). */
  private async diskFacts(candidates: readonly Candidate[]): Promise<Map<Candidate, DiskFacts>> {
    const facts = new Map<Candidate, DiskFacts>();
    const toAsk: Candidate[] = [];
    let names: FolderNames | undefined;
    let namesOf: string | undefined;
    for (const candidate of candidates) {
      // Read once a folder, and waited for only when the folder changes (not once an entry).
      if (namesOf !== candidate.folder) {
        names = await this.folderNames.of(candidate.folder);
        namesOf = candidate.folder;
      }
      if (!names!.mayHold(candidate.entry.filename)) continue;
      const { known } = candidate;
      // A finished file's quick check, asked at once: a re-run over a million finished files asks a million times,
      // and a stat through the thread pool costs the main thread several times what the stat itself does.
      if (known?.state === 'done') facts.set(candidate, { ...NOT_ON_DISK, finishedStillThere: isStillThere(known) });
      else if (!known) toAsk.push(candidate);
    }
    await forEachAtOnce(toAsk, DISK_CHECKS_AT_ONCE, async (candidate) => {
      facts.set(candidate, { ...NOT_ON_DISK, completeInFolder: (await exists(candidate.targetPath)) && (await isCompleteFitsFile(candidate.targetPath)) });
    });
    return facts;
  }

  /** Decides, in listing order, what each candidate needs: nothing (skipped), a new job, or its old job again. */
  private async plan(candidates: readonly Candidate[], onDisk: ReadonlyMap<Candidate, DiskFacts>, chunk: ChunkOutcome): Promise<void> {
    // Target paths given to this chunk's jobs, which the ledger does not hold yet: keep-both names avoid them too.
    const promised = new Set<string>();
    for (const candidate of candidates) {
      const { entry, known } = candidate;
      const facts = onDisk.get(candidate) ?? NOT_ON_DISK;
      let targetPath = candidate.targetPath;
      if (known?.state === 'done' && facts.finishedStillThere) {
        chunk.adopted.push(known.id);
        chunk.skipped.push({ filename: entry.filename, reason: 'already downloaded', jobId: known.id });
        continue;
      }
      if (known?.state === 'active' && this.host.isRunning(known.id)) {
        chunk.queued.push(known.id);
        continue;
      }
      if (!known && facts.completeInFolder) {
        if (this.policy === 'skip') {
          chunk.skipped.push({ filename: entry.filename, reason: 'already in the folder' });
          continue;
        }
        if (this.policy === 'keep-both') {
          const localName = await keepBothName(
            candidate.folder,
            entry.filename,
            (target) => promised.has(target) || this.host.ledger.findByTarget(target) !== undefined,
          );
          targetPath = path.join(candidate.folder, localName);
        }
      }
      if (this.policy === 'keep-both') promised.add(targetPath);
      chunk.plans.push(known ? { entry, folder: candidate.folder, targetPath, resume: known } : { entry, folder: candidate.folder, targetPath });
    }
  }

  /** Puts in place the planned files finished in another folder (one ledger query for the chunk); marks their plans. */
  private async reuse(plans: Plan[]): Promise<void> {
    const placed = await this.reuseFinder.place(plans);
    if (placed.size === 0) return;
    for (const plan of plans) {
      const source = placed.get(plan.targetPath);
      if (source) plan.reusedFrom = source;
    }
  }

  /** Writes the chunk into the ledger in one transaction; returns the jobs it queued (not those reused: they are done). */
  private commit(chunk: ChunkOutcome): QueuedJob[] {
    const { ledger, batchId } = this.host;
    return ledger.transaction(() => {
      ledger.adoptIntoBatch(chunk.adopted, batchId);
      const resumed: QueuedJob[] = [];
      const fresh: FreshJob[] = [];
      const reused: { plan: Plan; from: Reused }[] = [];
      for (const plan of chunk.plans) {
        const { entry, resume, reusedFrom } = plan;
        if (reusedFrom) {
          reused.push({ plan, from: reusedFrom });
        } else if (resume) {
          ledger.requeueForBatch(resume.id, entry.url, entry.filesize, batchId);
          resumed.push(queuedJobOf(resume, resume.id, entry.filesize));
        } else {
          fresh.push(newJobOf(plan, batchId));
        }
      }
      const ids = ledger.insertMany(fresh);
      this.commitReused(reused, chunk);
      for (let index = 0; index < fresh.length; index += 1) {
        const job = fresh[index]!;
        job.id = ids[index]!;
        resumed.push(job);
      }
      return resumed;
    });
  }

  /** Records each reused file's job done, with the SHA-256 of the file it was taken from (the same bytes). */
  private commitReused(reused: readonly { plan: Plan; from: Reused }[], chunk: ChunkOutcome): void {
    const { ledger, batchId } = this.host;
    const newIds = ledger.insertMany(reused.filter(({ plan }) => !plan.resume).map(({ plan }) => ({ ...newJobOf(plan, batchId), state: 'done' as const })));
    let next = 0;
    for (const { plan, from } of reused) {
      const { source, notLinked } = from;
      let id: number;
      if (plan.resume) {
        id = plan.resume.id;
        ledger.requeueForBatch(id, plan.entry.url, plan.entry.filesize, batchId);
      } else {
        id = newIds[next++]!;
      }
      const mtimeMs = writtenMtimeOf(plan.targetPath);
      ledger.markReused(id, { sha256: source.sha256!, bytesWritten: source.bytesWritten, from: source.folder, ...(mtimeMs !== undefined ? { mtimeMs } : {}) });
      chunk.reused.push({ filename: plan.entry.filename, from: source.folder, jobId: id, ...(notLinked === undefined ? {} : { notLinked }) });
    }
  }

  /**
   * Why an entry whose name was taken already is refused: the listing places it in another folder than before
   * (one name is one file, kept in one place). Undefined for the same file listed again, which is simply skipped.
   */
  private placedElsewhere(entry: FileEntry, takenFolder: string | undefined): string | undefined {
    const folder = this.folderOf(entry);
    if (takenFolder === undefined || folder === undefined || folder === takenFolder) return undefined;
    const shown = (place: string): string => path.relative(this.folder, place).split(path.sep).join('/') || 'the folder itself';
    return `it is listed again for another place in the folder layout (${shown(folder)}, first ${shown(takenFolder)}); only the first is taken`;
  }

  /** The folder an entry goes into, or undefined when its layout sub-folder would leave the download folder. */
  private folderOf(entry: FileEntry): string | undefined {
    if (!this.subfolderOf) return this.folder;
    const subfolder = this.subfolderOf(entry);
    if (this.foldersBySubfolder.has(subfolder)) return this.foldersBySubfolder.get(subfolder);
    if (this.foldersBySubfolder.size >= MOST_SUBFOLDERS) this.foldersBySubfolder.clear();
    const folder = path.resolve(this.folder, subfolder);
    const relative = path.relative(this.folder, folder);
    const inside = relative === '' || !(relative.startsWith('..') || path.isAbsolute(relative)) ? folder : undefined;
    this.foldersBySubfolder.set(subfolder, inside);
    return inside;
  }

  /** The layout's sub-folders of a chunk, made before its jobs are committed (a worker may take them at once). */
  private async makeFolders(plans: readonly Plan[]): Promise<void> {
    for (const { folder } of plans) {
      if (this.madeFolders.has(folder)) continue;
      await mkdir(folder, { recursive: true });
      this.madeFolders.add(folder);
    }
  }

  private async checkFreeSpace(plans: readonly Plan[]): Promise<void> {
    for (const plan of plans) this.plannedBytes += plan.entry.filesize;
    const needed = Math.ceil(this.plannedBytes * DECOMPRESSION_FACTOR);
    if (needed === 0) return;
    this.freeAtStart ??= await this.host.freeSpace(this.folder);
    if (needed > this.freeAtStart) {
      for (const plan of plans) this.plannedBytes -= plan.entry.filesize;
      throw new InsufficientSpaceError(this.folder, needed, this.freeAtStart);
    }
  }
}

interface DiskFacts {
  /** A finished job's file is still there as it was written (its quick check, quick-check.ts). */
  finishedStillThere: boolean;
  /** A file the ledger does not know is in the folder, and is a complete FITS file. */
  completeInFolder: boolean;
}

/**
 * What the enqueuer remembers of a name it was given: NO_FOLDER when it was refused before it had a place, otherwise
 * the number of the folder it was placed in, shifted left once, with ACCEPTED set when it was taken (not refused).
 */
type Placed = number;
const NO_FOLDER: Placed = -1;
const ACCEPTED = 1;
const folderKey = (folderNumber: number, folded: string): string => `${folderNumber}/${folded}`;

/** A folder the enqueuer placed names in, with what each of its names is checked and joined with. */
interface PlacedFolder {
  path: string;
  /** The path with the separator a name follows. */
  prefix: string;
  limit: FolderPathLimit;
}

/** Sub-folders of a layout remembered at most (a day's folder each for 27 years): past it they are worked out again. */
const MOST_SUBFOLDERS = 10_000;

const NOT_ON_DISK: DiskFacts = { finishedStillThere: false, completeInFolder: false };

/**
 * The names in the download folder when the enqueuer began, read once: checking 100,000 listed names one by one
 * on the disk would take seconds. Only a prefilter: a name it may hold is still checked on the disk. Compared
 * case-folded and normalised, so a case-insensitive file system's "A.fts" still counts as "a.fts".
 */
class FolderNames {
  private constructor(private readonly names: ReadonlySet<string> | undefined) {}

  static async read(folder: string): Promise<FolderNames> {
    try {
      return new FolderNames(new Set((await readdir(folder)).map(fold)));
    } catch (error) {
      // A layout's sub-folder that does not exist yet holds nothing.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new FolderNames(new Set());
      // A folder that can be written but not listed: every name is asked about on the disk.
      return new FolderNames(undefined);
    }
  }

  mayHold(filename: string): boolean {
    return this.names === undefined || this.names.has(fold(filename));
  }
}

/** FolderNames of each folder a listing goes into, read when first needed. */
class FolderNamesByFolder {
  private readonly byFolder = new Map<string, Promise<FolderNames>>();

  of(folder: string): Promise<FolderNames> {
    let names = this.byFolder.get(folder);
    if (!names) {
      names = FolderNames.read(folder);
      this.byFolder.set(folder, names);
    }
    return names;
  }
}

/** A planned file's new job: its ledger row, and its queued view once `id` is set (one object a file, not two). */
type FreshJob = NewJob & QueuedJob;

/** The ledger row of a planned file that has no job yet (its id 0 until inserted). */
const newJobOf = ({ entry, folder, targetPath }: Plan, batchId: string | null): FreshJob => ({
  id: 0,
  url: entry.url,
  instrument: entry.instrument,
  product: entry.product,
  dateObs: entry['date-obs'],
  filename: entry.filename,
  folder,
  targetPath,
  expectedSize: entry.filesize,
  batchId,
});

const queuedJobOf = (job: Omit<QueuedJob, 'id' | 'expectedSize'>, id: number, expectedSize: number): QueuedJob => ({
  id,
  filename: job.filename,
  folder: job.folder,
  targetPath: job.targetPath,
  instrument: job.instrument,
  product: job.product,
  dateObs: job.dateObs,
  expectedSize,
});

const fold = (name: string): string => name.normalize('NFC').toLowerCase();
