// The whole renderer state, created once per window: what every screen shares (WindowState) plus each feature's
// stores and the shell's own (the connection, the free disk space). App.svelte provides each part through its
// feature's context, so nothing is lost when a screen is left and re-entered and no feature imports the shell.
import { createContext } from 'svelte';
import type { OpenRequest } from '../../src-shared/contract/contract';
import type { ApiClient } from '../lib/api';
import { showWebNotices } from '../lib/web-notices';
import { WindowState, provideWindowState, type Screen, type SettingsMove } from '../lib/window-state.svelte';
import { BrowseState, provideBrowse } from '../browse/browse-state.svelte';
import { CampaignsState, provideCampaigns } from '../campaigns/campaigns-state.svelte';
import { DownloadsStore, provideDownloads } from '../downloads/downloads.svelte';
import { ConnectionStore } from './connection.svelte';
import { DiskStore } from './disk.svelte';

export class AppState extends WindowState {
  readonly connection: ConnectionStore;
  readonly browse: BrowseState;
  readonly downloads: DownloadsStore;
  readonly disk: DiskStore;
  readonly campaigns: CampaignsState;

  constructor(client: ApiClient) {
    super(client);
    this.connection = new ConnectionStore(client, () => void this.start());
    this.browse = new BrowseState(client, this.session);
    this.downloads = new DownloadsStore(client);
    this.disk = new DiskStore(client);
    this.campaigns = new CampaignsState(client);
    client.on('app:open-request', (request) => void this.openRequested(request));
    showWebNotices(client, () => this.settings.saved?.notifyWhenDone === true);
  }

  /**
   * A link from the web or a campaign file the desktop opened, checked by the core: Browse filled with the search, or
   * the import form opened with the file. Nothing is listed, downloaded or imported until the user presses the button.
   */
  async openRequested(request: OpenRequest): Promise<void> {
    if (request.kind === 'import') {
      this.go('campaigns');
      this.campaigns.importer.offer(request.text, request.source);
      return;
    }
    const { instrument, product, filters } = request.query;
    this.go('browse');
    await this.browse.catalog.chooseInstrument(instrument);
    await this.browse.catalog.chooseProduct(product);
    this.browse.filters.fill(filters);
  }

  protected override settingsMoved(move: SettingsMove): void {
    super.settingsMoved(move);
    if (move.serverMoved) this.browse.serverMoved();
    if (move.serverMoved || move.folderMoved) void this.disk.refresh();
  }

  /** Loads everything the window shows at once; each part reports its own failure. */
  async start(): Promise<void> {
    await Promise.all([
      this.appInfo.load(),
      this.session.load(),
      this.settings.load().then(() => this.session.suggestEmail(this.settings.saved?.lastEmail ?? '')),
      this.browse.catalog.loadInstruments(),
      this.downloads.refresh(),
      this.disk.refresh(),
      this.campaigns.list.load(),
    ]);
  }

  override go(screen: Screen): void {
    super.go(screen);
    if (screen === 'downloads') void this.downloads.refresh();
  }
}

const [appStateOf, provideAppStateOnly] = createContext<AppState>();

/** The window's AppState, for the shell's own components (throws outside <App>). */
export const useAppState = appStateOf;

/** Gives the components below <App> the window's state: the shell all of it, each feature its own part. */
export function provideAppState(app: AppState): void {
  provideAppStateOnly(app);
  provideWindowState(app);
  provideBrowse(app.browse);
  provideDownloads(app.downloads);
  provideCampaigns(app.campaigns);
}
