// Observing campaigns as the window shows them: the list with its counts (kept current by `campaigns:changed`),
// each campaign's live sync progress and last verify and export, and what Browse's "Add to campaign" did. The
// New/Edit form (campaign-form.svelte.ts) and the Import form (campaign-import.svelte.ts) hand what they saved here.
import type {
  CampaignExport,
  CampaignExportFormat,
  CampaignOverview,
  CampaignSyncProgress,
  CampaignVerifyProgress,
  VerifyReport,
} from '../../src-shared/campaigns/campaign-types';
import type { FilesQuery } from '../../src-shared/contract/contract';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';
import { campaignQueryOf, sameQuery } from './campaign-text';
import { Request } from '../lib/request.svelte';

/** What one campaign's card shows besides the campaign itself. */
export interface CampaignActivity {
  /** The last `campaigns:sync-progress` of a sync started in this window or elsewhere. */
  progress: CampaignSyncProgress | null;
  /** A Sync was pressed and its answer has not come yet. */
  syncRequested: boolean;
  verifying: boolean;
  /** The last count of files hashed by the verify under way (none until the core's first event). */
  verifyProgress: Pick<CampaignVerifyProgress, 'done' | 'total'> | null;
  /** The last verify was cancelled (and recorded nothing). */
  verifyCancelled: boolean;
  verifyReport: VerifyReport | null;
  exporting: boolean;
  /** The last export saved, for its acknowledgement text. */
  exported: CampaignExport | null;
  /** The card's open panel, kept here so it survives a trip to another screen. */
  panel: 'none' | 'export' | 'delete';
  error: ErrorData | null;
}

const IDLE: CampaignActivity = {
  progress: null,
  syncRequested: false,
  verifying: false,
  verifyProgress: null,
  verifyCancelled: false,
  verifyReport: null,
  exporting: false,
  exported: null,
  panel: 'none',
  error: null,
};

export type SaveSearchOutcome = { tone: 'success' | 'info' | 'error'; message: string; campaign: string | null };

export class CampaignListStore {
  activity = $state.raw<Record<string, CampaignActivity>>({});
  /** A line after something happened that is not visible in a card (imported, deleted). */
  note = $state<string | null>(null);
  /** What Browse's "Add to campaign" did, shown beside the results. */
  searchOutcome = $state.raw<SaveSearchOutcome | null>(null);

  /**
   * The list as last answered or announced. A `campaigns:changed` event cancels a list request still out: the
   * answer was asked for before the event and is older than what it said. A failure stays while asked again.
   */
  private readonly list = new Request<CampaignOverview[]>({ keepErrorWhileLoading: true });

  private readonly client: ApiClient;

  constructor(client: ApiClient) {
    this.client = client;
    client.on('campaigns:changed', (campaigns) => {
      this.list.cancel();
      this.list.value = campaigns;
    });
    client.on('campaigns:sync-progress', (progress) => this.patch(progress.campaign, { progress }));
    client.on('campaigns:verify-progress', ({ campaign, done, total }) => {
      // A late event of a verify that has ended (or was never started here) would leave a count on the card.
      if (this.activityOf(campaign).verifying) this.patch(campaign, { verifyProgress: { done, total } });
    });
  }

  get campaigns(): CampaignOverview[] {
    return this.list.value ?? [];
  }

  /** The list has been told at least once (so an empty one means there is no campaign). */
  get loaded(): boolean {
    return this.list.value !== null;
  }

  /** The list could not be loaded. */
  get error(): ErrorData | null {
    return this.list.error;
  }

  activityOf(name: string): CampaignActivity {
    return this.activity[name] ?? IDLE;
  }

  find(name: string): CampaignOverview | undefined {
    return this.campaigns.find((campaign) => campaign.name === name);
  }

  async load(): Promise<void> {
    await this.list.run(() => this.client.invoke('campaigns:list'));
  }

  /** Lists, compares and queues; the counts then move through `campaigns:changed` as the files arrive. */
  async sync(name: string): Promise<ErrorData | null> {
    this.patch(name, {
      syncRequested: true,
      error: null,
      verifyReport: null,
      verifyCancelled: false,
      progress: { campaign: name, phase: 'listing', listed: 0 },
    });
    const result = await this.client.invoke('campaigns:sync', { name });
    // A cancelled sync is not an error to show: the card simply stops showing progress.
    const failed = !result.ok && result.error.kind !== 'cancelled';
    this.patch(name, { syncRequested: false, ...(result.ok ? {} : failed ? { error: result.error, progress: null } : { progress: null }) });
    // The list carries the sync's report as lastSync, and counts that moved meanwhile.
    await this.load();
    return result.ok ? null : result.error;
  }

  /** Stops a sync still listing or queueing; the sync's own answer then says it was cancelled. */
  async cancelSync(name: string): Promise<void> {
    await this.client.invoke('campaigns:cancel-sync', { name });
  }

  async verify(name: string): Promise<void> {
    this.patch(name, { verifying: true, verifyProgress: null, verifyCancelled: false, error: null, verifyReport: null });
    const result = await this.client.invoke('campaigns:verify', { name });
    const ended = { verifying: false, verifyProgress: null };
    // A cancelled verify is not an error to show: it ends, and the ledger is as it was.
    if (result.ok) this.patch(name, { ...ended, verifyReport: result.value });
    else this.patch(name, result.error.kind === 'cancelled' ? { ...ended, verifyCancelled: true } : { ...ended, error: result.error });
    if (result.ok) await this.load();
  }

  /** Stops a verify still hashing; the verify's own answer then says it was cancelled. */
  async cancelVerify(name: string): Promise<void> {
    await this.client.invoke('campaigns:cancel-verify', { name });
  }

  async export(name: string, format: CampaignExportFormat, includeFiles: boolean): Promise<CampaignExport | null> {
    this.patch(name, { exporting: true, error: null });
    const result = await this.client.invoke('campaigns:export', { name, format, ...(format === 'campaign' ? { includeFiles } : {}) });
    this.patch(name, result.ok ? { exporting: false, exported: result.value } : { exporting: false, error: result.error });
    return result.ok ? result.value : null;
  }

  async remove(name: string): Promise<boolean> {
    const campaign = this.find(name);
    const result = await this.client.invoke('campaigns:delete', { name });
    if (!result.ok) {
      this.patch(name, { error: result.error });
      return false;
    }
    this.list.value = this.campaigns.filter((candidate) => candidate.name !== name);
    const { [name]: _gone, ...rest } = this.activity;
    this.activity = rest;
    this.note = `Deleted the campaign "${name}"; its files stay in ${campaign?.folder ?? 'its folder'}.`;
    return true;
  }

  openPanel(name: string, panel: CampaignActivity['panel']): void {
    this.patch(name, { panel });
  }

  dismissVerify(name: string): void {
    this.patch(name, { verifyReport: null });
  }

  /** Puts away a failure, whether a Sync here got it or a sync's progress event (an automatic one) reported it. */
  dismissError(name: string): void {
    const progress = this.activityOf(name).progress;
    this.patch(name, { error: null, progress: progress?.phase === 'failed' ? null : progress });
  }

  /** Shows a campaign the core has just saved (created, changed, imported); `renamedFrom` names it before a rename. */
  saved(campaign: CampaignOverview, renamedFrom: string | null = null): void {
    if (renamedFrom !== null && renamedFrom !== campaign.name) this.rename(renamedFrom, campaign.name);
    const campaigns = this.campaigns;
    const index = campaigns.findIndex((candidate) => candidate.name === campaign.name);
    this.list.value = index === -1 ? [...campaigns, campaign] : campaigns.map((candidate, at) => (at === index ? campaign : candidate));
  }

  /** Adds the search on screen to an existing campaign, unless it holds the same query already. */
  async addSearch(name: string, search: FilesQuery): Promise<void> {
    const campaign = this.find(name);
    if (!campaign) return;
    const query = campaignQueryOf(search);
    if (campaign.queries.some((existing) => sameQuery(existing, query))) {
      this.searchOutcome = { tone: 'info', message: `"${name}" already holds this search.`, campaign: name };
      return;
    }
    const result = await this.client.invoke('campaigns:update', { name, change: { queries: [...campaign.queries, query] } });
    if (!result.ok) {
      this.searchOutcome = { tone: 'error', message: result.error.message, campaign: null };
      return;
    }
    this.saved(result.value);
    this.searchOutcome = { tone: 'success', message: `Added the search to "${name}". Sync it to fetch the new files.`, campaign: name };
  }

  dismissSearchOutcome(): void {
    this.searchOutcome = null;
  }

  dismissNote(): void {
    this.note = null;
  }

  private rename(from: string, to: string): void {
    this.list.value = this.campaigns.filter((candidate) => candidate.name !== from);
    const { [from]: moved, ...rest } = this.activity;
    this.activity = moved ? { ...rest, [to]: moved } : rest;
  }

  private patch(name: string, change: Partial<CampaignActivity>): void {
    this.activity = { ...this.activity, [name]: { ...this.activityOf(name), ...change } };
  }
}
