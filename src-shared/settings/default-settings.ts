// The preferences a new installation starts with, from the table of setting definitions; the download folder is
// the front end's choice (MLSO in the user's Downloads folder, in the desktop app and in web mode alike).
import type { Settings } from './settings-types';
import { SETTING_DEFINITIONS } from './setting-definitions';

export const DEFAULT_LISTING_TIMEOUT_MINUTES = SETTING_DEFINITIONS.listingTimeoutMinutes.default;
export const DEFAULT_MAX_LISTING_MEGABYTES = SETTING_DEFINITIONS.maxListingMegabytes.default;

/** Each setting's default, as the table writes it. */
function defaultsOf<Table extends Record<string, { default: unknown }>>(table: Table): { [Name in keyof Table]: Table[Name]['default'] } {
  return Object.fromEntries(Object.entries(table).map(([key, definition]) => [key, definition.default])) as { [Name in keyof Table]: Table[Name]['default'] };
}

/** Typed as Settings, so a default that is not a value of its setting (a choice not among the choices) does not compile. */
const DEFAULTS: Settings = defaultsOf(SETTING_DEFINITIONS);

export function defaultSettings(downloadFolder: string): Settings {
  return { ...DEFAULTS, downloadFolder };
}

/** The name of every setting, from the table (the Settings type is derived from it). */
export const SETTING_NAMES: readonly (keyof Settings)[] = Object.keys(SETTING_DEFINITIONS) as (keyof Settings)[];
