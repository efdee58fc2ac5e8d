// What the app says about itself: version, transport, the server in use and what the front end may do.
import type { AppInfo } from '../../src-shared/contract/contract';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from './api';
import { Request } from './request.svelte';

export class AppInfoStore {
  /** The info stays on screen while it is asked for again (the server changed) and when that fails. */
  private readonly request = new Request<AppInfo>({ keepErrorWhileLoading: true });

  private readonly client: ApiClient;

  constructor(client: ApiClient) {
    this.client = client;
  }

  get info(): AppInfo | null {
    return this.request.value;
  }

  get error(): ErrorData | null {
    return this.request.error;
  }

  /** Native dialogs and the file manager exist only in the desktop app. */
  get canUseNativeDialogs(): boolean {
    return this.info?.canUseNativeDialogs ?? false;
  }

  async load(): Promise<void> {
    await this.request.run(() => this.client.invoke('app:info'));
  }
}
