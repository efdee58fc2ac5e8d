// Preferences in the desktop app: electron-store (atomic JSON writes, checked against a schema) in the
// userData folder. A file that no longer fits the schema (hand-edited, or from a future version) is set
// aside rather than deleted, and the app starts from the defaults.
import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import Store from 'electron-store';
import type { Settings } from '../../src-shared/contract/contract';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import type { SettingsStore } from '../core/app/app-ports';
import { defaultDownloadFolder } from '../core/app/default-download-folder';
import { SETTINGS_FILE_NAME } from './app-locations';
import { SETTINGS_SCHEMA } from './settings-schema';

export { defaultDownloadFolder };

export function electronSettingsStore(folder: string, osDownloadsFolder: string): SettingsStore {
  const defaults = defaultSettings(defaultDownloadFolder(osDownloadsFolder));
  const store = openStore(folder, defaults);
  return {
    read() {
      const saved = store.store;
      const bounds = saved.windowBounds;
      return { ...defaults, ...saved, windowBounds: bounds ? { ...bounds, maximized: bounds.maximized === true } : null };
    },
    write(settings) {
      store.store = settings;
    },
  };
}

function openStore(folder: string, defaults: Settings): Store<Settings> {
  const open = () => new Store<Settings>({ cwd: folder, name: SETTINGS_FILE_NAME, schema: SETTINGS_SCHEMA, defaults });
  try {
    return open();
  } catch (error) {
    const file = path.join(folder, `${SETTINGS_FILE_NAME}.json`);
    if (!existsSync(file)) throw error;
    const setAside = path.join(folder, `${SETTINGS_FILE_NAME}.invalid-${Date.now()}.json`);
    renameSync(file, setAside);
    console.warn(`The preferences file did not fit this version and was set aside as ${setAside}:`, error);
    return open();
  }
}
