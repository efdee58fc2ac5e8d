// The whole renderer state, created once per window and shared through Svelte context. Screens only read and
// call it, so nothing is lost when a screen is left and re-entered.
import { createContext } from 'svelte';
import type { FilesQuery } from '../../src-shared/contract/contract';
import type { Settings } from '../../src-shared/settings/settings-types';
import type { ErrorData } from '../../src-shared/errors';
import type { FilterName } from '../../src-shared/filters/filter-rules';
import type { ApiClient } from '../lib/api';
import { dayOf } from '../lib/format';
import { AppInfoStore } from '../lib/app-info.svelte';
import { CampaignFormStore } from '../campaigns/campaign-form.svelte';
import { CampaignImportStore } from '../campaigns/campaign-import.svelte';
import { CampaignListStore } from '../campaigns/campaign-list.svelte';
import { CatalogStore } from '../browse/catalog.svelte';
import { ConnectionStore } from './connection.svelte';
import { DiskStore } from './disk.svelte';
import { DownloadsStore } from '../downloads/downloads.svelte';
import { FilterStore } from '../browse/filters.svelte';
import { ResultsStore } from '../browse/results.svelte';
import { SessionStore } from '../lib/session.svelte';
import { SettingsStore } from '../lib/settings.svelte';

export type Screen = 'browse' | 'downloads' | 'campaigns' | 'settings';

const SIGN_IN_TO_DOWNLOAD = 'Sign in to download: enter the e-mail address you registered with the observatory.';

export type SearchStart = { ok: true } | { ok: false; firstProblem: FilterName | null };
type FormQuery = { ok: true; query: FilesQuery } | { ok: false; firstProblem: FilterName | null };

export class AppState {
  readonly client: ApiClient;
  readonly connection: ConnectionStore;
  readonly appInfo: AppInfoStore;
  readonly session: SessionStore;
  readonly catalog: CatalogStore;
  readonly filters: FilterStore;
  readonly results: ResultsStore;
  readonly downloads: DownloadsStore;
  readonly settings: SettingsStore;
  readonly disk: DiskStore;
  readonly campaignList: CampaignListStore;
  readonly campaignForm: CampaignFormStore;
  readonly campaignImport: CampaignImportStore;
  screen = $state<Screen>('browse');
  /** A failure with no field or screen of its own (e.g. a link that could not be opened). */
  problem = $state.raw<ErrorData | null>(null);

  constructor(client: ApiClient) {
    this.client = client;
    this.connection = new ConnectionStore(client, () => void this.start());
    this.appInfo = new AppInfoStore(client);
    this.session = new SessionStore(client);
    this.catalog = new CatalogStore(client);
    this.filters = new FilterStore(() => this.catalog.metadata);
    this.results = new ResultsStore(client, () => {
      const form = this.formQuery();
      return form.ok ? form.query : null;
    });
    this.downloads = new DownloadsStore(client);
    this.disk = new DiskStore(client);
    this.campaignList = new CampaignListStore(client);
    this.campaignForm = new CampaignFormStore(client, this.campaignList);
    this.campaignImport = new CampaignImportStore(client, this.campaignList);
    this.settings = new SettingsStore(client, (settings) => this.settingsChanged(settings));
  }

  /** The settings last seen, to tell what a change touched (the first value comes with start(), which loads all). */
  private settingsSeen: Settings | null = null;

  private settingsChanged(settings: Settings): void {
    const before = this.settingsSeen;
    this.settingsSeen = settings;
    if (!before) return;
    const serverMoved = serverOf(settings) !== serverOf(before);
    // Another server: the top bar names it, it has its own catalogue, and a session belongs to the server it was made with.
    if (serverMoved) {
      void this.appInfo.load();
      // Its choices, cached answers and listing were the other server's.
      this.catalog.reset();
      this.results.clear();
      void this.catalog.loadInstruments();
      void this.session.load();
    }
    if (serverMoved || settings.downloadFolder !== before.downloadFolder) void this.disk.refresh();
  }

  /** Loads everything the window shows at once; each part reports its own failure. */
  async start(): Promise<void> {
    await Promise.all([
      this.appInfo.load(),
      this.session.load(),
      this.settings.load().then(() => this.session.suggestEmail(this.settings.saved?.lastEmail ?? '')),
      this.catalog.loadInstruments(),
      this.downloads.refresh(),
      this.disk.refresh(),
      this.campaignList.load(),
    ]);
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
    if (screen === 'downloads') void this.downloads.refresh();
  }

  async chooseInstrument(id: string): Promise<void> {
    const instrument = this.catalog.instruments.find((candidate) => candidate.id === id);
    if (instrument) this.filters.suggestDay(dayOf(instrument['end-date']));
    await this.catalog.chooseInstrument(id);
  }

  /**
   * The request Search would send for the form as it stands, built by the shared filter rules. The results compare
   * their query with it (the same normalisation), so "2025-3-24" and "2025-03-24" are one query.
   */
  private formQuery(): FormQuery {
    const { instrumentId, productId, product } = this.catalog;
    if (!instrumentId || !productId) return { ok: false, firstProblem: null };
    const checked = this.filters.check(product ? `${product.title} (${productId})` : undefined);
    if (!checked.ok) return { ok: false, firstProblem: checked.problems[0]?.filter ?? null };
    return { ok: true, query: { instrument: instrumentId, product: productId, filters: checked.query } };
  }

  /** Checks the filters with the shared rules and, when they pass, asks for the listing. */
  search(): SearchStart {
    if (this.catalog.productId) this.filters.markAttempted();
    const form = this.formQuery();
    if (!form.ok) return form;
    void this.results.search(form.query);
    return { ok: true };
  }

  async download(which: 'selected' | 'all'): Promise<void> {
    const count = which === 'all' ? this.results.files.length : this.results.selection.count;
    if (count === 0) return;
    if (!this.session.signedIn) {
      this.session.requireSignIn(SIGN_IN_TO_DOWNLOAD);
      return;
    }
    const outcome = await this.results.enqueue(which);
    if (outcome && 'error' in outcome && outcome.error.kind === 'session') this.session.requireSignIn(outcome.error.message);
  }
}

/** What decides the server the app talks to. */
function serverOf(settings: Settings): string {
  return JSON.stringify([settings.useDemoServer, settings.baseUrl, settings.apiVersion]);
}

/** The window's AppState: App.svelte provides it, every screen and component below uses it (throws outside <App>). */
export const [useAppState, provideAppState] = createContext<AppState>();
