// Observing campaigns as the window shows them: the list with its counts (kept current by `campaigns:changed`),
// each campaign's live sync progress and last verify and export, and the New/Edit form. The form judges the name
// and the layout with the shared rules, so it refuses exactly what the core would.
import { autoSyncHoursProblem } from '../../src-shared/campaigns/auto-sync-hours';
import { checkCampaignName } from '../../src-shared/campaigns/campaign-name';
import type {
  CampaignDraft,
  CampaignExport,
  CampaignExportFormat,
  CampaignOverview,
  CampaignQuery,
  CampaignSyncProgress,
  VerifyReport,
} from '../../src-shared/campaigns/campaign-types';
import { checkLayout } from '../../src-shared/campaigns/folder-layout';
import type { FilesQuery } from '../../src-shared/contract/contract';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';
import { campaignQueryOf, sameQuery } from '../lib/campaign-text';

/** What one campaign's card shows besides the campaign itself. */
export interface CampaignActivity {
  /** The last `campaigns:sync-progress` of a sync started in this window or elsewhere. */
  progress: CampaignSyncProgress | null;
  /** A Sync was pressed and its answer has not come yet. */
  syncRequested: boolean;
  verifying: boolean;
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
  verifyReport: null,
  exporting: false,
  exported: null,
  panel: 'none',
  error: null,
};

export interface CampaignFormState {
  mode: 'new' | 'edit';
  /** The campaign's name before this edit (a rename is a change like any other). */
  original: string | null;
  name: string;
  folder: string;
  layout: string;
  queries: CampaignQuery[];
  autoSync: boolean;
  autoSyncHours: number | null;
  /** Set once the user left the name field or pressed Save: from then on the name's rule shows. */
  nameTouched: boolean;
}

export type FieldProblems = { name: string | null; layout: string | null; autoSyncHours: string | null };

/** How often an automatic sync runs when the box is first ticked. */
const DEFAULT_AUTO_SYNC_HOURS = 6;

/** A whole number of hours from 1 to a year's worth: the shared rule, as the core judges it. */
const checkAutoSyncHours = autoSyncHoursProblem;

export type SaveSearchOutcome = { tone: 'success' | 'info' | 'error'; message: string; campaign: string | null };

export class CampaignsStore {
  campaigns = $state.raw<CampaignOverview[]>([]);
  loaded = $state(false);
  /** The list could not be loaded. */
  error = $state.raw<ErrorData | null>(null);
  activity = $state.raw<Record<string, CampaignActivity>>({});
  form = $state<CampaignFormState | null>(null);
  saving = $state(false);
  /** What the core said when it refused the form. */
  formError = $state.raw<ErrorData | null>(null);
  importing = $state(false);
  importOpen = $state(false);
  importError = $state.raw<ErrorData | null>(null);
  /** A line after something happened that is not visible in a card (imported, deleted). */
  note = $state<string | null>(null);
  /** What Browse's "Add to campaign" did, shown beside the results. */
  searchOutcome = $state.raw<SaveSearchOutcome | null>(null);
  /** Bumped to move focus to the form's first field. */
  formFocusRequests = $state(0);

  problems = $derived.by((): FieldProblems => {
    const form = this.form;
    if (!form) return { name: null, layout: null, autoSyncHours: null };
    const name = checkCampaignName(form.name);
    const layout = checkLayout(form.layout);
    return {
      name: form.nameTouched && !name.ok ? name.message : null,
      layout: layout.ok ? null : layout.message,
      autoSyncHours: form.autoSync ? checkAutoSyncHours(form.autoSyncHours) : null,
    };
  });

  private readonly client: ApiClient;
  /** Counts `campaigns:changed` events: a list asked for before the latest one is older than what it said. */
  private changes = 0;

  constructor(client: ApiClient) {
    this.client = client;
    client.on('campaigns:changed', (campaigns) => {
      this.changes += 1;
      this.campaigns = campaigns;
      this.loaded = true;
    });
    client.on('campaigns:sync-progress', (progress) => this.patch(progress.campaign, { progress }));
  }

  activityOf(name: string): CampaignActivity {
    return this.activity[name] ?? IDLE;
  }

  find(name: string): CampaignOverview | undefined {
    return this.campaigns.find((campaign) => campaign.name === name);
  }

  async load(): Promise<void> {
    const changesBefore = this.changes;
    const result = await this.client.invoke('campaigns:list');
    if (changesBefore !== this.changes) return;
    if (!result.ok) {
      this.error = result.error;
      return;
    }
    this.error = null;
    this.campaigns = result.value;
    this.loaded = true;
  }

  // ---- the form ----

  /** Opens the New form, with the queries of a search when it comes from Browse. */
  startNew(queries: CampaignQuery[] = []): void {
    this.form = { mode: 'new', original: null, name: '', folder: '', layout: '', queries, autoSync: false, autoSyncHours: null, nameTouched: false };
    this.formError = null;
    this.formFocusRequests += 1;
  }

  startEdit(name: string): void {
    const campaign = this.find(name);
    if (!campaign) return;
    this.form = {
      mode: 'edit',
      original: campaign.name,
      name: campaign.name,
      folder: campaign.folder,
      layout: campaign.layout,
      queries: [...campaign.queries],
      autoSync: campaign.autoSyncHours !== null,
      autoSyncHours: campaign.autoSyncHours,
      nameTouched: true,
    };
    this.formError = null;
    this.formFocusRequests += 1;
  }

  setAutoSync(on: boolean): void {
    if (!this.form) return;
    this.form.autoSync = on;
    if (on && this.form.autoSyncHours === null) this.form.autoSyncHours = DEFAULT_AUTO_SYNC_HOURS;
  }

  removeQuery(index: number): void {
    this.form?.queries.splice(index, 1);
  }

  closeForm(): void {
    this.form = null;
    this.formError = null;
  }

  /** Checks the form with the shared rules, then creates or changes the campaign; false when something was refused. */
  async saveForm(): Promise<boolean> {
    const form = this.form;
    if (!form) return false;
    form.nameTouched = true;
    const name = checkCampaignName(form.name);
    const layout = checkLayout(form.layout);
    if (!name.ok || !layout.ok || this.problems.autoSyncHours !== null) return false;
    const draft: CampaignDraft = {
      name: name.name,
      layout: layout.template,
      queries: $state.snapshot(form.queries),
      autoSyncHours: form.autoSync ? form.autoSyncHours : null,
      ...(form.folder.trim() === '' ? {} : { folder: form.folder.trim() }),
    };
    this.saving = true;
    this.formError = null;
    const result =
      form.mode === 'new' || form.original === null
        ? await this.client.invoke('campaigns:create', draft)
        : await this.client.invoke('campaigns:update', { name: form.original, change: this.changesFrom(form.original, draft) });
    this.saving = false;
    if (!result.ok) {
      this.formError = result.error;
      return false;
    }
    if (form.original !== null && form.original !== result.value.name) this.rename(form.original, result.value.name);
    this.upsert(result.value);
    this.form = null;
    return true;
  }

  // ---- per campaign ----

  /** Lists, compares and queues; the counts then move through `campaigns:changed` as the files arrive. */
  async sync(name: string): Promise<ErrorData | null> {
    this.patch(name, { syncRequested: true, error: null, verifyReport: null, progress: { campaign: name, phase: 'listing', listed: 0 } });
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

  /** The native folder picker for the form's folder (the settings' download folder stays as it is). */
  async chooseFolder(): Promise<void> {
    const form = this.form;
    if (!form) return;
    const result = await this.client.invoke('shell:choose-folder', form.folder.trim() ? { current: form.folder.trim() } : {});
    if (result.ok && result.value && this.form === form) form.folder = result.value;
  }

  async verify(name: string): Promise<void> {
    this.patch(name, { verifying: true, error: null, verifyReport: null });
    const result = await this.client.invoke('campaigns:verify', { name });
    this.patch(name, result.ok ? { verifying: false, verifyReport: result.value } : { verifying: false, error: result.error });
    if (result.ok) await this.load();
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
    this.campaigns = this.campaigns.filter((candidate) => candidate.name !== name);
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

  // ---- import ----

  async importText(text: string, folder: string, name: string): Promise<boolean> {
    this.importing = true;
    this.importError = null;
    const result = await this.client.invoke('campaigns:import', {
      text,
      ...(folder.trim() === '' ? {} : { folder: folder.trim() }),
      ...(name.trim() === '' ? {} : { name: name.trim() }),
    });
    this.importing = false;
    if (!result.ok) {
      this.importError = result.error;
      return false;
    }
    this.upsert(result.value);
    this.importOpen = false;
    this.note = `Imported the campaign "${result.value.name}" into ${result.value.folder}. Press Sync to fetch its files.`;
    return true;
  }

  // ---- from Browse ----

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
    this.upsert(result.value);
    this.searchOutcome = { tone: 'success', message: `Added the search to "${name}". Sync it to fetch the new files.`, campaign: name };
  }

  dismissSearchOutcome(): void {
    this.searchOutcome = null;
  }

  dismissNote(): void {
    this.note = null;
  }

  private changesFrom(original: string, draft: CampaignDraft): Partial<CampaignDraft> {
    const before = this.find(original);
    if (!before) return draft;
    const change: Partial<CampaignDraft> = {};
    if (draft.name !== before.name) change.name = draft.name;
    if (draft.folder !== undefined && draft.folder !== before.folder) change.folder = draft.folder;
    if (draft.layout !== before.layout) change.layout = draft.layout;
    if ((draft.autoSyncHours ?? null) !== before.autoSyncHours) change.autoSyncHours = draft.autoSyncHours ?? null;
    const sameQueries = draft.queries.length === before.queries.length && draft.queries.every((query, index) => sameQuery(query, before.queries[index]!));
    if (!sameQueries) change.queries = draft.queries;
    return change;
  }

  private upsert(campaign: CampaignOverview): void {
    const index = this.campaigns.findIndex((candidate) => candidate.name === campaign.name);
    this.campaigns = index === -1 ? [...this.campaigns, campaign] : this.campaigns.map((candidate, at) => (at === index ? campaign : candidate));
  }

  private rename(from: string, to: string): void {
    this.campaigns = this.campaigns.filter((candidate) => candidate.name !== from);
    const { [from]: moved, ...rest } = this.activity;
    this.activity = moved ? { ...rest, [to]: moved } : rest;
  }

  private patch(name: string, change: Partial<CampaignActivity>): void {
    this.activity = { ...this.activity, [name]: { ...this.activityOf(name), ...change } };
  }
}
