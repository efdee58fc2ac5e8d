// Whether the window is connected to the app (always, in the desktop app; over a WebSocket in web mode).
import type { ApiClient, ConnectionStatus } from '../lib/api';

export class ConnectionStore {
  status = $state<ConnectionStatus>('open');

  constructor(client: ApiClient, onReconnected: () => void) {
    this.status = client.connectionStatus();
    client.onConnectionChange((status) => {
      const wasLost = this.status === 'reconnecting';
      this.status = status;
      // Events sent while the link was down are gone: fetch the state afresh.
      if (status === 'open' && wasLost) onReconnected();
    });
  }

  get lost(): boolean {
    return this.status === 'reconnecting';
  }
}
