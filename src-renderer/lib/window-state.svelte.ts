// What every screen of the window shares: the client, the server's description, the session, the settings, which
// screen shows and where a failure with no home of its own is reported. The shell creates it (its AppState adds
// the features' stores); every feature reads it through Svelte context, so no feature reaches into the shell.
import { createContext } from 'svelte';
import type { ErrorData } from '../../src-shared/errors';
import type { Settings } from '../../src-shared/settings/settings-types';
import type { ApiClient } from './api';
import { AppInfoStore } from './app-info.svelte';
import { SessionStore } from './session.svelte';
import { SettingsStore } from './settings.svelte';

export type Screen = 'browse' | 'downloads' | 'campaigns' | 'settings';

/** What a change of the settings touched. */
export interface SettingsMove {
  /** Another server: another catalogue, and a session belongs to the server it was made with. */
  serverMoved: boolean;
  folderMoved: boolean;
}

export class WindowState {
  readonly client: ApiClient;
  readonly appInfo: AppInfoStore;
  readonly session: SessionStore;
  readonly settings: SettingsStore;
  screen = $state<Screen>('browse');
  /** A failure with no field or screen of its own (e.g. a link that could not be opened). */
  problem = $state.raw<ErrorData | null>(null);

  constructor(client: ApiClient) {
    this.client = client;
    this.appInfo = new AppInfoStore(client);
    this.session = new SessionStore(client);
    this.settings = new SettingsStore(client, (settings) => this.settingsChanged(settings));
  }

  /** The settings last seen, to tell what a change touched (the first value comes with the first load). */
  private settingsSeen: Settings | null = null;

  private settingsChanged(settings: Settings): void {
    const before = this.settingsSeen;
    this.settingsSeen = settings;
    if (!before) return;
    this.settingsMoved({ serverMoved: serverOf(settings) !== serverOf(before), folderMoved: settings.downloadFolder !== before.downloadFolder });
  }

  /** Follows a change of the settings: the top bar names the server in use, and the session is that server's. */
  protected settingsMoved(move: SettingsMove): void {
    if (!move.serverMoved) return;
    void this.appInfo.load();
    void this.session.load();
  }

  report(error: ErrorData): void {
    this.problem = error;
  }

  /** Switches to the bundled demo server at once (offered when the service cannot be reached); its catalogue follows. */
  async useDemoServer(): Promise<void> {
    const refused = await this.settings.change({ useDemoServer: true });
    if (refused) this.report(refused);
  }

  /** Opens a web link in the system browser; in web mode the page is already in one, so a new tab does. */
  async openExternal(url: string): Promise<void> {
    const result = await this.client.invoke('shell:open-external', { url });
    if (result.ok) return;
    if (result.error.kind === 'unsupported' && this.client.transport === 'websocket') {
      window.open(url, '_blank', 'noopener,noreferrer');
      return;
    }
    this.report(result.error);
  }

  go(screen: Screen): void {
    this.screen = screen;
  }
}

/** What decides the server the app talks to. */
function serverOf(settings: Settings): string {
  return JSON.stringify([settings.useDemoServer, settings.baseUrl, settings.apiVersion]);
}

/** The window's WindowState: App.svelte provides it, every screen and component below uses it (throws outside <App>). */
export const [useWindowState, provideWindowState] = createContext<WindowState>();
