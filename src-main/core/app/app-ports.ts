// What the app core needs from the front end that hosts it (the Electron shell or web mode): storage for
// preferences and the session, the platform's dialogs and shell, and a way to send events. Everything
// platform-specific comes in through these ports, so the core runs and is tested in plain Node.
import type { EventSink } from '../../../src-shared/contract/contract';
import type { Settings } from '../../../src-shared/settings/settings-types';
import type { SystemProxyResolver } from '../network/system-proxy';

/** Preferences storage: electron-store in the desktop app, a JSON file written atomically in web mode, memory in tests. */
export interface SettingsPersistence {
  read(): Settings;
  /** Saves the given (already validated) settings. */
  write(settings: Settings): void;
}

/**
 * Where a secret is kept (the remembered session cookie, the proxy password); the desktop app encrypts it with the
 * system keychain (safeStorage), or keeps it for the run only where the keychain cannot protect it.
 */
export interface SecretVault {
  load(): Promise<string | null>;
  save(secret: string | null): Promise<void>;
}

/** The platform's dialogs and shell; absent in web mode (the renderer is then told it cannot use them). */
export interface PlatformShell {
  chooseFolder(current: string): Promise<string | null>;
  openPath(folder: string): Promise<void>;
  showItemInFolder(file: string): void;
  openExternal(url: string): Promise<void>;
}

/** Starts the bundled emulator for "Use demo server"; injected so the core does not depend on the emulator. */
export type DemoServerStarter = () => Promise<{ url: string; close(): Promise<void> }>;

export interface AppCoreOptions {
  version: string;
  transport: 'electron' | 'web';
  /** Folder of the download ledger (and, in web mode, the preferences file). */
  stateFolder: string;
  settings: SettingsPersistence;
  sessionVault?: SecretVault;
  shell?: PlatformShell;
  startDemoServer: DemoServerStarter;
  emit: EventSink;
  /** The system's proxy for an address (the desktop app's session), for the proxy setting "system". */
  systemProxy?: SystemProxyResolver;
}
