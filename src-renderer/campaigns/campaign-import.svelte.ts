// The Import campaign form: a shared campaign file's text handed to the core, with an optional folder and name in
// place of the file's own; the imported campaign goes to the campaign list.
import type { CampaignOverview } from '../../src-shared/campaigns/campaign-types';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';
import { Request } from '../lib/request.svelte';
import type { CampaignListStore } from './campaign-list.svelte';

export class CampaignImportStore {
  isOpen = $state(false);
  /** A campaign file the desktop handed over (a link from the web, a double-click): its text and where it came from. */
  offered = $state.raw<{ text: string; source: string } | null>(null);

  private readonly request = new Request<CampaignOverview>();

  constructor(
    private readonly client: ApiClient,
    private readonly list: CampaignListStore,
  ) {}

  get importing(): boolean {
    return this.request.loading;
  }

  /** What the core said when it refused the file. */
  get error(): ErrorData | null {
    return this.request.error;
  }

  open(): void {
    this.isOpen = true;
  }

  close(): void {
    this.isOpen = false;
    this.offered = null;
    this.dismissError();
  }

  /** Opens the form with a file the core already read and checked for size; it is imported only on Import. */
  offer(text: string, source: string): void {
    this.dismissError();
    this.offered = { text, source };
    this.isOpen = true;
  }

  dismissError(): void {
    this.request.error = null;
  }

  async importText(text: string, folder: string, name: string): Promise<boolean> {
    const result = await this.request.run(() =>
      this.client.invoke('campaigns:import', {
        text,
        ...(folder.trim() === '' ? {} : { folder: folder.trim() }),
        ...(name.trim() === '' ? {} : { name: name.trim() }),
      }),
    );
    if (!result?.ok) return false;
    this.list.saved(result.value);
    this.isOpen = false;
    this.offered = null;
    this.list.note = `Imported the campaign "${result.value.name}" into ${result.value.folder}. Press Sync to fetch its files.`;
    return true;
  }
}
