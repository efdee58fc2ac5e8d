// Preferences for web mode: a JSON file in the state folder, kept by `conf` (atomic writes), the
// Node twin of the desktop app's electron-store.
import Conf from 'conf';
import type { Settings } from '../../src-shared/contract/contract';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import type { SettingsStore } from '../core/app/app-ports';
import { applySettingsChange } from '../core/app/settings-rules';

export function fileSettingsStore(stateFolder: string, defaultDownloadFolder: string): SettingsStore {
  const defaults = defaultSettings(defaultDownloadFolder);
  const conf = new Conf<Settings>({ cwd: stateFolder, configName: 'web-settings', defaults });
  return {
    read() {
      // A hand-edited or older file with a bad value falls back to the defaults rather than failing.
      try {
        return applySettingsChange(defaults, conf.store);
      } catch {
        return defaults;
      }
    },
    write(settings) {
      conf.store = settings;
    },
  };
}
