// What a preferences file that is not as this version wrote it comes to, in the desktop app and in web mode
// alike: a file that cannot be read as settings (damaged, empty, not an object) is set aside and replaced by the
// defaults; a file with values this version cannot use keeps its good values, the bad ones go back to their
// defaults, and the file as it was is set aside beside the new one. Either way, one notice says so; nothing is
// deleted, so a hand-edit can be recovered.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { Settings } from '../../../src-shared/settings/settings-types';
import { settingsFromSaved } from './settings-rules';

export interface SettingsFileReading {
  settings: Settings;
  /** Where the file was moved, when it was: the caller saves `settings` in its place. */
  setAside?: string;
}

/** Notices go to the standard error stream (the terminal of `mlso-dl web`, the desktop app's log). */
export const warnOnStandardError = (message: string): void => console.warn(message);

/** Reads `file` by the shared rule; a missing file (or one that cannot be opened) is the defaults, silently. */
export function readSettingsFile(file: string, defaults: Settings, warn: (message: string) => void): SettingsFileReading {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { settings: defaults };
  }
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    record = undefined;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    const setAside = setFileAside(file);
    warn(`The preferences file ${file} could not be read as settings and was set aside as ${setAside}; starting from the defaults.`);
    return { settings: defaults, setAside };
  }
  const { settings, refused } = settingsFromSaved(defaults, record);
  if (refused.length === 0) return { settings };
  const setAside = setFileAside(file);
  const which = refused.length === 1 ? 'that setting was set back to its default' : 'those settings were set back to their defaults';
  warn(`The preferences file ${file} held values this version cannot use: ${refused.join(' ')} So ${which}; the file as it was is kept as ${setAside}.`);
  return { settings, setAside };
}

/** Moves `file` to a free name beside it, `<name>.invalid-<time>.json`, and returns that name. */
export function setFileAside(file: string): string {
  const stem = path.join(path.dirname(file), path.basename(file, '.json'));
  let setAside = `${stem}.invalid-${Date.now()}.json`;
  for (let n = 2; existsSync(setAside); n++) setAside = `${stem}.invalid-${Date.now()}-${n}.json`;
  renameSync(file, setAside);
  return setAside;
}
