// Quitting while files are downloading asks first, then closes the core (the ledger keeps every
// unfinished file, so they resume next launch) before the app exits. Every way out goes through here:
// the window's close button, the app menu's Quit, and SIGINT/SIGTERM (which do not ask).

export interface QuitGuardOptions {
  /** Downloads transferring or waiting their turn (0 when none). */
  countActiveDownloads(): Promise<number>;
  /** Asks the user; true to quit anyway. */
  confirmQuit(message: string, detail: string): Promise<boolean>;
  /** Saves what must survive and closes the core; errors are reported but do not stop the exit. */
  shutDown(): Promise<void>;
  /** Actually leaves (app.quit once the guard allows it). */
  exit(): void;
}

export interface QuitGuard {
  /** True once shutdown finished: the close and before-quit events must then let go. */
  readonly mayQuit: boolean;
  /** Starts the quit (asking first when downloads run); concurrent requests share one attempt. */
  requestQuit(options?: { ask?: boolean }): Promise<void>;
}

export function quitQuestion(count: number): { message: string; detail: string } {
  const message = count === 1 ? '1 download is in progress. Quit anyway?' : `${count} downloads are in progress. Quit anyway?`;
  return { message, detail: count === 1 ? 'It will resume next time.' : 'They will resume next time.' };
}

export function createQuitGuard(options: QuitGuardOptions): QuitGuard {
  let mayQuit = false;
  let attempt: Promise<void> | null = null;

  async function quit(ask: boolean): Promise<void> {
    if (ask) {
      const count = await options.countActiveDownloads();
      if (count > 0) {
        const { message, detail } = quitQuestion(count);
        if (!(await options.confirmQuit(message, detail))) return;
      }
    }
    try {
      await options.shutDown();
    } catch (error) {
      console.error('MLSO Downloader did not shut down cleanly:', error);
    }
    mayQuit = true;
    options.exit();
  }

  return {
    get mayQuit() {
      return mayQuit;
    },
    requestQuit({ ask = true } = {}) {
      if (mayQuit) {
        options.exit();
        return Promise.resolve();
      }
      attempt ??= quit(ask).finally(() => {
        attempt = null;
      });
      return attempt;
    },
  };
}
