// Web mode's notices: the desktop app's finish watcher (the same wording and figures), shown through the browser's
// Notification API once the user has allowed it there, while the page is not in front and the Settings switch is on.
// In the desktop app the main side shows them instead.
import type { EventChannel } from '../../src-shared/contract/contract';
import { FinishWatcher } from '../../src-shared/notices/finish-notices';
import type { ApiClient } from './api';

const WATCHED = ['downloads:progress', 'downloads:queue-paused', 'campaigns:sync-progress', 'campaigns:changed'] as const satisfies readonly EventChannel[];

/** Whether this browser can show notifications at all. */
export function browserCanNotify(): boolean {
  return typeof Notification !== 'undefined';
}

export function showWebNotices(client: ApiClient, notificationsOn: () => boolean): () => void {
  if (client.transport !== 'websocket' || !browserCanNotify()) return () => undefined;
  const watcher = new FinishWatcher({
    notify(notice) {
      if (!notificationsOn() || Notification.permission !== 'granted' || document.hasFocus()) return;
      const shown = new Notification(notice.title, { body: notice.body });
      shown.onclick = () => window.focus();
    },
    showDock: () => undefined,
  });
  const stops = WATCHED.map((event) => client.on(event, (payload) => watcher.observe(event, payload)));
  return () => stops.forEach((stop) => stop());
}
