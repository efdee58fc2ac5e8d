// The jar is asked for the Cookie header before every request and for the session's expiry before every download:
// while it has not changed, it answers from what it read last time for that address's path, until the first of
// those cookies expires. These tests hold it to giving what tough-cookie itself would, and to reading it once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CookieJar } from 'tough-cookie';
import { SessionCookieJar } from '../../../src-main/core/api/session-cookie-jar';

const API = 'http://api.example.test';
const download = (index: number): string => `${API}/v1/download?obsday-id=1&instrument=kcor&filename=f${index}.fts.gz`;

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** Counts the jar's reads (getCookieString reads through getCookies): each walks its store, matches and checks expiry. */
function countJarReads(): () => number {
  const getCookies = vi.spyOn(CookieJar.prototype, 'getCookies');
  return () => getCookies.mock.calls.length;
}

describe('SessionCookieJar, asked again and again', () => {
  it('reads the jar once for many requests of one path, and gives the same header and expiry each time', async () => {
    const jar = new SessionCookieJar(API);
    await jar.storeFrom(`session=abc; Path=/; Expires=${new Date(Date.now() + 3_600_000).toUTCString()}`, `${API}/v1/authenticate?username=a`);
    const reads = countJarReads();
    const headers = new Set<string>();
    const expiries = new Set<number | null | undefined>();
    for (let index = 0; index < 50; index++) {
      headers.add(await jar.headerFor(download(index)));
      expiries.add(await jar.sessionExpiry(download(index)));
    }
    expect([...headers]).toEqual(['session=abc']);
    expect(expiries.size).toBe(1);
    expect([...expiries][0]).toBeGreaterThan(Date.now());
    expect(reads()).toBe(1);
  });

  it('offers a cookie the server sets at once, and forgets them all when cleared', async () => {
    const jar = new SessionCookieJar(API);
    await jar.storeFrom('session=old; Path=/', `${API}/v1/authenticate`);
    expect(await jar.headerFor(download(1))).toBe('session=old');
    await jar.storeFrom('session=new; Path=/', `${API}/v1/authenticate`);
    expect(await jar.headerFor(download(2))).toBe('session=new');
    await jar.clear();
    expect(await jar.headerFor(download(3))).toBe('');
    expect(await jar.sessionExpiry(download(3))).toBeUndefined();
  });

  it('stops offering a cookie once it expires, though the jar has not changed since', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const jar = new SessionCookieJar(API);
    await jar.storeFrom('session=abc; Path=/; Expires=Thu, 01 Jan 2026 00:00:10 GMT', `${API}/v1/authenticate`);
    expect(await jar.headerFor(download(1))).toBe('session=abc');
    expect(await jar.sessionExpiry(download(1))).toBe(Date.parse('2026-01-01T00:00:10Z'));
    vi.setSystemTime(new Date('2026-01-01T00:00:09.999Z'));
    expect(await jar.headerFor(download(2))).toBe('session=abc');
    vi.setSystemTime(new Date('2026-01-01T00:00:10Z'));
    expect(await jar.headerFor(download(3))).toBe('');
    expect(await jar.sessionExpiry(download(3))).toBeUndefined();
  });

  it("answers each path with that path's cookies, and other servers with none", async () => {
    const jar = new SessionCookieJar(API);
    await jar.storeFrom(['session=abc; Path=/', 'mirror=m1; Path=/v1/download'], `${API}/v1/download?x=1`);
    expect(await jar.headerFor(download(1))).toBe('mirror=m1; session=abc');
    expect(await jar.headerFor(`${API}/v1/instruments`)).toBe('session=abc');
    expect(await jar.headerFor(download(2))).toBe('mirror=m1; session=abc');
    expect(await jar.headerFor('http://elsewhere.example.test/v1/download?x=1')).toBe('');
  });

  it('a cookie with Max-Age is read from the jar each time, whose count of its age moves with each use', async () => {
    const jar = new SessionCookieJar(API);
    await jar.storeFrom('session=abc; Path=/; Max-Age=3600', `${API}/v1/authenticate`);
    const reads = countJarReads();
    expect(await jar.headerFor(download(1))).toBe('session=abc');
    expect(await jar.sessionExpiry(download(1))).toBeGreaterThan(Date.now());
    expect(reads()).toBe(2);
  });

  it('a jar restored from an export is read afresh', async () => {
    const first = new SessionCookieJar(API);
    await first.storeFrom('session=saved; Path=/', `${API}/v1/authenticate`);
    const exported = await first.export();
    const second = new SessionCookieJar(API);
    await second.storeFrom('session=other; Path=/', `${API}/v1/authenticate`);
    expect(await second.headerFor(download(1))).toBe('session=other');
    expect(await second.import(exported!)).toBe(true);
    expect(await second.headerFor(download(2))).toBe('session=saved');
  });
});
