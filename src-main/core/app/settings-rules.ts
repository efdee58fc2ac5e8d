// Checks a change of preferences before it is saved, with messages a person can act on.
import path from 'node:path';
import type { Settings } from '../../../src-shared/settings/settings-types';
import { SETTING_NAMES } from '../../../src-shared/settings/default-settings';
import { SETTING_DEFINITIONS, WHOLE_NUMBER_SETTINGS, wholeNumberRefusal, type WholeNumberSetting } from '../../../src-shared/settings/setting-definitions';
import { parseRateLimit } from '../../../src-shared/downloads/rate-limit-text';
import { normaliseSettings } from '../api/client-settings';
import { proxyChoiceOf } from '../network/proxy-setting';
import { InvalidInputError } from '../errors';

const KNOWN: ReadonlySet<string> = new Set(SETTING_NAMES);

function wholeNumber(value: unknown, field: WholeNumberSetting): number {
  const refusal = wholeNumberRefusal(field, value);
  if (refusal !== null) throw new InvalidInputError(refusal, field);
  return value as number;
}

/** The known settings of a saved record (a preferences file may hold keys of another version): the rest is left out. */
export function knownSettings(record: unknown): Partial<Settings> {
  if (typeof record !== 'object' || record === null) return {};
  return Object.fromEntries(Object.entries(record).filter(([key]) => KNOWN.has(key))) as Partial<Settings>;
}

/** What a saved record (a preferences file) comes to: its good values over the defaults, and why each bad one was dropped. */
export interface SavedSettings {
  settings: Settings;
  /** One sentence per value set back to its default, saying what the value must be. */
  refused: string[];
}

/**
 * The rule both front ends read their preferences file by: each value is checked on its own, so one bad value
 * (hand-edited, or from another version) costs that setting alone, not the rest of the file.
 */
export function settingsFromSaved(defaults: Settings, record: unknown): SavedSettings {
  const refused: string[] = [];
  const kept: Partial<Settings> = {};
  for (const [key, value] of Object.entries(knownSettings(record))) {
    try {
      applySettingsChange(defaults, { [key]: value });
      Object.assign(kept, { [key]: value });
    } catch (error) {
      refused.push(error instanceof InvalidInputError ? error.message : `The saved value of "${key}" is not one this version can use.`);
    }
  }
  // Values good alone may still clash together (the server address and its API version): drop the one named.
  for (;;) {
    try {
      return { settings: applySettingsChange(defaults, kept), refused };
    } catch (error) {
      const field = error instanceof InvalidInputError ? (error.field as keyof Settings | undefined) : undefined;
      if (field === undefined || !Object.hasOwn(kept, field)) return { settings: defaults, refused: [...refused, (error as Error).message] };
      refused.push((error as Error).message);
      delete kept[field];
    }
  }
}

/** The settings after `change`, checked and tidied; throws InvalidInputError naming the first bad value. */
export function applySettingsChange(current: Settings, change: Partial<Settings>): Settings {
  if (typeof change !== 'object' || change === null || Array.isArray(change)) {
    throw new InvalidInputError('A settings change must name settings and their new values; nothing was saved.');
  }
  // Own keys only, so a "__proto__" from JSON.parse is seen (and refused) rather than spread into the file.
  const unknown = Object.keys(change).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) {
    const names = unknown.map((key) => `"${key}"`).join(', ');
    throw new InvalidInputError(`${names} ${unknown.length === 1 ? 'is not a setting' : 'are not settings'}; nothing was saved.`);
  }
  // Built from the known names alone: nothing else from either side reaches the saved file.
  const next = Object.fromEntries(SETTING_NAMES.map((key) => [key, Object.hasOwn(change, key) ? change[key] : current[key]])) as unknown as Settings;
  const client = normaliseSettings({ baseUrl: next.baseUrl, apiVersion: next.apiVersion, clientName: next.clientName });
  next.baseUrl = client.baseUrl;
  next.apiVersion = client.apiVersion;
  next.clientName = client.clientName;
  for (const key of WHOLE_NUMBER_SETTINGS) next[key] = wholeNumber(next[key], key);
  const { choices } = SETTING_DEFINITIONS.existingFiles;
  if (!(choices as readonly unknown[]).includes(next.existingFiles)) {
    throw new InvalidInputError(`When a file is already there, choose one of: ${choices.join(', ')}.`, 'existingFiles');
  }
  const folder = typeof next.downloadFolder === 'string' ? next.downloadFolder.trim() : '';
  if (folder.length === 0 || !path.isAbsolute(folder)) {
    throw new InvalidInputError('The download folder must be a full path, such as /home/you/MLSO or C:\\Users\\you\\MLSO.', 'downloadFolder');
  }
  next.downloadFolder = path.normalize(folder);
  if (typeof next.lastEmail !== 'string') next.lastEmail = '';
  next.rememberSession = Boolean(next.rememberSession);
  next.useDemoServer = Boolean(next.useDemoServer);
  next.notifyWhenDone = Boolean(next.notifyWhenDone);
  next.autoUpdate = Boolean(next.autoUpdate);
  // Not coerced like the others: this one lowers a guard, so only a real true or false is taken.
  if (typeof next.allowOtherHosts !== 'boolean') {
    throw new InvalidInputError('Allowing downloads from other servers is either on or off (true or false).', 'allowOtherHosts');
  }
  if (typeof next.proxy !== 'string') throw new InvalidInputError('The proxy is an address, "direct", "system" or empty.', 'proxy');
  next.proxy = next.proxy.trim();
  proxyChoiceOf(next.proxy);
  if (typeof next.limitRate !== 'string') throw new InvalidInputError('The speed cap is a speed such as 5M, or empty for none.', 'limitRate');
  const rate = parseRateLimit(next.limitRate);
  if (!rate.ok) throw new InvalidInputError(rate.reason, 'limitRate');
  next.limitRate = next.limitRate.trim();
  // A window of no size is forgotten (as electron-store's schema would refuse it), so the window opens at its default.
  const bounds = next.windowBounds as unknown as Record<string, unknown> | null;
  const validBounds =
    bounds === null ||
    (typeof bounds === 'object' &&
      ['x', 'y', 'width', 'height'].every((key) => Number.isFinite(bounds[key])) &&
      (bounds['width'] as number) > 0 &&
      (bounds['height'] as number) > 0);
  if (!validBounds) next.windowBounds = null;
  return next;
}
