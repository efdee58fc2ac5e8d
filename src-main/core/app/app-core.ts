// The app's core behind the contract: one handler per invoke channel, on top of the API client, the
// download engine and the settings. The Electron shell and web mode host it the same way; neither adds
// behaviour of its own.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_BASE_URL, DEMO_EMAIL, REGISTRATION_URL } from '../../../src-shared/api/service-facts';
import type { AppInfo, ContractHandlers, SessionState, Settings } from '../../../src-shared/contract/contract';
import type { ErrorData } from '../../../src-shared/errors';
import type { ClientSettings } from '../api/client-settings';
import { MlsoClient, type ListingAdvice } from '../api/mlso-client';
import { freeSpaceOf } from '../downloads/disk-space';
import { describeLedgerRecovery, openDownloadEngine, type OpenedEngine } from '../downloads/open-engine';
import { SignInRequiredError } from '../downloads/session-keeper';
import { InvalidInputError, MlsoError } from '../errors';
import type { AppCoreOptions } from './app-ports';
import { applySettingsChange } from './settings-rules';

export interface AppCore {
  handlers: ContractHandlers;
  /** True while files are transferring or waiting to (quitting should ask first). */
  hasActiveDownloads(): boolean;
  /** Files transferring or waiting to, for the quit question. */
  countActiveDownloads(): number;
  /** Saves the window's position without announcing a settings change (it happens on every move). */
  saveWindowBounds(bounds: Settings['windowBounds']): void;
  close(): Promise<void>;
}

export class UnsupportedError extends MlsoError {
  readonly kind = 'unsupported' as const;
}

/** The window's way to raise a listing limit. */
const APP_LISTING_ADVICE: ListingAdvice = {
  tooLarge: 'narrow the search (fewer dates, or one file per period) or raise the listing size limit in Settings',
  tooSlow: 'try again later, narrow the search (fewer dates, or one file per period) or raise the listing time limit in Settings',
};

/** Errors that mean "the user has to sign in (again)" rather than "something broke". */
const SIGN_IN_KINDS: ReadonlySet<string> = new Set(['unknown-user', 'session']);

export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  const { emit } = options;
  let settings = applySettingsChange(options.settings.read(), {});
  let demo: Awaited<ReturnType<AppCoreOptions['startDemoServer']>> | undefined;
  let signedInEmail: string | null = null;

  const serverUrl = (): string => (demo ? demo.url : settings.baseUrl);
  const clientSettings = (): Partial<ClientSettings> => ({
    baseUrl: serverUrl(),
    apiVersion: settings.apiVersion,
    clientName: settings.clientName,
    listingDeadlineMs: settings.listingTimeoutMinutes * 60_000,
    maxListingBytes: settings.maxListingMegabytes * 1024 * 1024,
  });

  if (settings.useDemoServer) demo = await options.startDemoServer();
  const client = new MlsoClient(clientSettings(), { listingAdvice: APP_LISTING_ADVICE });

  // A remembered session comes back only for the server it was made with.
  if (settings.rememberSession && options.sessionVault && settings.lastEmail) {
    const saved = await options.sessionVault.load();
    if (saved && (await client.importSession(saved)) && (await client.sessionExpiry()) !== undefined) signedInEmail = settings.lastEmail;
  }

  const opened: OpenedEngine = await openDownloadEngine(options.stateFolder, {
    client,
    username: () => signedInEmail ?? undefined,
    concurrency: settings.concurrency,
    maxAttempts: settings.retries + 1,
    existingFiles: settings.existingFiles,
    ...(options.sqliteNativeBinding ? { sqliteNativeBinding: options.sqliteNativeBinding } : {}),
  });
  // A damaged ledger was replaced: say so on stderr, the app's log (the window does not show it yet).
  if (opened.recovered) console.warn(describeLedgerRecovery(opened.recovered));
  const { engine } = opened;
  engine.on('progress', (update) => emit('downloads:progress', update));
  engine.on('queue-paused', (reason) => emit('downloads:queue-paused', reason));
  engine.on('queue-resumed', () => emit('downloads:queue-resumed', null));

  async function sessionState(): Promise<SessionState> {
    const expiry = await client.sessionExpiry();
    const signedIn = signedInEmail !== null && expiry !== undefined;
    return { signedIn, email: signedIn ? signedInEmail : null, expiresAt: signedIn && typeof expiry === 'number' ? expiry : null };
  }

  async function announceSession(): Promise<SessionState> {
    const state = await sessionState();
    emit('session:changed', state);
    return state;
  }

  async function rememberSession(): Promise<void> {
    if (!options.sessionVault) return;
    await options.sessionVault.save(settings.rememberSession && signedInEmail ? await client.exportSession() : null);
  }

  function saveSettings(next: Settings): Settings {
    settings = next;
    options.settings.write(settings);
    emit('settings:changed', settings);
    return settings;
  }

  async function changeSettings(change: Partial<Settings>): Promise<Settings> {
    const next = applySettingsChange(settings, change);
    const previousServer = { url: serverUrl(), client: clientSettings() };
    if (next.useDemoServer && !demo) demo = await options.startDemoServer();
    const closingDemo = !next.useDemoServer && demo ? demo : undefined;
    if (closingDemo) demo = undefined;
    saveSettings(next);
    if (!isDeepStrictEqual(previousServer.client, clientSettings())) {
      client.configure(clientSettings());
      // A session belongs to one server: pointing elsewhere signs out.
      if (previousServer.url !== serverUrl()) {
        await client.signOut();
        signedInEmail = null;
        await rememberSession();
        await announceSession();
      }
    }
    await closingDemo?.close();
    engine.setConcurrency(settings.concurrency);
    engine.setMaxAttempts(settings.retries + 1);
    engine.setExistingFilePolicy(settings.existingFiles);
    if ('rememberSession' in change) await rememberSession();
    return settings;
  }

  function info(): AppInfo {
    return {
      version: options.version,
      transport: options.transport,
      platform: process.platform,
      serverUrl: serverUrl(),
      serverKind: demo ? 'demo' : settings.baseUrl === DEFAULT_BASE_URL ? 'real' : 'custom',
      demoEmail: DEMO_EMAIL,
      registrationUrl: REGISTRATION_URL,
      canUseNativeDialogs: options.shell !== undefined,
    };
  }

  function requireShell(what: string, folder: string): NonNullable<AppCoreOptions['shell']> {
    if (!options.shell) throw new UnsupportedError(`${what} works in the desktop app. The files are in ${folder}.`);
    return options.shell;
  }

  /** The queue stopped because nobody was signed in (or the sign-in was refused); a new sign-in lifts that. */
  function pausedForSignIn(reason: ErrorData | null): boolean {
    return reason !== null && SIGN_IN_KINDS.has(reason.kind);
  }

  /** Files moving now, plus those that will move as soon as a slot frees (not a paused queue's). */
  function activeCount(): number {
    const overall = engine.overall();
    return overall.active + (overall.queuePaused ? 0 : overall.queued);
  }

  const handlers: ContractHandlers = {
    'app:info': () => info(),
    'settings:get': () => settings,
    'settings:update': (change) => changeSettings(change ?? {}),
    'settings:choose-folder': async () => {
      const chosen = await requireShell('Choosing a folder', settings.downloadFolder).chooseFolder(settings.downloadFolder);
      if (chosen) await changeSettings({ downloadFolder: chosen });
      return chosen;
    },
    'session:get': () => sessionState(),
    'session:sign-in': async ({ email }) => {
      await client.authenticate(email);
      signedInEmail = email.trim();
      saveSettings({ ...settings, lastEmail: signedInEmail });
      await rememberSession();
      const overall = engine.overall();
      if (overall.queuePaused && pausedForSignIn(overall.pauseReason)) engine.resumeAll();
      return announceSession();
    },
    'session:sign-out': async () => {
      await client.signOut();
      signedInEmail = null;
      await rememberSession();
      return announceSession();
    },
    'catalog:instruments': () => client.instruments(),
    'catalog:products': async ({ instrument }) => (await client.products(instrument)).products,
    'catalog:product': ({ instrument, product }) => client.productMetadata(instrument, product),
    'catalog:files': ({ instrument, product, filters }) => client.files({ instrument, product, filters }),
    'downloads:enqueue': async ({ files, folder }) => {
      if (!(await sessionState()).signedIn) throw new SignInRequiredError();
      const target = folder ?? settings.downloadFolder;
      if (!path.isAbsolute(target)) throw new InvalidInputError('The download folder must be a full path: choose one in Settings.');
      const result = await engine.enqueue(files, target);
      return { queued: result.queued.length, skipped: result.skipped.map(({ filename, reason }) => ({ filename, reason })), rejected: result.rejected, folder: path.resolve(target) };
    },
    'downloads:snapshot': () => ({ jobs: engine.jobs(), overall: engine.overall() }),
    'downloads:pause-all': () => {
      engine.pauseAll();
      return null;
    },
    'downloads:resume-all': () => {
      engine.resumeAll();
      return null;
    },
    'downloads:retry-failed': () => engine.retryFailed(),
    'downloads:clear-finished': () => engine.clearFinished(),
    'downloads:pause': ({ id }) => {
      engine.pause(id);
      return null;
    },
    'downloads:resume': ({ id }) => {
      engine.resume(id);
      return null;
    },
    'downloads:cancel': ({ id }) => {
      engine.cancel(id);
      return null;
    },
    'downloads:retry': ({ id }) => {
      engine.retry(id);
      return null;
    },
    'downloads:move-to-front': ({ id }) => {
      engine.moveToFront(id);
      return null;
    },
    'shell:open-folder': async ({ path: folder }) => {
      const target = folder ?? settings.downloadFolder;
      const shell = requireShell('Opening folders', target);
      await mkdir(target, { recursive: true });
      await shell.openPath(target);
      return null;
    },
    'shell:show-file': ({ id }) => {
      const job = opened.ledger.get(id);
      if (!job) throw new InvalidInputError('That download is no longer in the list.');
      const shell = requireShell('Showing files', job.folder);
      if (job.state === 'done') shell.showItemInFolder(job.targetPath);
      else void shell.openPath(job.folder);
      return null;
    },
    'shell:open-external': async ({ url }) => {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new InvalidInputError(`"${url}" is not a web address.`);
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InvalidInputError('Only web (http or https) links are opened.');
      await requireShell('Opening links', settings.downloadFolder).openExternal(parsed.href);
      return null;
    },
    'disk:free-space': async ({ folder } = {}) => {
      // The folder may not exist yet: ask about the nearest one that does.
      let probe = path.resolve(folder ?? settings.downloadFolder);
      for (;;) {
        try {
          return await freeSpaceOf(probe);
        } catch {
          const parent = path.dirname(probe);
          if (parent === probe) return null;
          probe = parent;
        }
      }
    },
  };

  return {
    handlers,
    hasActiveDownloads: () => activeCount() > 0,
    countActiveDownloads: () => activeCount(),
    saveWindowBounds: (bounds) => {
      settings = applySettingsChange(settings, { windowBounds: bounds });
      options.settings.write(settings);
    },
    close: async () => {
      await opened.close();
      await demo?.close();
    },
  };
}
