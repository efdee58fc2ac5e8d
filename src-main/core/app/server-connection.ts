// Which server the app talks to, and the client that talks to it: the user's service, or the bundled demo
// server started on demand. Switching servers is two steps (prepare the new one, then let go of the old one)
// so that a failure to start the demo server leaves everything as it was.
import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_BASE_URL } from '../../../src-shared/api/service-facts';
import type { ServerKind } from '../../../src-shared/contract/contract';
import type { Settings } from '../../../src-shared/settings/settings-types';
import type { ClientSettings } from '../api/client-settings';
import { MlsoClient, type ListingAdvice } from '../api/mlso-client';
import type { DemoServerStarter } from './app-ports';
import type { SystemProxyResolver } from '../network/system-proxy';

/** The renderer's way to raise a listing limit. */
const APP_LISTING_ADVICE: ListingAdvice = {
  tooLarge: 'narrow the search (fewer dates, or one file per period) or raise the listing size limit in Settings',
  tooSlow: 'try again later, narrow the search (fewer dates, or one file per period) or raise the listing time limit in Settings',
};

/** The renderer's way to let downloads from other servers in. */
const APP_OTHER_SERVERS_ADVICE = 'turn on "Allow downloads from other servers" in Settings';

type DemoServer = Awaited<ReturnType<DemoServerStarter>>;

export class ServerConnection {
  readonly client: MlsoClient;
  private demo: DemoServer | undefined;
  private settings: Settings;

  private constructor(
    settings: Settings,
    demo: DemoServer | undefined,
    private readonly startDemoServer: DemoServerStarter,
    systemProxy: SystemProxyResolver | undefined,
  ) {
    this.settings = settings;
    this.demo = demo;
    this.client = new MlsoClient(this.clientSettings(), {
      listingAdvice: APP_LISTING_ADVICE,
      otherServersAdvice: APP_OTHER_SERVERS_ADVICE,
      ...(systemProxy ? { systemProxy } : {}),
    });
  }

  static async open(settings: Settings, startDemoServer: DemoServerStarter, systemProxy?: SystemProxyResolver): Promise<ServerConnection> {
    const demo = settings.useDemoServer ? await startDemoServer() : undefined;
    return new ServerConnection(settings, demo, startDemoServer, systemProxy);
  }

  /** The address actually used for API calls (the demo server's while it is on). */
  get url(): string {
    return this.demo ? this.demo.url : this.settings.baseUrl;
  }

  get kind(): ServerKind {
    if (this.demo) return 'demo';
    return this.settings.baseUrl === DEFAULT_BASE_URL ? 'real' : 'custom';
  }

  /**
   * Moves to the server and client settings of `next`: starts the demo server first when it is wanted (a failure
   * then changes nothing), reconfigures the client, and only then closes a demo server no longer wanted.
   * Returns whether the server's address changed (a session belongs to one server).
   */
  async switchTo(next: Settings, commit: () => void): Promise<{ serverMoved: boolean }> {
    const before = { url: this.url, client: this.clientSettings() };
    const started = next.useDemoServer && !this.demo ? await this.startDemoServer() : undefined;
    const closing = !next.useDemoServer ? this.demo : undefined;
    commit();
    this.settings = next;
    if (started) this.demo = started;
    if (closing) this.demo = undefined;
    const clientChanged = !isDeepStrictEqual(before.client, this.clientSettings());
    if (clientChanged) this.client.configure(this.clientSettings());
    await closing?.close();
    return { serverMoved: clientChanged && before.url !== this.url };
  }

  async close(): Promise<void> {
    await this.demo?.close();
    this.demo = undefined;
  }

  private clientSettings(): Partial<ClientSettings> {
    return {
      baseUrl: this.url,
      apiVersion: this.settings.apiVersion,
      clientName: this.settings.clientName,
      listingDeadlineMs: this.settings.listingTimeoutMinutes * 60_000,
      maxListingBytes: this.settings.maxListingMegabytes * 1024 * 1024,
      allowOtherHosts: this.settings.allowOtherHosts,
      // The demo server runs on this computer, inside the app: no proxy stands between them.
      proxy: this.demo ? 'direct' : this.settings.proxy,
    };
  }
}
