// Free space in the download folder, for the status bar. Refreshed now and then and after the folder changes.
import type { ApiClient } from '../lib/api';

export class DiskStore {
  freeBytes = $state<number | null>(null);
  /** Why the space could not be told, in the app's words. */
  problem = $state<string | null>(null);

  private readonly client: ApiClient;

  constructor(client: ApiClient) {
    this.client = client;
  }

  async refresh(): Promise<void> {
    const result = await this.client.invoke('disk:free-space', {});
    if (result.ok) {
      this.freeBytes = result.value;
      this.problem = null;
    } else {
      this.freeBytes = null;
      this.problem = result.error.message;
    }
  }
}
