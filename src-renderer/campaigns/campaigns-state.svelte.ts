// The campaigns' stores: the list (and each campaign's work), the form that creates or edits one, and the import.
// Created once per window and shared through Svelte context.
import { createContext } from 'svelte';
import type { ApiClient } from '../lib/api';
import { CampaignFormStore } from './campaign-form.svelte';
import { CampaignImportStore } from './campaign-import.svelte';
import { CampaignListStore } from './campaign-list.svelte';

export class CampaignsState {
  readonly list: CampaignListStore;
  readonly form: CampaignFormStore;
  readonly importer: CampaignImportStore;

  constructor(client: ApiClient) {
    this.list = new CampaignListStore(client);
    this.form = new CampaignFormStore(client, this.list);
    this.importer = new CampaignImportStore(client, this.list);
  }
}

/** The window's CampaignsState: App.svelte provides it, every campaign view uses it (throws outside <App>). */
export const [useCampaigns, provideCampaigns] = createContext<CampaignsState>();
