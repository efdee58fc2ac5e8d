// The session cookie lives here, in a tough-cookie jar that honours Domain, Path and Expires, and is
// fenced to the API's server (see api-server.ts: host, port and scheme): cookies are taken only from its answers
// and offered only to requests for it, so a redirect or a download URL pointing elsewhere never carries them.
// Every request asks for its Cookie header and every download for the session's expiry: the jar's answer for an
// address's path is kept until the jar changes or the first of its cookies expires (see cookiesFor).
import { CookieJar, type Cookie } from 'tough-cookie';
import { ApiServer } from './api-server';

const SESSION_COOKIE_NAME = 'session';
/** Paths whose answers are kept at once; the client asks for a handful (the catalogue's endpoints, downloads). */
const MAX_KEPT_PATHS = 64;

/** What the jar answered for one address's path, and until when that answer holds. */
interface PathAnswer {
  cookies: Cookie[];
  header: string;
  /** ms since epoch: the first of these cookies expires then (0: ask the jar every time). */
  until: number;
}

export class SessionCookieJar {
  private jar = new CookieJar();
  private server: ApiServer;
  private answers = new Map<string, PathAnswer>();
  /** Counts the jar's changes, so an answer read while the jar changed is not kept. */
  private changes = 0;

  constructor(apiBaseUrl: string) {
    this.server = new ApiServer(apiBaseUrl);
  }

  /** Pointing the client at another server (another host, port or scheme) forgets the old server's cookies. */
  rescope(apiBaseUrl: string): void {
    const server = new ApiServer(apiBaseUrl);
    if (server.origin !== this.server.origin) {
      this.server = server;
      this.jar = new CookieJar();
      this.changed();
    }
  }

  private changed(): void {
    this.changes += 1;
    this.answers.clear();
  }

  /**
   * The jar's cookies for `url`, as tough-cookie gives them (matched by host, path and scheme, unexpired, sorted).
   * The query does not take part in that, so the answer is kept by the address without it, until the jar changes
   * or the first of its cookies expires. A cookie with Max-Age is never kept: tough-cookie counts its age from its
   * last use, so each read may move its expiry.
   */
  private async cookiesFor(url: string): Promise<PathAnswer> {
    const key = withoutQuery(url);
    const kept = this.answers.get(key);
    if (kept && Date.now() < kept.until) return kept;
    const changes = this.changes;
    const cookies = await this.jar.getCookies(url);
    const answer: PathAnswer = { cookies, header: cookies.map((cookie) => cookie.cookieString()).join('; '), until: firstExpiry(cookies) };
    if (changes === this.changes) {
      if (this.answers.size >= MAX_KEPT_PATHS) this.answers.clear();
      this.answers.set(key, answer);
    }
    return answer;
  }

  private isApiHost(url: string): boolean {
    return this.server.holds(url);
  }

  async storeFrom(setCookie: string | string[] | undefined, url: string): Promise<void> {
    if (!setCookie || !this.isApiHost(url)) return;
    for (const header of Array.isArray(setCookie) ? setCookie : [setCookie]) {
      // A malformed cookie from the server is ignored rather than failing the request it came with.
      await this.jar.setCookie(header, url, { ignoreError: true });
      this.changed();
    }
  }

  async headerFor(url: string): Promise<string> {
    if (!this.isApiHost(url)) return '';
    return (await this.cookiesFor(url)).header;
  }

  /** The session cookie's expiry (ms since epoch), `null` for a browser-session cookie, `undefined` when there is none. */
  async sessionExpiry(url: string): Promise<number | null | undefined> {
    if (!this.isApiHost(url)) return undefined;
    const { cookies } = await this.cookiesFor(url);
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
    this.changed();
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
      this.changed();
      return true;
    } catch {
      return false;
    }
  }

  private async hasAny(): Promise<boolean> {
    return (await this.jar.serialize()).cookies.length > 0;
  }
}

/** The address up to its query or fragment: what a cookie's match depends on (scheme, host, port, path). */
function withoutQuery(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** When the first of `cookies` expires (Infinity when none does); 0 when one has a Max-Age (see cookiesFor). */
function firstExpiry(cookies: readonly Cookie[]): number {
  let first = Infinity;
  for (const cookie of cookies) {
    if (cookie.maxAge !== null && cookie.maxAge !== undefined) return 0;
    const expiry = cookie.expiryTime();
    if (expiry !== undefined && expiry < first) first = expiry;
  }
  return first;
}
