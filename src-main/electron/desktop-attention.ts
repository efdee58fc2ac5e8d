// The core's finish notices and dock state shown by the platform: a system notification (unless the window is in
// front, or the user turned them off in Settings), the taskbar or dock progress bar, and a badge of failed files.
import { app, Notification, type BrowserWindow } from 'electron';
import type { DockState, FinishNotice } from '../../src-shared/notices/finish-notices';

export interface DesktopAttentionOptions {
  currentWindow(): BrowserWindow | null;
  /** The Settings switch, read at each notice so a change applies at once. */
  notificationsOn(): boolean;
  /** A click on a notice brings the window to the front. */
  showWindow(): void;
}

export function desktopAttention(options: DesktopAttentionOptions): { notify(notice: FinishNotice): void; showDock(state: DockState): void } {
  return {
    notify(notice) {
      if (!options.notificationsOn() || !Notification.isSupported()) return;
      const window = liveWindow(options.currentWindow());
      if (window?.isFocused()) return;
      const shown = new Notification({ title: notice.title, body: notice.body, urgency: notice.problem ? 'critical' : 'normal' });
      shown.on('click', () => options.showWindow());
      shown.show();
    },
    showDock(state) {
      const window = liveWindow(options.currentWindow());
      if (window) {
        // -1 removes the bar; Windows colours a paused queue's bar, and one with failures, differently.
        const mode = state.paused ? 'paused' : state.failed > 0 ? 'error' : 'normal';
        window.setProgressBar(state.fraction ?? -1, { mode: state.fraction === null ? 'none' : mode });
      }
      // The badge (macOS dock, Unity launcher) counts failed files, as the Downloads entry's red badge does.
      app.setBadgeCount(state.failed);
    },
  };
}

function liveWindow(window: BrowserWindow | null): BrowserWindow | null {
  return window && !window.isDestroyed() ? window : null;
}
