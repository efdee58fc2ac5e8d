// Everything a front end does with campaigns, on top of the store, the API client and the download engine: the
// command line and the app's handlers both call this, so a campaign behaves the same in either.
import path from 'node:path';
import { autoSyncHoursProblem } from '../../../src-shared/campaigns/auto-sync-hours';
import { campaignSlug, checkCampaignName } from '../../../src-shared/campaigns/campaign-name';
import type {
  CampaignDraft,
  CampaignExport,
  CampaignExportFormat,
  CampaignCounts,
  CampaignOverview,
  CampaignQuery,
  SyncReport,
  VerifyReport,
} from '../../../src-shared/campaigns/campaign-types';
import { checkLayout } from '../../../src-shared/campaigns/folder-layout';
import { checkFilters, type FileFilters } from '../../../src-shared/filters/filter-rules';
import type { MlsoClient } from '../api/mlso-client';
import type { DownloadEngine } from '../downloads/download-engine';
import type { DownloadLedger } from '../downloads/download-ledger';
import { CancelledError, InvalidInputError } from '../errors';
import type { StateDatabase } from '../state/state-database';
import { CampaignBackups } from './campaign-backups';
import { MAX_CAMPAIGN_FILE_BYTES, writeCampaignFile } from './campaign-file';
import { CampaignFileReader } from './campaign-file-reader';
import { entryOfStored, relativePathOf } from './campaign-paths';
import { acknowledgement, manifestCsv, manifestJson, manifestRows } from './campaign-manifest';
import { CampaignAddresses } from './campaign-addresses';
import { CampaignStore, type CampaignChange, type StoredCampaign } from './campaign-store';
import { syncCampaign, type SyncDeps, type SyncRun } from './campaign-sync';
import { verifyCampaign, type VerifyDeps } from './campaign-verify';
import { moveToLayoutPlaces, planLayoutMoves, type LayoutMoves, type PlannedMove } from './campaign-relayout';
import { sharedFileRecords } from './shared-file-list';

export interface CampaignServiceDeps {
  ledger: DownloadLedger;
  /** The database the ledger and the campaigns share (opened with both their tables). */
  state: StateDatabase;
  client: MlsoClient;
  /** Where each campaign's copy is kept; beside the ledger unless given (none for a ledger in memory). */
  backups?: CampaignBackups;
}

/** Told what finishing a layout change that was stopped half-way did, before a sync or verify went on. */
export interface FinishesLayoutChange {
  onLayoutFinished?: (moves: LayoutMoves, layout: string) => void;
}

export type SyncOptions = Pick<SyncDeps, 'existingFiles' | 'settleDays' | 'full' | 'signal' | 'onPhase'> & FinishesLayoutChange;

export interface ImportOptions {
  /** The campaign's folder; by default, a folder named after it in `defaultParent`. */
  folder?: string;
  /** A name of the user's own instead of the file's. */
  name?: string;
  defaultParent: string;
  /** The largest file taken in (MAX_CAMPAIGN_FILE_BYTES unless given). */
  maxBytes?: number;
}

export interface ImportResult {
  campaign: StoredCampaign;
  /** Files of the list refused (unsafe names), with why: the first thousand. */
  refused: { filename: string; reason: string }[];
  /** Files refused beyond those. */
  moreRefused: number;
  /** The automatic sync the file asked for (hours), which the campaign did not take: the user turns it on. */
  autoSyncNotTaken: number | null;
}

/** A campaign changed, and what a new layout did with the files already in its folder (null when it had none). */
export interface CampaignChangeResult {
  campaign: StoredCampaign;
  moves: LayoutMoves | null;
  /** An earlier layout change, stopped half-way, finished before this one: to its layout, `layout`. */
  finished: (LayoutMoves & { layout: string }) | null;
}

/** The app's text is fed to the reader this many characters at a time (not encoded whole, twice its size again). */
const TEXT_PIECE = 1024 * 1024;
const REFUSALS_KEPT = 1000;

export class CampaignService {
  readonly store: CampaignStore;
  /** Campaigns being synced now (by id): a second sync of the same one waits for nothing and is refused. */
  private readonly syncing = new Set<number>();
  /** The last sync of a campaign (by id) whose files were still queued when it ended: its report is made again once they are not. */
  private readonly unsettled = new Map<number, SyncRun>();
  private readonly backups: CampaignBackups | undefined;

  constructor(private readonly deps: CampaignServiceDeps) {
    this.store = new CampaignStore(deps.state);
    this.backups = deps.backups ?? CampaignBackups.beside(deps.state);
  }

  /** A campaign as the card and `campaign show/list --json` show it: one set of counts, which its last sync's total repeats. */
  overview(campaign: StoredCampaign): CampaignOverview {
    return this.overviewWith(campaign, this.store.counts(campaign.id, campaign.lastSyncAt));
  }

  private overviewWith(campaign: StoredCampaign, counts: CampaignCounts): CampaignOverview {
    const { id: _id, lastSync, ...rest } = campaign;
    return { ...rest, counts, syncing: this.syncing.has(campaign.id), lastSync: lastSync && this.lastSyncNow(campaign.id, lastSync, counts) };
  }

  /**
   * The last sync's report as things stand: it was recorded when the sync had queued its files, so its total takes
   * the campaign's counts now (the same numbers, counted since the sync started: the card and the summary cannot
   * disagree), and once its files are no longer queued, the whole report (each query's row too) is made again and
   * recorded.
   */
  private lastSyncNow(id: number, report: SyncReport, counts: CampaignCounts): SyncReport {
    const run = this.unsettled.get(id);
    if (run && counts.queued === 0) {
      this.unsettled.delete(id);
      const settled = run.refresh();
      this.store.recordSync(id, settled);
      return settled;
    }
    return withTotal(report, counts);
  }

  overviews(): CampaignOverview[] {
    return this.store.list().map((campaign) => this.overview(campaign));
  }

  /** A query as typed, checked against the product's own filter list (the server's metadata) and the shared rules. */
  async checkQuery(instrument: string, product: string, filters: FileFilters): Promise<CampaignQuery> {
    const metadata = await this.deps.client.productMetadata(instrument, product);
    const checked = checkFilters(filters, metadata.filters, `${metadata.title} (${instrument} ${product})`);
    if (!checked.ok) throw new InvalidInputError(checked.problems);
    return { instrument, product, filters: checked.query };
  }

  async create(draft: CampaignDraft): Promise<StoredCampaign> {
    const name = checkedName(draft.name);
    if (!draft.folder) throw new InvalidInputError('Say which folder the campaign keeps its files in.');
    if (draft.queries.length === 0) throw new InvalidInputError('A campaign needs at least one query (an instrument and a product).');
    const queries = await this.checkQueries(draft.queries);
    const campaign = {
      name,
      folder: checkedFolder(draft.folder),
      layout: checkedLayout(draft.layout ?? ''),
      queries,
      autoSyncHours: checkedAutoSync(draft.autoSyncHours ?? null),
    };
    return this.withCopy(() => this.store.create(campaign));
  }

  async addQuery(name: string, query: CampaignQuery): Promise<StoredCampaign> {
    const campaign = this.store.require(name);
    const [checked] = await this.checkQueries([query]);
    return this.withCopy(() => this.store.update(campaign.id, { queries: [...campaign.queries, checked!] }));
  }

  async update(name: string, draft: Partial<CampaignDraft>): Promise<StoredCampaign> {
    return (await this.change(name, draft)).campaign;
  }

  /**
   * Changes a campaign. A layout given for the same folder moves the files already there to their new places
   * (campaign-relayout; the same layout again finishes a change that was stopped). A new folder gives each file its
   * new place at once: the next sync takes in those moved there by the user and fetches the others.
   */
  async change(name: string, draft: Partial<CampaignDraft>, options: { signal?: AbortSignal } = {}): Promise<CampaignChangeResult> {
    let campaign = this.store.require(name);
    const change: CampaignChange = {};
    if (draft.name !== undefined) change.name = checkedName(draft.name);
    if (draft.folder !== undefined) change.folder = checkedFolder(draft.folder);
    if (draft.layout !== undefined) change.layout = checkedLayout(draft.layout);
    if (draft.autoSyncHours !== undefined) change.autoSyncHours = checkedAutoSync(draft.autoSyncHours);
    if (draft.queries !== undefined) {
      if (draft.queries.length === 0) throw new InvalidInputError('A campaign needs at least one query: delete the campaign instead.');
      change.queries = await this.checkQueries(draft.queries);
    }
    const layout = change.layout ?? campaign.layout;
    const folder = change.folder ?? campaign.folder;
    const movesFiles = change.layout !== undefined && folder === campaign.folder;
    // A change stopped half-way is finished first when this one places the files otherwise: the places it starts
    // from are then each file's own. The same layout again is that change's own next step (below).
    const finished = layout !== campaign.layout || folder !== campaign.folder ? await this.finishLayoutChange(campaign, options.signal) : null;
    campaign = this.store.require(campaign.name);
    // Refused here, before anything changes, when two files would share a place.
    const plan = movesFiles ? planLayoutMoves(this.store.files(campaign.id), layout) : [];
    if ((plan.length > 0 || layout !== campaign.layout) && this.syncing.has(campaign.id)) {
      throw new InvalidInputError(`"${campaign.name}" is syncing: wait for it to finish, then change its layout.`);
    }
    const updated = this.withCopy(() => {
      // Files keep their names. Under a new layout their records move with their copies, one by one, below.
      const updated = this.store.update(campaign.id, change, movesFiles ? undefined : (file) => relativePathOf(layout, entryOfStored(file)));
      // Marked in the same transaction as the new layout: a change killed half-way is never taken for one that is done.
      if (plan.length > 0) this.store.markLayoutMoving(campaign.id, true);
      if (updated.name !== campaign.name) this.backups?.renamed(campaign.name, updated);
      return updated;
    });
    const done = finished && { ...finished, layout: campaign.layout };
    if (!movesFiles) return { campaign: updated, moves: null, finished: done };
    return { campaign: updated, moves: await this.moveToLayout(updated, plan, options.signal), finished: done };
  }

  /**
   * Moves the files of a layout change to their places (campaign-relayout), and unmarks the change once each is
   * there or left to the sync. Each file moved is recorded at its new place at once: a stop leaves the change marked,
   * and whatever next uses the campaign moves the rest.
   */
  private async moveToLayout(campaign: StoredCampaign, plan: readonly PlannedMove[], signal: AbortSignal | undefined): Promise<LayoutMoves> {
    // Counted as a sync meanwhile: no sync, removal or other layout change of the campaign starts while its files move.
    this.syncing.add(campaign.id);
    try {
      const moves =
        plan.length === 0 ? { moved: 0, leftForSync: 0 } : await moveToLayoutPlaces({ store: this.store, ledger: this.deps.ledger, signal }, campaign, plan);
      this.store.markLayoutMoving(campaign.id, false);
      return moves;
    } catch (error) {
      if (signal?.aborted) throw new CancelledError('The layout change');
      throw error;
    } finally {
      this.syncing.delete(campaign.id);
    }
  }

  /** A layout change that was stopped half-way (killed, say), finished; null when there was none. */
  private async finishLayoutChange(campaign: StoredCampaign, signal: AbortSignal | undefined, told?: FinishesLayoutChange): Promise<LayoutMoves | null> {
    // A campaign being synced or moved right now is that work's to finish.
    if (this.syncing.has(campaign.id) || !this.store.isLayoutMoving(campaign.id)) return null;
    const moves = await this.moveToLayout(campaign, planLayoutMoves(this.store.files(campaign.id), campaign.layout), signal);
    told?.onLayoutFinished?.(moves, campaign.layout);
    return moves;
  }

  remove(name: string): void {
    const campaign = this.store.require(name);
    if (this.syncing.has(campaign.id)) throw new InvalidInputError(`"${campaign.name}" is syncing: wait for it to finish, then delete it.`);
    // The copy goes in the same step: a deleted campaign never comes back with a new ledger.
    this.deps.ledger.transaction(() => {
      this.store.remove(campaign.id);
      this.backups?.forget(campaign.name);
    });
  }

  async sync(name: string, engine: DownloadEngine, options: SyncOptions = {}): Promise<SyncRun> {
    const campaign = this.store.require(name);
    if (this.syncing.has(campaign.id)) throw new InvalidInputError(`"${campaign.name}" is already syncing.`);
    // Before anything is listed or taken in: a file still at its old place would otherwise be fetched at its new one.
    await this.finishLayoutChange(campaign, options.signal, options);
    this.syncing.add(campaign.id);
    try {
      const { onLayoutFinished: _told, ...syncOptions } = options;
      const run = await syncCampaign(
        { ...syncOptions, store: this.store, ledger: this.deps.ledger, state: this.deps.state, engine, client: this.deps.client },
        campaign,
      );
      if (run.report.total.queued > 0) this.unsettled.set(campaign.id, run);
      else this.unsettled.delete(campaign.id);
      return run;
    } finally {
      this.syncing.delete(campaign.id);
    }
  }

  isSyncing(name: string): boolean {
    const campaign = this.store.find(name);
    return campaign !== undefined && this.syncing.has(campaign.id);
  }

  async verify(name: string, options: Pick<VerifyDeps, 'signal' | 'quick' | 'onHashed'> & FinishesLayoutChange = {}): Promise<VerifyReport> {
    const campaign = this.store.require(name);
    // Before anything is hashed: a file moved before its record would be called missing (and fetched again).
    await this.finishLayoutChange(campaign, options.signal, options);
    const { onLayoutFinished: _told, ...verifyOptions } = options;
    return verifyCampaign({ store: this.store, ledger: this.deps.ledger, state: this.deps.state, ...verifyOptions }, campaign);
  }

  async exportAs(name: string, format: CampaignExportFormat, options: { includeFiles?: boolean } = {}): Promise<CampaignExport> {
    const campaign = this.store.require(name);
    // The campaign's own addresses on the server it syncs against now, however long ago their windows were listed.
    const addresses = new CampaignAddresses(this.deps.client.settings.baseUrl, this.store.serversListedFrom(campaign.id));
    const files = this.store.files(campaign.id);
    if (addresses.moved) for (const file of files) file.url = addresses.follow(file.url);
    const thanks = acknowledgement(
      files.map((file) => file.instrument),
      await this.deps.client.instruments().catch(() => []),
    );
    const base = campaignSlug(campaign.name);
    switch (format) {
      case 'csv':
        return { fileName: `${base}-manifest.csv`, mediaType: 'text/csv', text: manifestCsv(manifestRows(files)), acknowledgement: thanks };
      case 'json':
        return {
          fileName: `${base}-manifest.json`,
          mediaType: 'application/json',
          text: manifestJson(campaign, manifestRows(files), thanks),
          acknowledgement: thanks,
        };
      case 'campaign':
        return {
          fileName: `${base}.campaign.json`,
          mediaType: 'application/json',
          text: writeCampaignFile(campaign, options.includeFiles ? files : undefined),
          acknowledgement: thanks,
        };
    }
  }

  /**
   * Takes in a shared campaign file held as text (the app's). Its file list (with SHA-256) joins the campaign's set,
   * placed by the layout: the next sync fetches what the folder lacks or holds differently, and takes in what is
   * already there and the same. All in one transaction: the campaign comes with its whole file list, or not at all.
   */
  importFile(text: string, options: ImportOptions): ImportResult {
    return this.deps.ledger.transaction(() => {
      const importing = this.startImport(options);
      try {
        for (let at = 0; at < text.length; at += TEXT_PIECE) importing.write(text.slice(at, at + TEXT_PIECE));
        return importing.end();
      } catch (error) {
        importing.abandon();
        throw error;
      }
    });
  }

  /**
   * The same for a file read as it streams in (the command line's), so that a file list of a million files never
   * sits in memory whole. Its one transaction stays open across reads, so nothing else may use the ledger meanwhile:
   * the command line, which holds the state folder's lock and does nothing else, calls it. A stop (`signal`), a
   * failure or a killed process leaves the ledger as it was.
   */
  async importStream(chunks: AsyncIterable<Uint8Array>, options: ImportOptions, signal?: AbortSignal): Promise<ImportResult> {
    const db = this.deps.state.connection;
    if (db.inTransaction) throw new Error('importStream needs the ledger to itself.');
    db.exec('BEGIN IMMEDIATE');
    let result: ImportResult | undefined;
    let importing: ReturnType<CampaignService['startImport']> | undefined;
    try {
      importing = this.startImport(options);
      for await (const chunk of chunks) {
        signal?.throwIfAborted();
        importing.write(chunk);
      }
      signal?.throwIfAborted();
      result = importing.end();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      importing?.abandon();
      // The copy and the shared list are written last, before the commit: a commit that failed takes them back.
      if (result) this.backups?.forget(result.campaign.name);
      throw error;
    }
  }

  /**
   * An import under way, inside the caller's transaction: the campaign once its definition is read, then its files,
   * whose list is kept beside the campaign's copy (a new ledger takes it back with the campaign). `abandon` drops
   * a list not yet kept.
   */
  private startImport(options: ImportOptions): { write(chunk: Uint8Array | string): void; end(): ImportResult; abandon(): void } {
    let campaign: StoredCampaign | undefined;
    const refused: ImportResult['refused'] = [];
    let moreRefused = 0;
    let autoSyncNotTaken: number | null = null;
    const kept = this.backups?.startSharedList();
    const reader = new CampaignFileReader(
      {
        header: (shared) => {
          const name = checkedName(options.name ?? shared.name);
          const folder = checkedFolder(options.folder ?? path.join(options.defaultParent, campaignSlug(name)));
          // Never the file's auto-sync: syncing downloads, and a file from elsewhere must not start that by itself.
          campaign = this.store.create({ name, folder, layout: shared.layout, queries: shared.queries, autoSyncHours: null });
          autoSyncNotTaken = shared.autoSyncHours;
        },
        entries: (batch) => {
          const taken = sharedFileRecords(campaign!, batch);
          for (const refusal of taken.refused) {
            if (refused.length < REFUSALS_KEPT) refused.push(refusal);
            else moreRefused += 1;
          }
          this.store.recordFiles(campaign!.id, taken.records);
          kept?.add(taken.taken);
        },
      },
      options.maxBytes ?? MAX_CAMPAIGN_FILE_BYTES,
    );
    return {
      write: (chunk) => reader.write(chunk),
      end: () => {
        reader.end();
        const imported = this.store.require(campaign!.name);
        this.backups?.save(imported);
        if (kept) this.backups?.keepSharedList(kept, imported.name);
        return { campaign: imported, refused, moreRefused, autoSyncNotTaken };
      },
      abandon: () => kept?.discard(),
    };
  }

  /**
   * Makes a change to a campaign and writes its copy in one transaction: a copy that cannot be written undoes the
   * change, so the ledger never holds a campaign a new ledger would not get back.
   */
  private withCopy(change: () => StoredCampaign): StoredCampaign {
    return this.deps.ledger.transaction(() => {
      const campaign = change();
      this.backups?.save(campaign);
      return campaign;
    });
  }

  private async checkQueries(queries: readonly CampaignQuery[]): Promise<CampaignQuery[]> {
    const checked: CampaignQuery[] = [];
    for (const query of queries) checked.push(await this.checkQuery(query.instrument, query.product, query.filters));
    return checked;
  }
}

function checkedName(raw: string): string {
  const checked = checkCampaignName(raw);
  if (!checked.ok) throw new InvalidInputError(checked.message);
  return checked.name;
}

function checkedLayout(raw: string): string {
  const checked = checkLayout(raw);
  if (!checked.ok) throw new InvalidInputError(checked.message);
  return checked.template;
}

function checkedFolder(raw: string): string {
  if (!path.isAbsolute(raw)) throw new InvalidInputError(`The campaign folder must be a full path, not "${raw}".`);
  return path.resolve(raw);
}

function checkedAutoSync(hours: number | null): number | null {
  if (hours === null) return null;
  const problem = autoSyncHoursProblem(hours);
  if (problem) throw new InvalidInputError(problem);
  return hours;
}

/** A sync's report whose total is the campaign's counts (the card and the summary cannot disagree). */
function withTotal(report: SyncReport, counts: CampaignCounts): SyncReport {
  const { files: _files, ...total } = counts;
  return { ...report, total: { ...report.total, ...total } };
}
