// What a running emulator offers its starter: its address, its knobs and its statistics. Its own module so the
// handlers the emulator calls (control-handlers.ts) can name it without importing the module that starts it.
import type { DownloadFault } from './faults';
import type { EmulatorOptions } from './options';
import type { EmulatorStats } from './stats';

export interface RunningEmulator {
  /** e.g. http://127.0.0.1:43127 (no trailing slash) */
  url: string;
  port: number;
  /** The address the server is bound to, as the system reports it: 0.0.0.0 or :: for every interface. */
  boundAddress: string;
  /** The current options (a frozen copy; change them with setOptions). */
  readonly options: EmulatorOptions;
  /** Knobs can change while running; catalogue-shaping ones rebuild the catalogue. Host and port cannot change. */
  setOptions(partial: Partial<EmulatorOptions>): void;
  /** The next `times` (default 1) downloads of that file (listed name, with or without .gz) get the fault. */
  injectFault(filename: string, fault: DownloadFault, times?: number): void;
  /** The next downloads of that file get these faults, one each, in order (e.g. a 401, then a 503, then a 401). */
  injectFaults(filename: string, faults: readonly DownloadFault[]): void;
  /** Forgets every injected fault not used yet (tests call it between cases). */
  clearFaults(): void;
  /** Test hook applied to every files-endpoint body before it is sent. */
  transformListing?: (listing: Record<string, unknown>) => Record<string, unknown>;
  stats(): EmulatorStats;
  resetStats(): void;
  /** Invalidates every session now. */
  expireSessions(): void;
  /** The exact decompressed FITS bytes served for that file. */
  fileBytes(instrument: string, filename: string): Promise<Buffer>;
  /** Closes the server and every open socket. */
  close(): Promise<void>;
}
