// The preferences a new installation starts with; the download folder is the front end's choice
// (the OS Downloads folder in the desktop app, the --output-dir of web mode).
import type { Settings } from '../contract/contract';
import { DEFAULT_API_VERSION, DEFAULT_BASE_URL, DEFAULT_CLIENT_NAME } from '../api/service-facts';

export const CONCURRENCY_RANGE = { min: 1, max: 16 } as const;
export const RETRIES_RANGE = { min: 0, max: 20 } as const;

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
    windowBounds: null,
  };
}
