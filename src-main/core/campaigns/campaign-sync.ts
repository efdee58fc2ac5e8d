// Syncing a campaign: list every query, keep the files in the campaign's set (duplicates across queries once),
// take in files already in the folder that are what the set expects, and queue through the engine only what is
// missing, lost or changed. A file the listing places elsewhere than before moves there (campaign-moves), and a file
// that is not the one a shared file list named (another SHA-256) is reported and counted apart. The same code serves
// the command line (which then waits for the queue) and the app; its summary is counted by the campaign's own counts
// (campaignCounts), so it says what the card says: downloaded, already there, failed, and queued while files move.
//
// A sync streams: each chunk of a listing is recorded, its files already in the folder taken in and the rest queued
// before the next chunk is read, so a million-file campaign is never in memory, and its report is counted in SQL.
// A query is listed in windows of fixed bounds (calendar months, fixedWindows); a window whose listing has settled
// (campaign-windows.ts) is not listed again: its listing is trusted to the ledger, never its files on disk. Every
// finished file of the set is looked at while the listings are read (quick-check-pass.ts: exists, size and
// modification time as written); one that is gone or changed is marked so and queued, and of the files no window
// listed this time, those the ledger does not say are downloaded are queued. Queries with `every` or `cr` are not
// windowed and are listed whole at every sync, as before.
//
// A window remembers the server it was listed from: a file to fetch in a settled window listed from another server
// (the service moved to https, or to a mirror) has its window listed again from the server the sync asks now, so
// its address is that server's; the other-host rule still holds for what a server lists. The campaign remembers every
// server its queries were listed from: a file to fetch whose address is on one of them and that the server of this
// sync was asked about (a window or a whole query holding it) but did not list is refused, saying so; any other
// follows the server of this sync (campaign-addresses.ts), never asking to allow other servers.
import path from 'node:path';
import type { FileEntry } from '../../../src-shared/api/schemas';
import type { CampaignQuery, CampaignSyncPhase, DifferingFile, SyncCounts, SyncReport } from '../../../src-shared/campaigns/campaign-types';
import type { ExistingFilePolicy } from '../../../src-shared/downloads/existing-file-policy';
import { tallyReused } from '../../../src-shared/downloads/reused-files';
import { checkSafeFilename } from '../../../src-shared/files/safe-filename';
import type { MlsoClient } from '../api/mlso-client';
import type { DownloadEngine } from '../downloads/download-engine';
import type { DownloadLedger, Job } from '../downloads/download-ledger';
import type { ListingEnqueuer } from '../downloads/listing-enqueuer';
import { listedBit, type CampaignFileState, type CampaignStore, type ListedBy, type StoredCampaign, type SyncCountsOfSet } from './campaign-store';
import { CampaignFilePaths, entryOfStored } from './campaign-paths';
import { CancelledError } from '../errors';
import { moveToListedPlaces } from './campaign-moves';
import { fixedWindows, type FixedWindow } from '../api/listing-windows';
import { parseUtTimestamp } from '../../../src-shared/filters/ut-timestamp';
import { DEFAULT_SETTLE_DAYS, WindowDigest, isSettled, type ListedWindow } from './campaign-windows';
import { adoptFilesAlreadyThere, FolderPrefilter } from './campaign-adoption';
import { TakenNames } from '../downloads/taken-names';
import type { StateDatabase } from '../state/state-database';
import { QuickCheckPass, type QuickCheckResult } from './quick-check-pass';
import { isStillThere } from '../downloads/quick-check';
import { CHANGED_ON_DISK, MISSING_ON_DISK } from '../../../src-shared/campaigns/file-standing';
import { ApiServer } from '../api/api-server';
import { CampaignAddresses } from './campaign-addresses';

export interface SyncDeps {
  store: CampaignStore;
  ledger: DownloadLedger;
  engine: DownloadEngine;
  client: MlsoClient;
  /** The database the store and the ledger share: the quick check reads the finished files from it narrowly. */
  state: StateDatabase;
  /** A file in the folder that is not what the set expects: replaced (the default) or left alone. */
  existingFiles?: Exclude<ExistingFilePolicy, 'keep-both'>;
  /** A window closed this many days before its last complete listing is not listed again (DEFAULT_SETTLE_DAYS). */
  settleDays?: number;
  /** List every window again, settled or not. */
  full?: boolean;
  signal?: AbortSignal;
  onPhase?: (phase: CampaignSyncPhase, listed: number) => void;
}

/** What a sync did with its queries' windows. */
interface WindowTally {
  /** Windows listed (again). */
  listed: number;
  /** Windows left as they were: settled. */
  settled: number;
  /** Windows listed again whose entries are not those of their last complete listing (their digest changed). */
  changed: number;
}

/** What a sync found before the queue ran: enough to report again once it has (the command line waits for it). */
export interface SyncRun {
  campaignId: number;
  report: SyncReport;
  windows: WindowTally;
  /** The report again, from the ledger as it stands now. */
  refresh(): SyncReport;
}

/** Files read from the set and handed to the queue at a time beyond the listings: one ledger transaction each. */
const QUEUE_PIECE = 1000;

/** A sync stopped by its signal ends with CancelledError, whichever step it was in. */
export async function syncCampaign(deps: SyncDeps, campaign: StoredCampaign): Promise<SyncRun> {
  try {
    return await syncSteps(deps, campaign);
  } catch (error) {
    if (deps.signal?.aborted) throw new CancelledError('The sync');
    throw error;
  }
}

async function syncSteps(deps: SyncDeps, campaign: StoredCampaign): Promise<SyncRun> {
  const sync = new StreamingSync(deps, campaign, new Date().toISOString());
  deps.onPhase?.('listing', 0);
  const check = new QuickCheckPass(deps.state, campaign.id, deps.signal ? { signal: deps.signal } : {});
  const countSet = (): SyncCountsOfSet => deps.store.syncCounts(campaign.id, sync.at, campaign.queries.length);
  let counted: SyncCountsOfSet;
  try {
    for (const [position, query] of campaign.queries.entries()) await sync.listQuery(query, position);
    // Every window listed and nothing refused: a file of the set this sync did not name is no longer in the archive.
    if (sync.windows.settled === 0 && sync.refused.length === 0) deps.store.recordListedWhole(campaign.id, sync.at);
    deps.onPhase?.('checking', sync.listedCount);
    // Each pass over a million-file set takes seconds: the report's counts say whether any file is left to queue
    // beyond the listings, and are counted again only when some were (a sync with nothing new passes once). The
    // first pass runs while the check's threads look at the disk; a file they find gone or changed is marked
    // failed after it, and the set is then counted again.
    counted = countSet();
    sync.takeQuickCheck(await check.finish());
  } finally {
    await check.close();
  }
  const foundGoneOrChanged = sync.foundChanged.length > 0;
  if (foundGoneOrChanged) counted = countSet();
  const queuedMore = counted.notDoneUnlisted > 0 || foundGoneOrChanged;
  if (counted.notDoneUnlisted > 0) {
    await sync.listAgainFromThisServer();
    await sync.queueTheRest();
  }
  await sync.queueFoundListed();
  if (queuedMore) counted = countSet();
  deps.onPhase?.('queueing', sync.listedCount);
  const reused = tallyReused(sync.enqueuerResult?.reused ?? []);
  const refresh = (): SyncReport => ({ ...reportOf(deps.store, campaign, sync, countSet()), reused });
  const report = { ...reportOf(deps.store, campaign, sync, counted), reused };
  deps.store.recordSync(campaign.id, report);
  return { campaignId: campaign.id, report, windows: sync.windows, refresh };
}

/** One sync's way through the listings, chunk by chunk, and what it found on the way. */
class StreamingSync {
  listedCount = 0;
  readonly windows: WindowTally = { listed: 0, settled: 0, changed: 0 };
  readonly refused: SyncReport['refused'] = [];
  readonly moved: SyncReport['moved'] = [];
  /** Files new to the set, by the query that listed them first. */
  readonly addedByQuery: number[] = [];
  private readonly refusedNames = new Set<string>();
  private readonly prefilter = new FolderPrefilter();
  /**
   * Each queued entry's sub-folder in the layout, while its chunk is in the listing enqueuer (which asks only then):
   * a Map emptied after each chunk costs V8 less than a WeakMap of a million entries.
   */
  private readonly subfolders = new Map<FileEntry, string>();
  private enqueuer: ListingEnqueuer | undefined;
  private readonly filePaths: CampaignFilePaths;
  /** The API's base URL this sync lists from, which each window it lists remembers. */
  private readonly server: string;
  /** Windows left as they were (settled), with what listing one again needs. */
  private readonly settledWindows: SettledWindow[] = [];
  /** The campaign's remembered addresses as the server of this sync gives them. */
  private readonly addresses: CampaignAddresses;
  /** What the server of this sync was asked about (by this sync, or by one before for a window settled since). */
  private readonly askedHere: ListedSpan[] = [];
  private serverRecorded = false;
  /** Finished files the quick check found gone or changed, and marked so (their relative paths, by what was found). */
  readonly foundOnDisk: { missing: string[]; changed: string[] } = { missing: [], changed: [] };

  constructor(
    private readonly deps: SyncDeps,
    private readonly campaign: StoredCampaign,
    readonly at: string,
  ) {
    this.filePaths = new CampaignFilePaths(campaign.folder, campaign.layout);
    this.server = deps.client.settings.baseUrl;
    this.addresses = new CampaignAddresses(this.server, deps.store.serversListedFrom(campaign.id));
  }

  /** The files the quick check found gone or changed (marked so in the ledger): every one is fetched again. */
  get foundChanged(): string[] {
    return [...this.foundOnDisk.missing, ...this.foundOnDisk.changed];
  }

  get enqueuerResult(): ListingEnqueuer['result'] | undefined {
    return this.enqueuer?.result;
  }

  /** Lists the query's windows that can still change (all with `full`), or the whole query when it is not windowed. */
  async listQuery(query: CampaignQuery, position: number): Promise<void> {
    const { client, store } = this.deps;
    const request = { instrument: query.instrument, product: query.product, filters: query.filters };
    const options = this.deps.signal ? { signal: this.deps.signal } : {};
    const listedBy = { at: this.at, bit: listedBit(position) };
    this.addedByQuery[position] = 0;
    if (!this.serverRecorded) store.recordServerListedFrom(this.campaign.id, this.server);
    this.serverRecorded = true;
    const checked = await client.checkFilesRequest(request, options);
    const firstMs = checked['start-date'] === undefined ? await this.firstInstant(query.instrument) : 0;
    // An instrument whose first day cannot be read gives no fixed bounds: the query is listed whole, as before windows.
    const windows = firstMs === undefined ? undefined : fixedWindows(checked, firstMs, Date.now());
    if (!windows) {
      this.askedHere.push({ instrument: query.instrument, start: '', end: WHOLE_END });
      const names = new TakenNames();
      await client.streamFiles(
        request,
        async (entries) => {
          await this.take(entries, listedBy, position, names);
        },
        options,
      );
      return;
    }
    const remembered = store.windows(this.campaign.id, query);
    const take = (entries: FileEntry[], names: TakenNames): Promise<number> => this.take(entries, listedBy, position, names);
    for (const window of windows) {
      const last = remembered.get(window.start);
      if (!this.deps.full && isSettled(last, window, this.deps.settleDays ?? DEFAULT_SETTLE_DAYS)) {
        this.windows.settled += 1;
        this.settledWindows.push({ query, request, window, last: last!, take });
        if (last!.listedFrom === this.server) this.askedHere.push(spanOf(query, window));
        continue;
      }
      await this.listWindow(query, request, window, last, take);
    }
  }

  /**
   * What the quick check found, into the ledger: the times of files looked at for the first time, and the files gone
   * or changed, failed as verify would fail them (missing or changed on disk), so that the counts say so until they
   * are fetched again. Only jobs still finished at the place looked at are marked.
   */
  takeQuickCheck(result: QuickCheckResult): void {
    const { ledger } = this.deps;
    ledger.recordWrittenTimes(result.firstLooks);
    const byId = new Map(result.failed.map((failure) => [failure.jobId, failure]));
    const marked = ledger.failFinished(
      result.failed.map((failure) => {
        const filename = path.posix.basename(failure.relativePath);
        const message =
          failure.verdict === 'missing'
            ? `${filename} is no longer on disk; sync fetches it again.`
            : `${filename} is not as it was downloaded (its size or modification time differs); sync fetches it again.`;
        return { id: failure.jobId, targetPath: failure.targetPath, kind: failure.verdict === 'missing' ? MISSING_ON_DISK : CHANGED_ON_DISK, message };
      }),
    );
    for (const id of marked) {
      const failure = byId.get(id)!;
      this.foundOnDisk[failure.verdict].push(failure.relativePath);
    }
  }

  /**
   * Lists again the settled windows listed from another server (or from one not remembered) that hold a file to
   * fetch: the server the sync asks now gives its address. A window that needs nothing keeps its listing.
   */
  async listAgainFromThisServer(): Promise<void> {
    const elsewhere = this.settledWindows.filter((settled) => settled.last.listedFrom !== this.server);
    if (elsewhere.length === 0) return;
    const spans = elsewhere.map((settled) => ({ settled, span: spanOf(settled.query, settled.window) }));
    const again = new Set<SettledWindow>();
    for (let after = ''; again.size < elsewhere.length;) {
      this.deps.signal?.throwIfAborted();
      const page = this.deps.store.filesNotDone(this.campaign.id, this.at, after, QUEUE_PIECE);
      if (page.length === 0) break;
      after = page.at(-1)!.relativePath;
      for (const file of page) for (const { settled, span } of spans) if (holds(span, file)) again.add(settled);
    }
    for (const settled of again) {
      await this.listWindow(settled.query, settled.request, settled.window, settled.last, settled.take);
      this.windows.settled -= 1;
    }
  }

  /** The files listed this sync that the quick check found gone or changed: queued now (the rest were, with the rest). */
  async queueFoundListed(): Promise<void> {
    const found = this.foundChanged;
    for (let from = 0; from < found.length; from += QUEUE_PIECE) {
      const files = this.deps.store.filesAt(this.campaign.id, found.slice(from, from + QUEUE_PIECE));
      const left = files.filter((file) => file.state === 'failed' && (file.lastErrorKind === MISSING_ON_DISK || file.lastErrorKind === CHANGED_ON_DISK));
      if (left.length > 0) await this.queue(left);
    }
  }

  private async listWindow(
    query: CampaignQuery,
    request: { instrument: string; product: string; filters: CampaignQuery['filters'] },
    window: FixedWindow,
    last: ListedWindow | undefined,
    take: (entries: FileEntry[], names: TakenNames) => Promise<number>,
  ): Promise<void> {
    const { client, store } = this.deps;
    this.askedHere.push(spanOf(query, window));
    const listedAt = new Date().toISOString();
    // Begun, not complete: a listing cut short (cancelled, an error half-way) is listed again by the next sync.
    const begun = { start: window.start, end: window.end, listedAt, entries: last?.entries ?? 0, digest: last?.digest ?? null, listedFrom: this.server };
    store.recordWindow(this.campaign.id, query, { ...begun, complete: false });
    const digest = new WindowDigest();
    const names = new TakenNames();
    let refused = 0;
    await client.streamWindow(
      request,
      window,
      async (entries) => {
        for (const entry of entries) digest.add(entry);
        refused += await take(entries, names);
      },
      this.deps.signal ? { signal: this.deps.signal } : {},
    );
    const digestNow = digest.digest();
    // A window with files refused (another server, an unsafe name) is not taken as settled: what refused them may
    // change (--allow-other-hosts), and the next sync lists it again to take them.
    store.recordWindow(this.campaign.id, query, { ...begun, complete: refused === 0, entries: digest.entries, digest: digestNow });
    this.windows.listed += 1;
    if (last?.digest && last.digest !== digestNow) this.windows.changed += 1;
  }

  /** Where a query with no start-date begins: the instrument's first day, so that its windows are the same each time. */
  private async firstInstant(instrument: string): Promise<number | undefined> {
    const first = (await this.deps.client.instrument(instrument, this.deps.signal ? { signal: this.deps.signal } : {})).dates['start-date'];
    const parsed = parseUtTimestamp(first.slice(0, 19));
    return parsed.ok ? parsed.value.epochMs : undefined;
  }

  /**
   * A chunk of a listing: recorded in the set (moved first when the listing places a file elsewhere), then its files
   * already in the folder taken in and the rest queued. `names` are the listing's names so far (off the heap: a
   * month of KCor is 170,000): a name listed again is one file, kept at its first place.
   */
  private async take(entries: FileEntry[], listedBy: ListedBy, position: number, names: TakenNames): Promise<number> {
    const records: CampaignFileState[] = [];
    let refused = 0;
    for (const entry of entries) {
      if (names.has(entry.filename)) continue;
      const record = fileOfListed(entry, this.filePaths, this.deps.client, this.at);
      if ('refused' in record) {
        this.refuse({ filename: entry.filename, reason: record.refused });
        names.set(entry.filename, 0);
        refused += 1;
        continue;
      }
      names.set(entry.filename, 0);
      records.push(record);
    }
    this.listedCount += entries.length;
    this.deps.onPhase?.('listing', this.listedCount);
    if (records.length === 0) return refused;
    const { store, ledger } = this.deps;
    const named = store.filesNamed(
      this.campaign.id,
      records.map((record) => record.filename),
    );
    // A named file at another place than its record is moved there; what was read of the set then no longer holds.
    const recordPaths = new Set(records.map((record) => record.relativePath));
    const inPlace = named.every((file) => recordPaths.has(file.relativePath));
    if (!inPlace) for (const move of await moveToListedPlaces(this.deps, this.campaign, records, named)) this.moved.push(move);
    const added = store.recordFiles(this.campaign.id, records, listedBy, inPlace ? named : undefined);
    this.addedByQuery[position] = (this.addedByQuery[position] ?? 0) + added;
    // The chunk's files as they now stand, from what was read before recording them: the set's files of its names
    // (with the listing's address and size) and, for names new to the set, whatever job the ledger has at their
    // places. Read back only when a file moved.
    const files = inPlace ? filesAsRecorded(records, named, ledger) : store.filesAt(this.campaign.id, [...recordPaths]);
    await this.queue(files);
    return refused;
  }

  /**
   * The files of the set no listing of this sync named that the ledger does not say are downloaded (never fetched,
   * failed, found missing or changed by verify, queued by a sync cut short), a page at a time.
   */
  async queueTheRest(): Promise<void> {
    for (let after = ''; ;) {
      this.deps.signal?.throwIfAborted();
      const page = this.deps.store.filesNotDone(this.campaign.id, this.at, after, QUEUE_PIECE);
      if (page.length === 0) return;
      after = page.at(-1)!.relativePath;
      await this.queue(this.addresses.moved ? this.onThisServer(page) : page);
    }
  }

  /**
   * The files whose remembered address is on a server the campaign was listed from before, at their address on the
   * server of this sync; those this server was asked about and did not list are refused instead, saying so: allowing
   * other servers is not the answer for the campaign's own files.
   */
  private onThisServer(files: readonly CampaignFileState[]): CampaignFileState[] {
    const kept: CampaignFileState[] = [];
    for (const file of files) {
      const former = this.addresses.formerServerOf(file.url);
      if (former === undefined) kept.push(file);
      else if (!this.askedHere.some((span) => holds(span, file))) kept.push({ ...file, url: this.addresses.follow(file.url) });
      else
        this.refuse({
          filename: file.filename,
          reason: `its address is on ${new ApiServer(former).host}, where this campaign was synced from before, and ${new ApiServer(this.server).host} does not list it now`,
        });
    }
    return kept;
  }

  /**
   * Takes in the files already in the folder, then hands the files to the listing enqueuer, which skips those
   * downloaded and still there and reuses those finished in another folder.
   */
  private async queue(files: readonly CampaignFileState[]): Promise<void> {
    this.deps.signal?.throwIfAborted();
    await adoptFilesAlreadyThere(this.deps.ledger, files, this.prefilter, this.deps.signal);
    const enqueuer = await this.openEnqueuer();
    // Files downloaded and still there (a relisted window's, nearly all) need nothing but to join the run: their jobs
    // came with them, so the enqueuer neither checks them again nor looks their jobs up (seconds at a million).
    const finished: { jobId: number; filename: string }[] = [];
    const rest: CampaignFileState[] = [];
    for (const file of files) {
      // A file of the set before this sync is looked at by the quick check, which runs meanwhile; one new to the set
      // (downloaded through Browse, say) is looked at here.
      if (file.state === 'done' && file.jobId !== null && (file.firstSeenAt < this.at || isStillThere(file)))
        finished.push({ jobId: file.jobId, filename: file.filename });
      else rest.push(file);
    }
    enqueuer.adoptFinished(finished);
    const entries = rest.map((file) => {
      const entry = entryOfStored(file);
      const folder = path.posix.dirname(file.relativePath);
      this.subfolders.set(entry, folder === '.' ? '' : folder);
      return entry;
    });
    try {
      if (entries.length > 0) await enqueuer.add(entries);
    } finally {
      this.subfolders.clear();
    }
    // Files of the set the queue refuses now (recorded while other servers were allowed, say) are reported with
    // the reason, not only counted as missing.
    const rejected = enqueuer.result.rejected;
    for (const refusal of rejected.splice(0, rejected.length)) this.refuse(refusal);
  }

  private refuse(refusal: SyncReport['refused'][number]): void {
    if (this.refusedNames.has(refusal.filename)) return;
    this.refusedNames.add(refusal.filename);
    this.refused.push(refusal);
  }

  private async openEnqueuer(): Promise<ListingEnqueuer> {
    this.enqueuer ??= await this.deps.engine.openEnqueuer(this.campaign.folder, {
      existingFiles: this.deps.existingFiles ?? 'overwrite',
      subfolderOf: (entry) => this.subfolders.get(entry) ?? '',
    });
    return this.enqueuer;
  }
}

/** A window a sync left as it was (settled), with what listing it again takes. */
interface SettledWindow {
  query: CampaignQuery;
  request: { instrument: string; product: string; filters: CampaignQuery['filters'] };
  window: FixedWindow;
  last: ListedWindow;
  take: (entries: FileEntry[], names: TakenNames) => Promise<number>;
}

/** A listing's reach: a window of a query of the instrument, or (from '' to WHOLE_END) a query listed whole. */
interface ListedSpan {
  instrument: string;
  start: string;
  end: string;
}

/** Past every observation time. */
const WHOLE_END = '\uffff';

const spanOf = (query: CampaignQuery, window: FixedWindow): ListedSpan => ({ instrument: query.instrument, start: window.start, end: window.end });

/**
 * Whether a listing of `span` may have named `file`: one of its instrument observed within its bounds (the bounds are
 * its query's). A file with no observation time is within a whole listing only.
 */
const holds = (span: ListedSpan, file: { instrument: string; dateObs: string | null }): boolean =>
  span.instrument === file.instrument && (file.dateObs === null ? span.start === '' : file.dateObs >= span.start && file.dateObs < span.end);

/**
 * A listed entry as a campaign file first seen at `firstSeenAt` and as yet without a job (filesAsRecorded gives it the
 * ledger's, if any: one object a file from listing to queue), or why it cannot be one.
 */
function fileOfListed(entry: FileEntry, paths: CampaignFilePaths, client: MlsoClient, firstSeenAt: string): CampaignFileState | { refused: string } {
  const safe = checkSafeFilename(entry.filename);
  if (!safe.ok) return { refused: `unsafe file name: ${safe.reason}` };
  // Refused here as the listing enqueuer would refuse it, so the sync's report says why the file is not fetched.
  const addressRefusal = client.downloadAddressRefusal(entry.url);
  if (addressRefusal) return { refused: addressRefusal.message };
  const { relativePath, targetPath } = paths.of(entry);
  return {
    relativePath,
    targetPath,
    filename: entry.filename,
    url: entry.url,
    instrument: entry.instrument,
    product: entry.product,
    dateObs: entry['date-obs'],
    waveRegion: textOrNull(entry['wave-region']),
    obsPlan: textOrNull(entry['obs-plan']),
    filesize: entry.filesize,
    expectedSha256: null,
    firstSeenAt,
    jobId: null,
    state: null,
    sha256: null,
    bytesWritten: 0,
    startedAt: null,
    finishedAt: null,
    lastError: null,
    lastErrorKind: null,
    writtenMtimeMs: null,
    checkedMtimeMs: null,
    reusedFrom: null,
    noLongerListed: false,
  };
}

/**
 * A chunk's files as recordFiles left them, none moved: those of the set (`stored`, read before) with the address,
 * size and shared hash the listing gave; the others just added, given the ledger's job at each place when there is
 * one (downloaded through Browse, say).
 */
function filesAsRecorded(records: readonly CampaignFileState[], stored: readonly CampaignFileState[], ledger: DownloadLedger): CampaignFileState[] {
  const byPath = new Map(stored.map((file) => [file.relativePath, file]));
  const added = byPath.size === 0 ? records : records.filter((record) => !byPath.has(record.relativePath));
  const jobs = added.length > 0 ? ledger.findByTargets(added.map((record) => record.targetPath)) : new Map<string, Job>();
  return records.map((record) => {
    const file = byPath.get(record.relativePath);
    if (file)
      return { ...file, url: record.url, filesize: record.filesize, expectedSha256: record.expectedSha256 ?? file.expectedSha256, noLongerListed: false };
    const job = jobs.get(record.targetPath);
    // Its job written into the same object (of the same shape): a new object, or a spread, per file cost V8 more.
    if (job) {
      record.jobId = job.id;
      record.state = job.state;
      record.sha256 = job.sha256;
      record.bytesWritten = job.bytesWritten;
      record.startedAt = job.startedAt;
      record.finishedAt = job.finishedAt;
      record.lastError = job.lastError;
      record.lastErrorKind = job.lastErrorKind;
      record.writtenMtimeMs = job.writtenMtimeMs;
      record.checkedMtimeMs = job.checkedMtimeMs;
      record.reusedFrom = job.reusedFrom;
    }
    return record;
  });
}

function textOrNull(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

/**
 * The report from one pass's counts (CampaignStore.syncCounts). Each query's row by the same function as the
 * campaign's counts, over the files it listed this time; the total is the campaign's counts themselves (the card's),
 * from this sync's start: it covers the whole set, files listed by an earlier sync (or a shared list), and those of
 * settled windows, too.
 */
function reportOf(store: CampaignStore, campaign: StoredCampaign, sync: StreamingSync, counted: SyncCountsOfSet): SyncReport {
  const { total: totalCounts, byQuery, listed, duplicates } = counted;
  const queries = campaign.queries.map((query: CampaignQuery, position) => {
    const { files: listedByQuery, ...counts } = byQuery[position]!;
    return { query, listed: listedByQuery, new: sync.addedByQuery[position] ?? 0, ...counts };
  });
  const { files: _files, ...counts } = totalCounts;
  const added = sync.addedByQuery.reduce((sum, count) => sum + count, 0);
  const total: SyncCounts = { listed, new: added, ...counts };
  // The files that differ are read only when the counts found some (a shared list's hash not met: seldom).
  const differing: DifferingFile[] = (totalCounts.differs === 0 ? [] : store.filesWithOtherSha256(campaign.id))
    .filter((file) => file.standing === 'differs')
    .map((file) => ({ path: file.relativePath, filename: file.filename, expectedSha256: file.expectedSha256!, sha256: file.sha256! }));
  const foundOnDisk = { missing: sync.foundOnDisk.missing.length, changed: sync.foundOnDisk.changed.length };
  return { campaign: campaign.name, at: sync.at, queries, total, duplicates, refused: sync.refused, moved: sync.moved, differing, foundOnDisk };
}
