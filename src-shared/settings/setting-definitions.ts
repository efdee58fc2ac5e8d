// Every setting once: its label (how a refusal names it), the kind of its value, its range or choices and its
// default. The rest is derived from this table: the defaults (default-settings.ts), the app's rules
// (settings-rules.ts), the contract's zod schema (contract-schemas.ts), electron-store's JSON schema
// (settings-schema.ts), the engine's limits and the command line's options (download-limits.ts), and the hints of
// the settings screen, and the Settings type itself. Plain data, no library: the command line reads it at start-up
// and the renderer bundles it.
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

/** Where the window was and how big, for the 'bounds' kind (settings-types.ts hands it to the front ends). */
export interface WindowBounds {
  x: number;
  y: number;
  width: number;
  height: number;
  maximized: boolean;
}

/** The value each kind of setting holds (a choice: one of its choices). */
interface KindValues {
  link: string;
  name: string;
  text: string;
  path: string;
  whole: number;
  choice: string;
  switch: boolean;
  bounds: WindowBounds | null;
}

/** A definition whose default is a value of its kind. */
export type KindedDefinition = { [K in keyof KindValues]: SettingDefinition<KindValues[K]> & { kind: K } }[keyof KindValues];

export const SETTING_DEFINITIONS = {
  /** The service the user chose (the real one by default); ignored while the demo server is on. */
  baseUrl: { label: 'The server address', kind: 'link', default: DEFAULT_BASE_URL },
  apiVersion: { label: 'The API version', kind: 'name', default: DEFAULT_API_VERSION },
  clientName: { label: 'The client name', kind: 'name', default: DEFAULT_CLIENT_NAME },
  /** The front end's choice (MLSO in the user's Downloads folder): see defaultSettings. */
  downloadFolder: { label: 'The download folder', kind: 'path', default: '' },
  concurrency: { label: 'Concurrency', kind: 'whole', range: { min: 1, max: 16 }, default: 4 },
  /**
   * Further attempts for a file that fails. Twenty, with the delay doubling up to a minute, is some quarter of an
   * hour of trying: a file still failing then fails for a reason more attempts will not mend. Attempts = retries + 1.
   */
  retries: { label: 'Retries', kind: 'whole', range: { min: 0, max: 20 }, default: 4 },
  existingFiles: { label: 'The choice for files already there', kind: 'choice', choices: EXISTING_FILE_POLICIES, default: 'skip' },
  lastEmail: { label: 'The last e-mail', kind: 'text', default: '' },
  /** Keep the session between launches (encrypted with the system keychain in the desktop app). */
  rememberSession: { label: 'Remember the session', kind: 'switch', default: false },
  /** Use the bundled emulator instead of `baseUrl` (it is started on demand). */
  useDemoServer: { label: 'Use the demo server', kind: 'switch', default: false },
  /** Download files whose listed (or redirected) address is on another server than the API's; never with the session cookie. */
  allowOtherHosts: { label: 'Allow downloads from other servers', kind: 'switch', default: false },
  /** A file already downloaded into another folder is taken from there: copied (a reflink where possible), or hard-linked. */
  linkReused: { label: 'Hard-link files already downloaded into another folder', kind: 'switch', default: false },
  windowBounds: { label: 'The window position', kind: 'bounds', default: null },
  /** A desktop notification when downloads or a campaign's sync end, or the queue stops, while the window is not in front. */
  notifyWhenDone: { label: 'Notify when downloads end', kind: 'switch', default: true },
  /** The desktop app checks for a new version at start and daily, fetches it in the background and installs it on quit. */
  autoUpdate: { label: 'Keep the app up to date', kind: 'switch', default: true },
  /**
   * The longest a catalogue answer (a search's file list) may take to arrive, in whole minutes. Ten minutes (a
   * 100,000-file listing, about 33 MB, needs seconds); a day at most: a limit that never ends is no limit.
   */
  listingTimeoutMinutes: { label: 'The listing time limit (minutes)', kind: 'whole', range: { min: 1, max: 1440 }, default: 10 },
  /**
   * The most a catalogue answer may hold, in whole megabytes (MiB), as sent and once decompressed. About 800,000
   * files (some 7 times a 100,000-file listing), well within a desktop's memory once parsed.
   */
  maxListingMegabytes: { label: 'The listing size limit (MB)', kind: 'whole', range: { min: 1, max: 4096 }, default: 256 },
  /**
   * A campaign's month of a query is listed again at each sync until it has been over this many days (late files,
   * reprocessing); then its files are trusted to the ledger (campaign-windows.ts). Ten years at most: the whole
   * archive relisted.
   */
  settleDays: { label: 'The days before a month is settled', kind: 'whole', range: { min: 0, max: 3650 }, default: 7 },
  /**
   * The proxy every request goes through: empty for the environment's variables (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY,
   * NO_PROXY), "direct" for none, "system" for the system's (the desktop app asks its session), or an address.
   */
  proxy: { label: 'The proxy', kind: 'text', default: '' },
  /** The whole queue's download rate cap, as --limit-rate takes it (5M, 5MB/s, 500K); empty for none. */
  limitRate: { label: 'The speed cap', kind: 'text', default: '' },
} as const satisfies Record<string, KindedDefinition>;

export type SettingName = keyof typeof SETTING_DEFINITIONS;

/** The value a definition's setting holds: its kind's, or one of its choices. */
type ValueOf<Definition> = Definition extends { kind: 'choice'; choices: readonly (infer Choice)[] }
  ? Choice
  : Definition extends { kind: infer Kind extends keyof KindValues }
    ? KindValues[Kind]
    : never;

/** The settings a table of definitions describes, each the value of its kind. */
export type SettingsOf<Table> = { -readonly [Name in keyof Table]: ValueOf<Table[Name]> };

/** Preferences, kept by electron-store in the desktop app and in a JSON file in web mode. */
export type Settings = SettingsOf<typeof SETTING_DEFINITIONS>;
export type WholeNumberSetting = { [K in SettingName]: (typeof SETTING_DEFINITIONS)[K] extends { kind: 'whole' } ? K : never }[SettingName];

/** The settings that are whole numbers in a range, in the table's order. */
export const WHOLE_NUMBER_SETTINGS = (Object.keys(SETTING_DEFINITIONS) as SettingName[]).filter(
  (key): key is WholeNumberSetting => SETTING_DEFINITIONS[key].kind === 'whole',
);

/** Why a whole-number setting refuses a value ("Concurrency must be a whole number from 1 to 16."), or null if it takes it. */
export function wholeNumberRefusal(key: WholeNumberSetting, value: unknown): string | null {
  const { label, range } = SETTING_DEFINITIONS[key];
  if (typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max) return null;
  return `${label} must be a whole number ${rangeText(range)}.`;
}

/** "from 1 to 16": how every layer words a whole-number range. */
export function rangeText(range: WholeRange): string {
  return `from ${range.min} to ${range.max}`;
}
