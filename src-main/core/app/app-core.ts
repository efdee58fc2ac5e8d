// The app's core behind the contract: one handler per invoke channel, on top of the API client, the
// download engine and the settings. The Electron shell and web mode host it the same way; neither adds
// behaviour of its own. Each domain (settings, the server connection, the session, the catalogue, downloads,
// the shell) keeps its handlers in a module of its own; this file only wires them together.
import path from 'node:path';
import { DEMO_EMAIL, REGISTRATION_URL } from '../../../src-shared/api/service-facts';
import type { AppInfo, ContractHandlers } from '../../../src-shared/contract/contract';
import type { SearchProgress } from '../../../src-shared/search/result-page';
import type { Settings } from '../../../src-shared/settings/settings-types';
import type { MlsoClient } from '../api/mlso-client';
import { openDownloadEngine } from './open-engine';
import { CampaignService } from '../campaigns/campaign-service';
import type { AppCoreOptions } from './app-ports';
import { AppCampaigns } from './campaign-handlers';
import { catalogHandlers } from './catalog-handlers';
import { downloadHandlers, rateLimitOf } from './download-handlers';
import { openRequestFromFile, openRequestFromLink, type OpenCheck } from './open-requests';
import { ServerConnection } from './server-connection';
import { AppSession, pausedForSignIn } from './session-handlers';
import { SettingsKeeper } from './settings-keeper';
import { settingsHandlers } from './settings-handlers';
import { folderHandlers } from './folder-handlers';
import { shellHandlers } from './shell-handlers';
import { searchHandlers } from './search-handlers';
import { pacedProgress } from '../search/progress-pace';
import { ResultDatabase } from '../search/result-table';
import { SearchKeeper } from '../search/search-keeper';

export interface AppCore {
  handlers: ContractHandlers;
  /** True while files are transferring or waiting to (quitting should ask first). */
  hasActiveDownloads(): boolean;
  /** Files transferring or waiting to, for the quit question. */
  countActiveDownloads(): number;
  /**
   * Syncs the campaigns whose automatic sync is due (what a timer does once a minute); the names synced. The
   * desktop app calls it when the computer wakes from sleep (desktop-app.ts), when the timer may be far behind.
   */
  syncDueCampaigns(nowMs?: number): Promise<string[]>;
  /**
   * A link from the web (mlso-downloader://) or a campaign file opened from the desktop: checked, then handed to the
   * window as an app:open-request event; a refusal's one line is answered instead (nothing is sent).
   */
  openLink(link: string): Promise<OpenCheck>;
  openCampaignFile(file: string): Promise<OpenCheck>;
  /** The preferences as they stand (the desktop shell reads its own switches: notifications, updates). */
  currentSettings(): Settings;
  /** Saves the window's position without announcing a settings change (it happens on every move). */
  saveWindowBounds(bounds: Settings['windowBounds']): void;
  close(): Promise<void>;
}

/** Browse's kept search, in the state folder (on the user's disk, not a /tmp that may be memory) beside the ledger. */
const SEARCH_RESULTS_FILE = 'search-results.sqlite';

async function openSearches(file: string, client: MlsoClient, announce: (progress: SearchProgress) => void): Promise<SearchKeeper> {
  return new SearchKeeper(ResultDatabase.open(file), client, pacedProgress(announce));
}

export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  const { emit } = options;
  const settings = new SettingsKeeper(options.settings, emit);
  const connection = await ServerConnection.open(settings.value, options.startDemoServer, options.systemProxy);
  const { client } = connection;
  const session = new AppSession({
    client,
    settings,
    vault: options.sessionVault,
    emit,
    onSignedIn: () => {
      const overall = opened.engine.overall();
      if (overall.queuePaused && pausedForSignIn(overall.pauseReason)) opened.engine.resumeAll();
    },
    demoEmail: () => (connection.kind === 'demo' ? DEMO_EMAIL : undefined),
  });
  await session.restore();

  const opened = await openDownloadEngine(options.stateFolder, {
    client,
    username: () => session.email ?? undefined,
    concurrency: settings.value.concurrency,
    maxAttempts: settings.value.retries + 1,
    existingFiles: settings.value.existingFiles,
    reuseBy: settings.value.linkReused ? 'link' : 'copy',
    rateLimit: rateLimitOf(settings.value),
    // Named in the message a command line run gets while the app holds the state folder.
    program: options.transport === 'web' ? 'web mode' : 'the desktop app',
  }).catch(async (error: unknown) => {
    // The start ends here (another MLSO Downloader holds the state folder, say): the demo server goes with it.
    await connection.close();
    throw error;
  });
  // A damaged ledger was replaced (its campaigns restored): say so on stderr, the app's log (the renderer does not show it yet).
  if (opened.notice) console.warn(opened.notice);
  const { engine } = opened;
  engine.on('progress', (update) => emit('downloads:progress', update));
  engine.on('queue-paused', (reason) => emit('downloads:queue-paused', reason));
  engine.on('queue-resumed', () => emit('downloads:queue-resumed', null));

  // Opened only once the state folder is held (above): another program's search file is never emptied.
  const searches = await openSearches(path.join(options.stateFolder, SEARCH_RESULTS_FILE), client, (progress) => emit('search:progress', progress)).catch(
    async (error: unknown) => {
      // The start ends here (the file cannot be made, say): what was opened goes with it.
      await opened.close();
      await connection.close();
      throw error;
    },
  );
  const signedIn = async (): Promise<boolean> => (await session.state()).signedIn;
  const campaigns = new AppCampaigns({
    service: new CampaignService({ ledger: opened.ledger, state: opened.state, client }),
    engine,
    settings,
    signedIn,
    emit,
  });
  campaigns.autoSync.start();
  const info = (): AppInfo => ({
    version: options.version,
    transport: options.transport,
    platform: process.platform,
    serverUrl: connection.url,
    serverKind: connection.kind,
    demoEmail: DEMO_EMAIL,
    registrationUrl: REGISTRATION_URL,
    canUseNativeDialogs: options.shell !== undefined,
  });

  const handlers: ContractHandlers = {
    'app:info': () => info(),
    ...settingsHandlers({ settings, connection, session, engine, shell: options.shell }),
    ...session.handlers(),
    ...catalogHandlers(client),
    ...searchHandlers(searches, engine, opened.ledger),
    ...downloadHandlers({ engine, ledger: opened.ledger, client, searches, settings: () => settings.value, signedIn }),
    ...shellHandlers(options.shell, settings, opened.ledger),
    ...folderHandlers(),
    ...campaigns.handlers(),
  };

  /** Files moving now, plus those that will move as soon as a slot frees (not a paused queue's). */
  function activeCount(): number {
    const overall = engine.overall();
    return overall.active + (overall.queuePaused ? 0 : overall.queued);
  }

  function handOn(check: OpenCheck): OpenCheck {
    if (check.ok) emit('app:open-request', check.request);
    return check;
  }

  return {
    handlers,
    hasActiveDownloads: () => activeCount() > 0,
    countActiveDownloads: () => activeCount(),
    syncDueCampaigns: (nowMs = Date.now()) => campaigns.autoSync.tick(nowMs),
    openLink: async (link) => handOn(await openRequestFromLink(link, { client, serverUrl: () => connection.url })),
    openCampaignFile: async (file) => handOn(await openRequestFromFile(file)),
    currentSettings: () => settings.value,
    saveWindowBounds: (bounds) => settings.saveQuietly({ windowBounds: bounds }),
    close: async () => {
      searches.close();
      await campaigns.close();
      await opened.close();
      await connection.close();
    },
  };
}
