// Preferences in the desktop app: electron-store (atomic JSON writes, checked against a schema) in the
// userData folder. The file is first read by the rule web mode reads its own by (settings-file.ts): a damaged
// file is set aside for the defaults, a bad value goes back to its default with the file as it was kept.
import { existsSync } from 'node:fs';
import path from 'node:path';
import Store from 'electron-store';
import type { Settings } from '../../src-shared/settings/settings-types';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import type { SettingsPersistence } from '../core/app/app-ports';
import { defaultDownloadFolder } from '../core/app/default-download-folder';
import { readSettingsFile, setFileAside, warnOnStandardError } from '../core/app/settings-file';
import { knownSettings } from '../core/app/settings-rules';
import { SETTINGS_FILE_NAME } from './app-locations';
import { SETTINGS_SCHEMA } from './settings-schema';

export { defaultDownloadFolder };

export function electronSettingsStore(folder: string, osDownloadsFolder: string, warn = warnOnStandardError): SettingsPersistence {
  // A desktop app follows the system's proxy settings (PAC script included), as the browser beside it does.
  const defaults: Settings = { ...defaultSettings(defaultDownloadFolder(osDownloadsFolder)), proxy: 'system' };
  const file = path.join(folder, `${SETTINGS_FILE_NAME}.json`);
  const reading = readSettingsFile(file, defaults, warn);
  const store = openStore(folder, file, defaults, warn);
  if (reading.setAside) store.store = reading.settings;
  return {
    read() {
      const saved = knownSettings(store.store);
      const bounds = saved.windowBounds;
      return { ...defaults, ...saved, windowBounds: bounds ? { ...bounds, maximized: bounds.maximized === true } : null };
    },
    write(settings) {
      store.store = settings;
    },
  };
}

function openStore(folder: string, file: string, defaults: Settings, warn: (message: string) => void): Store<Settings> {
  const open = () => new Store<Settings>({ cwd: folder, name: SETTINGS_FILE_NAME, schema: SETTINGS_SCHEMA, defaults });
  try {
    return open();
  } catch (error) {
    // The rules passed the file, yet the schema refuses it: the two disagree, so the defaults are the safe start.
    if (!existsSync(file)) throw error;
    const setAside = setFileAside(file);
    warn(`The preferences file ${file} did not fit this version and was set aside as ${setAside}; starting from the defaults.`);
    return open();
  }
}
