// The preferences a new installation starts with; the download folder is the front end's choice
// (MLSO in the user's Downloads folder, in the desktop app and in web mode alike).
import type { Settings } from '../contract/contract';
import { DEFAULT_API_VERSION, DEFAULT_BASE_URL, DEFAULT_CLIENT_NAME } from '../api/service-facts';

export const CONCURRENCY_RANGE = { min: 1, max: 16 } as const;
export const RETRIES_RANGE = { min: 0, max: 20 } as const;
/** A day at most: a limit that never ends is no limit. */
export const LISTING_TIMEOUT_MINUTES_RANGE = { min: 1, max: 1440 } as const;
export const MAX_LISTING_MEGABYTES_RANGE = { min: 1, max: 4096 } as const;
/** Ten minutes: a 100,000-file listing (about 33 MB) needs seconds on a working connection. */
export const DEFAULT_LISTING_TIMEOUT_MINUTES = 10;
/** About 800,000 files (some 7 times a 100,000-file listing), well within a desktop's memory once parsed. */
export const DEFAULT_MAX_LISTING_MEGABYTES = 256;

export function defaultSettings(downloadFolder: string): Settings {
  return {
    baseUrl: DEFAULT_BASE_URL,
    apiVersion: DEFAULT_API_VERSION,
    clientName: DEFAULT_CLIENT_NAME,
    downloadFolder,
    concurrency: 4,
    retries: 4,
    existingFiles: 'skip',
    lastEmail: '',
    rememberSession: false,
    useDemoServer: false,
    allowOtherHosts: false,
    windowBounds: null,
    listingTimeoutMinutes: DEFAULT_LISTING_TIMEOUT_MINUTES,
    maxListingMegabytes: DEFAULT_MAX_LISTING_MEGABYTES,
  };
}

/** The name of every setting, from the defaults (which the type checker holds to the Settings type). */
export const SETTING_NAMES: readonly (keyof Settings)[] = Object.keys(defaultSettings('')) as (keyof Settings)[];
