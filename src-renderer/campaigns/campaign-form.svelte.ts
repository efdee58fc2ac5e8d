// The New/Edit campaign form. It judges the name, the layout and the automatic sync's period with the shared rules,
// so it refuses exactly what the core would; what the core saved goes to the campaign list.
import { autoSyncHoursProblem } from '../../src-shared/campaigns/auto-sync-hours';
import { checkCampaignName } from '../../src-shared/campaigns/campaign-name';
import type { CampaignDraft, CampaignOverview, CampaignQuery } from '../../src-shared/campaigns/campaign-types';
import { checkLayout } from '../../src-shared/campaigns/folder-layout';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';
import { sameQuery } from './campaign-text';
import { Request } from '../lib/request.svelte';
import type { CampaignListStore } from './campaign-list.svelte';

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

type FieldProblems = { name: string | null; layout: string | null; autoSyncHours: string | null };

/** How often an automatic sync runs when the box is first ticked. */
const DEFAULT_AUTO_SYNC_HOURS = 6;

export class CampaignFormStore {
  form = $state<CampaignFormState | null>(null);
  /** Bumped to move focus to the form's first field. */
  focusRequests = $state(0);

  problems = $derived.by((): FieldProblems => {
    const form = this.form;
    if (!form) return { name: null, layout: null, autoSyncHours: null };
    const name = checkCampaignName(form.name);
    const layout = checkLayout(form.layout);
    return {
      name: form.nameTouched && !name.ok ? name.message : null,
      layout: layout.ok ? null : layout.message,
      // A whole number of hours from 1 to a year's worth: the shared rule, as the core judges it.
      autoSyncHours: form.autoSync ? autoSyncHoursProblem(form.autoSyncHours) : null,
    };
  });

  /** Creating or changing the campaign; its error is what the core said when it refused the form. */
  private readonly saveRequest = new Request<CampaignOverview>();

  constructor(
    private readonly client: ApiClient,
    private readonly list: CampaignListStore,
  ) {}

  get saving(): boolean {
    return this.saveRequest.loading;
  }

  /** What the core said when it refused the form. */
  get error(): ErrorData | null {
    return this.saveRequest.error;
  }

  /** Opens the New form, with the queries of a search when it comes from Browse. */
  startNew(queries: CampaignQuery[] = []): void {
    this.open({ mode: 'new', original: null, name: '', folder: '', layout: '', queries, autoSync: false, autoSyncHours: null, nameTouched: false });
  }

  startEdit(name: string): void {
    const campaign = this.list.find(name);
    if (!campaign) return;
    this.open({
      mode: 'edit',
      original: campaign.name,
      name: campaign.name,
      folder: campaign.folder,
      layout: campaign.layout,
      queries: [...campaign.queries],
      autoSync: campaign.autoSyncHours !== null,
      autoSyncHours: campaign.autoSyncHours,
      nameTouched: true,
    });
  }

  setAutoSync(on: boolean): void {
    if (!this.form) return;
    this.form.autoSync = on;
    if (on && this.form.autoSyncHours === null) this.form.autoSyncHours = DEFAULT_AUTO_SYNC_HOURS;
  }

  removeQuery(index: number): void {
    this.form?.queries.splice(index, 1);
  }

  close(): void {
    this.form = null;
    this.dismissError();
  }

  dismissError(): void {
    this.saveRequest.error = null;
  }

  /** Checks the form with the shared rules, then creates or changes the campaign; false when something was refused. */
  async save(): Promise<boolean> {
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
    const original = form.original;
    const result = await this.saveRequest.run(() =>
      form.mode === 'new' || original === null
        ? this.client.invoke('campaigns:create', draft)
        : this.client.invoke('campaigns:update', { name: original, change: this.changesFrom(original, draft) }),
    );
    if (!result?.ok) return false;
    this.list.saved(result.value, original);
    this.form = null;
    return true;
  }

  /** The native folder picker for the form's folder (the settings' download folder stays as it is). */
  async chooseFolder(): Promise<void> {
    const form = this.form;
    if (!form) return;
    const result = await this.client.invoke('shell:choose-folder', form.folder.trim() ? { current: form.folder.trim() } : {});
    // The form may have been closed or another opened meanwhile: the folder was chosen for this one only.
    if (result.ok && result.value && this.form === form) form.folder = result.value;
  }

  private open(form: CampaignFormState): void {
    this.form = form;
    this.dismissError();
    this.focusRequests += 1;
  }

  private changesFrom(original: string, draft: CampaignDraft): Partial<CampaignDraft> {
    const before = this.list.find(original);
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
}
