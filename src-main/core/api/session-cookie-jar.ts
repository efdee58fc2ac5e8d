// The session cookie lives here, in a tough-cookie jar that honours Domain, Path and Expires, and is
// fenced to the API's server (see api-server.ts: host, port and scheme): cookies are taken only from its answers
// and offered only to requests for it, so a redirect or a download URL pointing elsewhere never carries them.
import { CookieJar } from 'tough-cookie';
import { ApiServer } from './api-server';

const SESSION_COOKIE_NAME = 'session';

export class SessionCookieJar {
  private jar = new CookieJar();
  private server: ApiServer;

  constructor(apiBaseUrl: string) {
    this.server = new ApiServer(apiBaseUrl);
  }

  /** Pointing the client at another server (another host, port or scheme) forgets the old server's cookies. */
  rescope(apiBaseUrl: string): void {
    const server = new ApiServer(apiBaseUrl);
    if (server.origin !== this.server.origin) {
      this.server = server;
      this.jar = new CookieJar();
    }
  }

  private isApiHost(url: string): boolean {
    return this.server.holds(url);
  }

  async storeFrom(setCookie: string | string[] | undefined, url: string): Promise<void> {
    if (!setCookie || !this.isApiHost(url)) return;
    for (const header of Array.isArray(setCookie) ? setCookie : [setCookie]) {
      // A malformed cookie from the server is ignored rather than failing the request it came with.
      await this.jar.setCookie(header, url, { ignoreError: true });
    }
  }

  async headerFor(url: string): Promise<string> {
    if (!this.isApiHost(url)) return '';
    return this.jar.getCookieString(url);
  }

  /** The session cookie's expiry (ms since epoch), `null` for a browser-session cookie, `undefined` when there is none. */
  async sessionExpiry(url: string): Promise<number | null | undefined> {
    if (!this.isApiHost(url)) return undefined;
    const cookies = await this.jar.getCookies(url);
    const session = cookies.find((cookie) => cookie.key === SESSION_COOKIE_NAME);
    if (!session) return undefined;
    const expiry = session.expiryTime();
    return expiry === undefined || !Number.isFinite(expiry) ? null : expiry;
  }

  async hasSession(url: string): Promise<boolean> {
    return (await this.sessionExpiry(url)) !== undefined;
  }

  async clear(): Promise<void> {
    await this.jar.removeAllCookies();
  }

  /** The jar as text, for a front end that remembers the session (encrypted) between launches. */
  async export(): Promise<string | null> {
    return (await this.hasAny()) ? JSON.stringify({ origin: this.server.origin, jar: await this.jar.serialize() }) : null;
  }

  /** Restores an exported jar; ignored when it belongs to another host or cannot be read. */
  async import(serialized: string): Promise<boolean> {
    try {
      const { origin, jar } = JSON.parse(serialized) as { origin?: unknown; jar?: unknown };
      // A jar exported by an earlier version named only its host, not the whole server: the user signs in again, once.
      if (origin !== this.server.origin || typeof jar !== 'object' || jar === null) return false;
      this.jar = await CookieJar.deserialize(jar);
      return true;
    } catch {
      return false;
    }
  }

  private async hasAny(): Promise<boolean> {
    return (await this.jar.serialize()).cookies.length > 0;
  }
}
