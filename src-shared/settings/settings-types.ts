// The app's preferences as the front ends and the core pass them around; what each may hold is defined once in
// setting-definitions.ts, and the contract (contract.ts) carries them on its settings channels.
import type { ExistingFilePolicy } from '../downloads/existing-file-policy';

export interface WindowBounds {
  x: number;
  y: number;
  width: number;
  height: number;
  maximized: boolean;
}

/** Preferences, kept by electron-store in the desktop app and in a JSON file in web mode. */
export interface Settings {
  /** The service the user chose (the real one by default); ignored while the demo server is on. */
  baseUrl: string;
  apiVersion: string;
  clientName: string;
  downloadFolder: string;
  concurrency: number;
  /** Further attempts for a file that fails (so attempts = retries + 1). */
  retries: number;
  existingFiles: ExistingFilePolicy;
  lastEmail: string;
  /** Keep the session between launches (encrypted with the system keychain in the desktop app). */
  rememberSession: boolean;
  /** Use the bundled emulator instead of `baseUrl` (it is started on demand). */
  useDemoServer: boolean;
  /** Download files whose listed (or redirected) address is on another server than the API's; never with the session cookie. */
  allowOtherHosts: boolean;
  /** A file already downloaded into another folder is hard-linked from there instead of copied. */
  linkReused: boolean;
  windowBounds: WindowBounds | null;
  /** The longest a catalogue answer (a search's file list) may take to arrive, in whole minutes. */
  listingTimeoutMinutes: number;
  /** The most a catalogue answer may hold, in whole megabytes (MiB), as sent and once decompressed. */
  maxListingMegabytes: number;
  /** Days after its end before a campaign's month is no longer listed again at each sync (campaign-windows.ts). */
  settleDays: number;
}
