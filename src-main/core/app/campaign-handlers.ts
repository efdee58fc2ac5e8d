// Campaigns behind the contract: the same CampaignService as the command line, with the app's defaults (a new
// campaign's folder is the download folder's sub-folder named after it), its events, and automatic syncs.
import path from 'node:path';
import { campaignSlug } from '../../../src-shared/campaigns/campaign-name';
import type { CampaignOverview, VerifyReport } from '../../../src-shared/campaigns/campaign-types';
import type { CampaignChannel, ContractHandlers, EventSink } from '../../../src-shared/contract/contract';
import type { ProgressUpdate } from '../../../src-shared/downloads/progress-types';
import { AutoSync } from '../campaigns/auto-sync';
import type { CampaignService } from '../campaigns/campaign-service';
import type { DownloadEngine } from '../downloads/download-engine';
import { SignInRequiredError } from '../downloads/session-keeper';
import { CancelledError, InvalidInputError, toErrorData } from '../errors';
import type { SettingsKeeper } from './settings-keeper';

export interface CampaignDeps {
  service: CampaignService;
  engine: DownloadEngine;
  settings: SettingsKeeper;
  signedIn(): Promise<boolean>;
  emit: EventSink;
}

/** The window hears of campaign counts moving at most this often while their files download. */
const ANNOUNCE_EVERY_MS = 1000;
/** A verify's count of files hashed is told at most this often (the last count at once). */
const VERIFY_PROGRESS_EVERY_MS = 100;

export class AppCampaigns {
  readonly autoSync: AutoSync;
  private announceTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /**
   * The syncs running now, by campaign id, so Cancel can stop one: the store finds the campaign by its name as
   * campaign-name.ts compares names, and no two campaigns share an id.
   */
  private readonly running = new Map<number, AbortController>();
  /** The verifies hashing now, by campaign id, so Cancel can stop one. */
  private readonly verifying = new Map<number, AbortController>();

  constructor(private readonly deps: CampaignDeps) {
    this.autoSync = new AutoSync({
      campaigns: () => deps.service.store.list(),
      canSync: () => deps.signedIn(),
      isSyncing: (name) => deps.service.isSyncing(name),
      sync: (name) => this.sync(name),
    });
    deps.engine.on('progress', (update) => this.onProgress(update));
  }

  handlers(): Pick<ContractHandlers, CampaignChannel> {
    const { service, settings } = this.deps;
    return {
      'campaigns:list': () => service.overviews(),
      'campaigns:create': async (draft) => {
        const folder = draft.folder ?? path.join(settings.value.downloadFolder, campaignSlug(draft.name ?? ''));
        const created = await service.create({ ...draft, folder });
        this.announce();
        return service.overview(created);
      },
      'campaigns:update': async ({ name, change }) => {
        const updated = await service.update(name, change);
        this.announce();
        return service.overview(updated);
      },
      'campaigns:delete': ({ name }) => {
        service.remove(name);
        this.announce();
        return null;
      },
      'campaigns:files': ({ name }) =>
        service.store.files(service.store.require(name).id).map((file) => ({
          relativePath: file.relativePath,
          filename: file.filename,
          instrument: file.instrument,
          product: file.product,
          dateObs: file.dateObs,
          state: file.state,
          standing: file.standing,
          jobId: file.jobId,
        })),
      'campaigns:sync': ({ name }) => this.sync(name),
      'campaigns:cancel-sync': ({ name }) => {
        const campaign = service.store.find(name);
        const controller = campaign && this.running.get(campaign.id);
        controller?.abort();
        return controller !== undefined;
      },
      'campaigns:verify': ({ name }) => this.verify(name),
      'campaigns:cancel-verify': ({ name }) => {
        const campaign = service.store.find(name);
        const controller = campaign && this.verifying.get(campaign.id);
        // The hashing workers stop at once, and verify records nothing: the ledger stays as it was.
        controller?.abort(new CancelledError('The verify'));
        return controller !== undefined;
      },
      'campaigns:export': ({ name, format, includeFiles }) => service.exportAs(name, format, { includeFiles: includeFiles === true }),
      'campaigns:import': ({ text, folder, name }) => {
        const { campaign } = service.importFile(text, {
          ...(folder !== undefined ? { folder } : {}),
          ...(name !== undefined ? { name } : {}),
          defaultParent: settings.value.downloadFolder,
        });
        this.announce();
        return service.overview(campaign);
      },
    };
  }

  async close(): Promise<void> {
    for (const controller of this.running.values()) controller.abort();
    for (const controller of this.verifying.values()) controller.abort(new CancelledError('The verify'));
    clearTimeout(this.announceTimer);
    this.closed = true;
    await this.autoSync.stop();
  }

  private async sync(name: string) {
    const { service, emit } = this.deps;
    if (!(await this.deps.signedIn())) throw new SignInRequiredError();
    const { id: key, name: campaign } = service.store.require(name);
    if (this.running.has(key)) throw new InvalidInputError(`"${campaign}" is already syncing.`);
    const controller = new AbortController();
    this.running.set(key, controller);
    try {
      const run = await service.sync(name, this.deps.engine, {
        signal: controller.signal,
        settleDays: this.deps.settings.value.settleDays,
        onPhase: (phase, listed) => {
          emit('campaigns:sync-progress', { campaign, phase, listed });
          if (phase === 'listing' && listed === 0) this.announce();
        },
      });
      emit('campaigns:sync-progress', { campaign, phase: run.report.total.queued > 0 ? 'downloading' : 'done', listed: run.report.total.listed });
      return run.report;
    } catch (error) {
      const data = toErrorData(error);
      // A sync the user cancelled has not failed: it ends, and what it queued stays queued.
      emit(
        'campaigns:sync-progress',
        data.kind === 'cancelled' ? { campaign, phase: 'done', listed: 0 } : { campaign, phase: 'failed', listed: 0, message: data.message },
      );
      throw error;
    } finally {
      this.running.delete(key);
      this.announce();
    }
  }

  /** Hashes every file of a campaign on all cores, telling the renderer how many are done; Cancel stops it. */
  private async verify(name: string): Promise<VerifyReport> {
    const { service, emit } = this.deps;
    const { id: key, name: campaign } = service.store.require(name);
    if (this.verifying.has(key)) throw new InvalidInputError(`"${campaign}" is already being verified.`);
    const controller = new AbortController();
    this.verifying.set(key, controller);
    const progress = pacedCounts((done, total) => emit('campaigns:verify-progress', { campaign, done, total }), VERIFY_PROGRESS_EVERY_MS);
    try {
      return await service.verify(name, { signal: controller.signal, onHashed: progress.tell });
    } finally {
      progress.stop();
      this.verifying.delete(key);
      this.announce();
    }
  }

  /**
   * Downloads moved: campaigns holding those files have new counts, told at most once a second (the last progress
   * is always followed by one announcement).
   */
  private onProgress(update: ProgressUpdate): void {
    if (this.announceTimer) return;
    const concernsCampaign = this.deps.service.store.holdsAnyTarget(update.jobs.map((job) => path.join(job.folder, job.localName)));
    if (!concernsCampaign) return;
    this.announceTimer = setTimeout(() => {
      this.announceTimer = undefined;
      this.announce();
    }, ANNOUNCE_EVERY_MS);
    this.announceTimer.unref();
  }

  /** Tells the renderer every campaign with its counts (kept by the state database: a few rows a campaign). */
  private announce(): void {
    if (this.closed) return;
    let overviews: CampaignOverview[];
    try {
      overviews = this.deps.service.overviews();
    } catch {
      // A state database that cannot be read (which the requests reading it report): the renderer keeps the counts it has.
      return;
    }
    this.deps.emit('campaigns:changed', overviews);
  }
}

/**
 * Counts told at most once every `everyMs`: the first and the last (done = total) at once, the latest of those between
 * when the time comes, so a file that takes long to hash leaves the count it reached on screen, not an older one.
 */
function pacedCounts(tell: (done: number, total: number) => void, everyMs: number): { tell: (done: number, total: number) => void; stop(): void } {
  let toldAt = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let latest: [number, number] | undefined;
  const flush = (): void => {
    timer = undefined;
    if (!latest) return;
    toldAt = performance.now();
    tell(...latest);
    latest = undefined;
  };
  return {
    tell: (done, total) => {
      latest = [done, total];
      if (done === total || performance.now() - toldAt >= everyMs) {
        clearTimeout(timer);
        flush();
      } else timer ??= setTimeout(flush, everyMs - (performance.now() - toldAt));
    },
    stop: () => clearTimeout(timer),
  };
}
