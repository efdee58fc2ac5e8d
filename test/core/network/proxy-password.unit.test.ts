// The proxy password out of the setting's text and back in: the rest of the text as typed, the parts found where
// a URL parser finds them, whatever the user name and password hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitProxyPassword, withProxyPassword } from '../../../src-main/core/network/proxy-password';
import { proxyAddress } from '../../../src-main/core/network/proxy-setting';

/** Characters a user name or password may hold as typed, the URL's own separators among them. */
const typed = fc.string({ unit: fc.constantFrom(...'aZ9-_.~!$&()*+,;=%:@/?#\\ é'.split('')), minLength: 0, maxLength: 12 });

/** A proxy setting as a person types one: with or without a scheme, a user name and password or not, a port, a path. */
const settings = fc
  .record({
    scheme: fc.constantFrom('', 'http://', 'https://', 'HTTP://'),
    user: fc.option(
      typed.filter((text) => !/[/?#\\]/.test(text)),
      { nil: undefined },
    ),
    password: fc.option(
      typed.filter((text) => !/[/?#\\]/.test(text)),
      { nil: undefined },
    ),
    host: fc.constantFrom('proxy.example.org', '10.0.0.7', '[::1]', 'localhost'),
    port: fc.constantFrom('', ':3128', ':8080'),
    path: fc.constantFrom('', '/', '/x@y', '?a=b:c@d', '#f'),
  })
  .map(({ scheme, user, password, host, port, path }) => {
    const credentials = user === undefined ? '' : password === undefined ? `${user}@` : `${user}:${password}@`;
    return `${scheme}${credentials}${host}${port}${path}`;
  });

/** The proxy a setting names, as the client reads it; null for a setting it refuses. */
function parsed(setting: string): URL | null {
  try {
    return proxyAddress(setting, 'http');
  } catch {
    return null;
  }
}

describe('the proxy password taken out of a setting and put back', () => {
  it('gives back the very text typed, and the proxy the client reads from it', () => {
    fc.assert(
      fc.property(settings, (setting) => {
        const { proxy, password } = splitProxyPassword(setting);
        expect(withProxyPassword(proxy, password)).toBe(setting);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes out exactly the password a URL parser finds, and leaves the user name, host, port and path', () => {
    fc.assert(
      fc.property(settings, (setting) => {
        const whole = parsed(setting);
        fc.pre(whole !== null);
        const { proxy, password } = splitProxyPassword(setting);
        const without = parsed(proxy);
        expect(without?.password).toBe('');
        expect([without?.username, without?.host, without?.pathname, without?.search, without?.hash]).toEqual([
          whole!.username,
          whole!.host,
          whole!.pathname,
          whole!.search,
          whole!.hash,
        ]);
        expect(password === null ? '' : parsed(withProxyPassword(proxy, password))?.password).toBe(whole!.password);
        expect(password === null).toBe(whole!.password === '');
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['http://lab:s3cret@proxy.example.org:3128', 'http://lab@proxy.example.org:3128', 's3cret'],
    ['lab:p%40ss:w@rd@10.0.0.7:8080', 'lab@10.0.0.7:8080', 'p%40ss:w@rd'],
    ['http://lab@proxy.example.org:3128', 'http://lab@proxy.example.org:3128', null],
    ['http://lab:@proxy.example.org:3128', 'http://lab:@proxy.example.org:3128', null],
    ['http://proxy.example.org:3128/a:b@c', 'http://proxy.example.org:3128/a:b@c', null],
    ['direct', 'direct', null],
    ['system', 'system', null],
    ['', '', null],
  ])('%s: %s and password %s', (setting, proxy, password) => {
    expect(splitProxyPassword(setting)).toEqual({ proxy, password });
  });

  it('puts a password back only where a user name stands without one', () => {
    expect(withProxyPassword('http://proxy.example.org:3128', 's3cret')).toBe('http://proxy.example.org:3128');
    expect(withProxyPassword('direct', 's3cret')).toBe('direct');
    expect(withProxyPassword('http://lab:other@proxy.example.org', 's3cret')).toBe('http://lab:other@proxy.example.org');
    expect(withProxyPassword('http://lab@proxy.example.org', null)).toBe('http://lab@proxy.example.org');
  });
});
