// Preferences for web mode: a JSON file in the state folder, the Node twin of the desktop app's
// electron-store. Written whole to a temporary file, flushed and renamed into place, so a crash leaves the
// old file or the new one, never half of one. Not `conf`: it loads a module (when-exit) that hooks every
// signal when imported and re-raises it, which cut the command line's clean shutdown short.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import type { SettingsStore } from '../core/app/app-ports';
import { applySettingsChange, knownSettings } from '../core/app/settings-rules';

/** The file's name in the state folder (the name `conf` gave it, so saved settings carry over). */
export const WEB_SETTINGS_FILE = 'web-settings.json';

export function fileSettingsStore(stateFolder: string, defaultDownloadFolder: string): SettingsStore {
  const defaults = defaultSettings(defaultDownloadFolder);
  const file = path.join(stateFolder, WEB_SETTINGS_FILE);
  return {
    read() {
      // A missing, damaged, hand-edited or older file with a bad value falls back to the defaults rather than failing.
      try {
        return applySettingsChange(defaults, knownSettings(JSON.parse(readFileSync(file, 'utf8'))));
      } catch {
        return defaults;
      }
    },
    write(settings) {
      writeFileAtomically(file, `${JSON.stringify(settings, undefined, '\t')}\n`);
    },
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
