// Keeping the desktop app current: a check at start and once a day while the user's switch is on, the update fetched in
// the background (the updater checks its SHA-512 against the feed's), and installed when the app quits, but never
// while downloads are running or waiting their turn: they resume at the next start and the update waits for the next
// quit. A feed that cannot be reached is said once, not once a day. The updater (electron-updater) comes in through a
// small port, so this runs and is tested in plain Node.

/** A day: the usual rhythm of desktop apps' update checks, and far under any release cadence. */
const UPDATE_CHECK_EVERY_MS = 24 * 60 * 60 * 1000;

/** What this needs of electron-updater's AppUpdater. */
export interface UpdaterPort {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<unknown>;
  on(event: 'update-downloaded' | 'update-not-available' | 'update-available', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface UpdateKeeperOptions {
  /** The Settings switch, read at each check and at quit. */
  updatesOn(): boolean;
  /** Files transferring or waiting their turn. */
  activeDownloads(): number;
  /** Where a problem is said (the app's log). */
  warn(message: string): void;
  everyMs?: number;
}

/** The one rule: an update is installed only while the user wants updates and nothing is downloading. */
function mayInstallUpdate(updatesOn: boolean, activeDownloads: number): boolean {
  return updatesOn && activeDownloads === 0;
}

export class UpdateKeeper {
  private timer: NodeJS.Timeout | undefined;
  private problemSaid = false;
  private downloadedVersion: string | null = null;

  constructor(
    private readonly updater: UpdaterPort,
    private readonly options: UpdateKeeperOptions,
  ) {
    updater.autoDownload = true;
    // Kept on so electron-updater sets up its install-on-quit; whether it installs is decided at quit (beforeQuit).
    updater.autoInstallOnAppQuit = true;
    updater.on('update-downloaded', (info) => {
      this.downloadedVersion = info.version;
    });
    updater.on('update-available', () => (this.problemSaid = false));
    updater.on('update-not-available', () => (this.problemSaid = false));
    // electron-updater also rejects the check or download; saying it there is enough, this keeps the emitter quiet.
    updater.on('error', () => undefined);
  }

  /** The version fetched and checked, waiting for the app to quit; null when none. */
  get waitingVersion(): string | null {
    return this.downloadedVersion;
  }

  start(): void {
    void this.check();
    this.timer = setInterval(() => void this.check(), this.options.everyMs ?? UPDATE_CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** Checks (and, when there is one, fetches) an update; never throws. */
  async check(): Promise<void> {
    if (!this.options.updatesOn()) return;
    try {
      const result = (await this.updater.checkForUpdates()) as { downloadPromise?: Promise<unknown> } | null;
      await result?.downloadPromise;
    } catch (error) {
      this.sayOnce(`Could not update MLSO Downloader: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }

  /** Decides, as the app quits, whether the update fetched is installed now. */
  beforeQuit(): void {
    this.updater.autoInstallOnAppQuit = mayInstallUpdate(this.options.updatesOn(), this.options.activeDownloads());
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sayOnce(message: string): void {
    if (this.problemSaid) return;
    this.problemSaid = true;
    this.options.warn(message);
  }
}
