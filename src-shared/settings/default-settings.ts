// The preferences a new installation starts with, from the table of setting definitions; the download folder is
// the front end's choice (MLSO in the user's Downloads folder, in the desktop app and in web mode alike).
import type { Settings } from './settings-types';
import { SETTING_DEFINITIONS } from './setting-definitions';

export const DEFAULT_LISTING_TIMEOUT_MINUTES = SETTING_DEFINITIONS.listingTimeoutMinutes.default;
export const DEFAULT_MAX_LISTING_MEGABYTES = SETTING_DEFINITIONS.maxListingMegabytes.default;

export function defaultSettings(downloadFolder: string): Settings {
  const defaults = Object.fromEntries(Object.entries(SETTING_DEFINITIONS).map(([key, definition]) => [key, definition.default])) as unknown as Settings;
  return { ...defaults, downloadFolder };
}

/** The name of every setting, from the table (which the type checker holds to the Settings type). */
export const SETTING_NAMES: readonly (keyof Settings)[] = Object.keys(SETTING_DEFINITIONS) as (keyof Settings)[];
