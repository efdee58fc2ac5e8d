// What the app says about itself: version, transport, the server in use and what the front end may do.
import type { AppInfo } from '../../src-shared/contract/contract';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';

export class AppInfoStore {
  info = $state.raw<AppInfo | null>(null);
  error = $state.raw<ErrorData | null>(null);

  private readonly client: ApiClient;

  constructor(client: ApiClient) {
    this.client = client;
  }

  /** Native dialogs and the file manager exist only in the desktop app. */
  get canUseNativeDialogs(): boolean {
    return this.info?.canUseNativeDialogs ?? false;
  }

  async load(): Promise<void> {
    const result = await this.client.invoke('app:info');
    if (result.ok) {
      this.info = result.value;
      this.error = null;
    } else {
      this.error = result.error;
    }
  }
}
