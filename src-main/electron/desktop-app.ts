// The desktop app put together: the core behind the contract, the window, the ports it needs, and the
// way out. Called once the single-instance lock is held.
import { app, BrowserWindow, dialog, ipcMain, powerMonitor, safeStorage, screen, session } from 'electron';
import type { EventSink } from '../../src-shared/contract/contract';
import type { WindowBounds } from '../../src-shared/settings/settings-types';
import { createAppCore, type AppCore } from '../core/app/app-core';
import { keepProxyPasswordIn } from '../core/app/keychain-proxy-password';
import { startDemoServer } from '../emulator/demo-server';
import { FinishWatcher } from '../../src-shared/notices/finish-notices';
import { invokeHandler } from '../core/app/invoke-handler';
import type { AppLocations } from './app-locations';
import { listenForAppLinks } from './app-links';
import { startAppUpdates } from './app-updates';
import { installContentSecurityPolicy } from './content-security-policy';
import { registerContractHandlers } from './contract-ipc';
import { electronSettingsStore } from './electron-settings-store';
import { desktopAttention } from './desktop-attention';
import { createMainWindow } from './main-window';
import { denyPermissionRequests } from './permissions';
import { electronPlatformShell } from './platform-shell';
import { createQuitGuard, type QuitGuard } from './quit-guard';
import { electronSecretSlot, PROXY_PASSWORD_PLACE, SESSION_PLACE } from './secret-slot';
import { safeStorageVault } from './secret-vault';
import { sessionSystemProxy } from './system-proxy';
import { boundsToRestore, trackWindowBounds } from './window-bounds';
import { windowEventSink } from './window-event-sink';

export interface DesktopApp {
  core: AppCore;
  window: BrowserWindow;
  quitGuard: QuitGuard;
}

/** `argv`: the command line the app started with, which may carry a link or a campaign file to open. */
export async function runDesktopApp(locations: AppLocations, argv: readonly string[] = process.argv): Promise<DesktopApp> {
  let window: BrowserWindow | null = null;
  const currentWindow = () => window;
  const links = listenForAppLinks(argv);
  app.on('second-instance', () => bringToFront(window));
  app.on('activate', () => bringToFront(window));

  await app.whenReady();
  installContentSecurityPolicy(session.defaultSession);
  denyPermissionRequests(session.defaultSession);

  const stateFolder = app.getPath('userData');
  const settings = await keepProxyPasswordIn(
    safeStorageVault(electronSecretSlot(stateFolder, PROXY_PASSWORD_PLACE), safeStorage),
    electronSettingsStore(stateFolder, osDownloadsFolder()),
    (message) => console.warn(message),
  );
  // Reads the switch through the core once it exists (the core owns the preferences); nothing is told before.
  let notificationsOn = () => false;
  const finishWatcher = new FinishWatcher(
    desktopAttention({ currentWindow, notificationsOn: () => notificationsOn(), showWindow: () => bringToFront(window) }),
  );
  const toWindow = windowEventSink(currentWindow);
  const emit: EventSink = (event, payload) => {
    toWindow(event, payload);
    finishWatcher.observe(event, payload);
  };
  const core = await createAppCore({
    version: app.getVersion(),
    transport: 'electron',
    stateFolder,
    settings,
    sessionVault: safeStorageVault(electronSecretSlot(stateFolder, SESSION_PLACE), safeStorage),
    shell: electronPlatformShell(currentWindow),
    startDemoServer,
    emit,
    systemProxy: sessionSystemProxy(session.defaultSession),
  });
  notificationsOn = () => core.currentSettings().notifyWhenDone;
  registerContractHandlers(ipcMain, (channel, args) => invokeHandler(core.handlers, channel, args), {
    rendererIndex: locations.rendererIndex,
    contents: () => (window && !window.isDestroyed() ? window.webContents : null),
  });

  const workAreas = screen.getAllDisplays().map((display) => display.workArea);
  const openedWindow = createMainWindow({
    preload: locations.preload,
    rendererIndex: locations.rendererIndex,
    bounds: boundsToRestore(settings.read().windowBounds, workAreas),
  });
  window = openedWindow;
  // Links and files reach the page once it listens; whatever came before (the launch's own) waits until then.
  openedWindow.webContents.once('did-finish-load', () =>
    links.pageReady({
      openLink: (link) => core.openLink(link),
      openCampaignFile: (file) => core.openCampaignFile(file),
      currentWindow,
      showWindow: () => bringToFront(window),
    }),
  );

  // Saved through the core, which owns the preferences (a direct store write would be overwritten), and
  // without a settings:changed event, which would disturb a Settings screen being edited.
  const saveBounds = (windowBounds: WindowBounds) => {
    try {
      core.saveWindowBounds(windowBounds);
    } catch (error) {
      console.warn('Could not remember the window position:', error);
    }
  };
  const boundsTracker = trackWindowBounds(openedWindow, saveBounds);

  // Automatic sync is checked once a minute, by a timer that may stand still while the computer sleeps: on waking,
  // the campaigns that fell due meanwhile are synced at once rather than at its next tick.
  const syncDueOnWake = () => {
    core.syncDueCampaigns().catch((error: unknown) => console.warn('Could not check the campaigns due a sync:', error));
  };
  powerMonitor.on('resume', syncDueOnWake);

  const updates = startAppUpdates({
    updatesOn: () => core.currentSettings().autoUpdate,
    activeDownloads: () => core.countActiveDownloads(),
  });

  const quitGuard = createQuitGuard({
    countActiveDownloads: async () => core.countActiveDownloads(),
    confirmQuit: async (message, detail) => {
      const options = { type: 'question' as const, buttons: ['Quit', 'Cancel'], defaultId: 1, cancelId: 1, message, detail, noLink: true };
      const owner = window && !window.isDestroyed() ? window : null;
      const { response } = owner ? await dialog.showMessageBox(owner, options) : await dialog.showMessageBox(options);
      return response === 0;
    },
    shutDown: async () => {
      // Decided before the core closes, while its queue still tells what was left downloading.
      updates?.beforeQuit();
      updates?.stop();
      powerMonitor.off('resume', syncDueOnWake);
      boundsTracker.flush();
      boundsTracker.dispose();
      await core.close();
      await settings.saved();
    },
    exit: () => app.quit(),
  });

  openedWindow.on('close', (event) => {
    boundsTracker.flush();
    if (quitGuard.mayQuit) return;
    event.preventDefault();
    void quitGuard.requestQuit();
  });
  openedWindow.on('closed', () => {
    window = null;
  });
  app.on('before-quit', (event) => {
    if (quitGuard.mayQuit) return;
    event.preventDefault();
    void quitGuard.requestQuit();
  });
  app.on('window-all-closed', () => app.quit());
  // A terminal's Ctrl-C or a system shutdown: no question, but still close the ledger properly.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void quitGuard.requestQuit({ ask: false }));

  return { core, window: openedWindow, quitGuard };
}

function bringToFront(window: BrowserWindow | null): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/** The OS Downloads folder; some Linux desktops define none, and then the home folder stands in. */
function osDownloadsFolder(): string {
  try {
    return app.getPath('downloads');
  } catch {
    return app.getPath('home');
  }
}
