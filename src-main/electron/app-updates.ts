// electron-updater's updater for this platform under the core's UpdateKeeper: the feed is the one electron-builder.yml
// names (packed into the app as app-update.yml), so only a packaged app checks; a development run has none.
import { app } from 'electron';
import electronUpdater from 'electron-updater';
import { UpdateKeeper, type UpdateKeeperOptions } from '../core/app/update-keeper';

export function startAppUpdates(options: Omit<UpdateKeeperOptions, 'warn' | 'everyMs'>): UpdateKeeper | null {
  if (!app.isPackaged) return null;
  // electron-updater is CommonJS: its autoUpdater is a getter that builds the platform's updater on first use.
  const keeper = new UpdateKeeper(electronUpdater.autoUpdater, { ...options, warn: (message) => console.warn(message) });
  keeper.start();
  return keeper;
}
