// Preferences for web mode: a JSON file in the state folder, the Node twin of the desktop app's
// electron-store. Written whole to a temporary file, flushed and renamed into place, so a crash leaves the
// old file or the new one, never half of one. Not `conf`: it loads a module (when-exit) that hooks every
// signal when imported and re-raises it, which cut the command line's clean shutdown short.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Settings } from '../../src-shared/settings/settings-types';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import type { SettingsPersistence } from '../core/app/app-ports';
import { readSettingsFile, warnOnStandardError } from '../core/app/settings-file';

/** The file's name in the state folder (the name `conf` gave it, so saved settings carry over). */
const WEB_SETTINGS_FILE = 'web-settings.json';

export function fileSettingsStore(stateFolder: string, defaultDownloadFolder: string, warn = warnOnStandardError): SettingsPersistence {
  const defaults = defaultSettings(defaultDownloadFolder);
  const file = path.join(stateFolder, WEB_SETTINGS_FILE);
  const write = (settings: Settings): void => writeFileAtomically(file, `${JSON.stringify(settings, undefined, '\t')}\n`);
  return {
    read() {
      // A missing file is the defaults; a damaged or hand-edited one is handled as the desktop app handles its own.
      const { settings, setAside } = readSettingsFile(file, defaults, warn);
      if (setAside) write(settings);
      return settings;
    },
    write,
  };
}

/** Writes `text` to a temporary file beside `file`, flushes it to disk and renames it into place (the download's way). */
function writeFileAtomically(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
