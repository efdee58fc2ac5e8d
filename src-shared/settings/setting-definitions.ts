// Every setting once: its label (how a refusal names it), the kind of its value, its range or choices and its
// default. The rest is derived from this table: the defaults (default-settings.ts), the app's rules
// (settings-rules.ts), the contract's zod schema (contract-schemas.ts), electron-store's JSON schema
// (settings-schema.ts), the engine's limits and the command line's options (download-limits.ts), and the hints of
// the settings screen. Plain data, no library: the command line reads it at start-up and the renderer bundles it.
import type { Settings } from './settings-types';
import { DEFAULT_API_VERSION, DEFAULT_BASE_URL, DEFAULT_CLIENT_NAME } from '../api/service-facts';
import { EXISTING_FILE_POLICIES } from '../downloads/existing-file-policy';

export interface WholeRange {
  min: number;
  max: number;
}

/** The kinds of value a setting takes, each checked the same way by every layer that checks it. */
export type SettingDefinition<T> = { label: string; default: T } & (
  | { kind: 'link' }
  | { kind: 'name' }
  | { kind: 'text' }
  | { kind: 'path' }
  | { kind: 'whole'; range: WholeRange }
  | { kind: 'choice'; choices: readonly T[] }
  | { kind: 'switch' }
  | { kind: 'bounds' }
);

export const SETTING_DEFINITIONS = {
  baseUrl: { label: 'The server address', kind: 'link', default: DEFAULT_BASE_URL },
  apiVersion: { label: 'The API version', kind: 'name', default: DEFAULT_API_VERSION },
  clientName: { label: 'The client name', kind: 'name', default: DEFAULT_CLIENT_NAME },
  /** The front end's choice (MLSO in the user's Downloads folder): see defaultSettings. */
  downloadFolder: { label: 'The download folder', kind: 'path', default: '' },
  concurrency: { label: 'Concurrency', kind: 'whole', range: { min: 1, max: 16 }, default: 4 },
  /**
   * Further attempts for a file that fails. Twenty, with the delay doubling up to a minute, is some quarter of an
   * hour of trying: a file still failing then fails for a reason more attempts will not mend.
   */
  retries: { label: 'Retries', kind: 'whole', range: { min: 0, max: 20 }, default: 4 },
  existingFiles: { label: 'The choice for files already there', kind: 'choice', choices: EXISTING_FILE_POLICIES, default: 'skip' },
  lastEmail: { label: 'The last e-mail', kind: 'text', default: '' },
  rememberSession: { label: 'Remember the session', kind: 'switch', default: false },
  useDemoServer: { label: 'Use the demo server', kind: 'switch', default: false },
  allowOtherHosts: { label: 'Allow downloads from other servers', kind: 'switch', default: false },
  /** A file already downloaded into another folder is taken from there: copied (a reflink where possible), or hard-linked. */
  linkReused: { label: 'Hard-link files already downloaded into another folder', kind: 'switch', default: false },
  windowBounds: { label: 'The window position', kind: 'bounds', default: null },
  /** Ten minutes (a 100,000-file listing, about 33 MB, needs seconds); a day at most: a limit that never ends is no limit. */
  listingTimeoutMinutes: { label: 'The listing time limit (minutes)', kind: 'whole', range: { min: 1, max: 1440 }, default: 10 },
  /** About 800,000 files (some 7 times a 100,000-file listing), well within a desktop's memory once parsed. */
  maxListingMegabytes: { label: 'The listing size limit (MB)', kind: 'whole', range: { min: 1, max: 4096 }, default: 256 },
  /**
   * A campaign's month of a query is listed again at each sync until it has been over this many days (late files,
   * reprocessing); then its files are trusted to the ledger. Ten years at most: the whole archive relisted.
   */
  settleDays: { label: 'The days before a month is settled', kind: 'whole', range: { min: 0, max: 3650 }, default: 7 },
} as const satisfies { [K in keyof Settings]-?: SettingDefinition<Settings[K]> };

export type SettingName = keyof typeof SETTING_DEFINITIONS;
type WholeNumberSetting = { [K in SettingName]: (typeof SETTING_DEFINITIONS)[K] extends { kind: 'whole' } ? K : never }[SettingName];

/** The settings that are whole numbers in a range, in the table's order. */
export const WHOLE_NUMBER_SETTINGS = (Object.keys(SETTING_DEFINITIONS) as SettingName[]).filter(
  (key): key is WholeNumberSetting => SETTING_DEFINITIONS[key].kind === 'whole',
);

/** "from 1 to 16": how every layer words a whole-number range. */
export function rangeText(range: WholeRange): string {
  return `from ${range.min} to ${range.max}`;
}
