// The one rule for which proxy a request takes: the setting's forms, the environment's variables as curl reads
// them, the system's PAC answer (the desktop app's session), and credentials kept out of every label.
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src-main/core/errors';
import { ProxyRoutes } from '../../../src-main/core/network/proxy-routes';
import { proxyChoiceOf, proxyLabel } from '../../../src-main/core/network/proxy-setting';
import { proxyFromPacAnswer } from '../../../src-main/core/network/system-proxy';

const PROXY_VARIABLES = /^(https?|all|no)_proxy$/i;
let saved: Record<string, string | undefined> = {};

beforeEach(() => {
  saved = Object.fromEntries(
    Object.keys(process.env)
      .filter((key) => PROXY_VARIABLES.test(key))
      .map((key) => [key, process.env[key]]),
  );
  for (const key of Object.keys(saved)) delete process.env[key];
});

afterEach(() => {
  for (const key of Object.keys(process.env).filter((name) => PROXY_VARIABLES.test(name))) delete process.env[key];
  Object.assign(process.env, saved);
});

describe('the proxy setting', () => {
  it('reads empty as the environment, "direct", "system", and an address without a scheme as an http proxy', () => {
    expect(proxyChoiceOf('')).toEqual({ kind: 'environment' });
    expect(proxyChoiceOf(' Direct ')).toEqual({ kind: 'direct' });
    expect(proxyChoiceOf('SYSTEM')).toEqual({ kind: 'system' });
    const choice = proxyChoiceOf('proxy.example.org:3128');
    expect(choice.kind === 'address' && choice.proxy.href).toBe('http://proxy.example.org:3128/');
  });

  it('refuses a SOCKS proxy and a non-address, naming the setting', () => {
    expect(() => proxyChoiceOf('socks5://127.0.0.1:1080')).toThrow('Only http and https proxies are supported, not socks5');
    expect(() => proxyChoiceOf('http://')).toThrow(InvalidInputError);
    try {
      proxyChoiceOf('http://');
    } catch (error) {
      expect((error as InvalidInputError).field).toBe('proxy');
    }
  });

  it('names a proxy without its user name and password', () => {
    expect(proxyLabel(new URL('http://scientist:hunter2@proxy.example.org:3128'))).toBe('http://proxy.example.org:3128');
  });
});

describe('the system proxy (PAC answers)', () => {
  it('takes the first web proxy or DIRECT, passing over SOCKS', () => {
    expect(proxyFromPacAnswer('DIRECT')?.href).toBeUndefined();
    expect(proxyFromPacAnswer('PROXY proxy.example.org:8080; DIRECT')?.href).toBe('http://proxy.example.org:8080/');
    expect(proxyFromPacAnswer('SOCKS5 socks.example.org:1080; HTTPS secure.example.org:443')?.href).toBe('https://secure.example.org/');
    expect(proxyFromPacAnswer('SOCKS socks.example.org:1080')).toBeUndefined();
    expect(proxyFromPacAnswer('')).toBeUndefined();
  });
});

describe('ProxyRoutes', () => {
  it('tunnels https (CONNECT) and forwards http, one agent per proxy and kind', async () => {
    const routes = new ProxyRoutes('http://127.0.0.1:3128');
    const secure = await routes.routeFor('https://api.example.org/v1/about');
    const plain = await routes.routeFor('http://api.example.org/v1/about');
    expect(secure.agent).toBeInstanceOf(HttpsProxyAgent);
    expect(plain.agent).toBeInstanceOf(HttpProxyAgent);
    expect((await routes.routeFor('https://other.example.org/')).agent).toBe(secure.agent);
  });

  it("reads the environment as curl does: the scheme's variable, then ALL_PROXY, either case, NO_PROXY around them", async () => {
    process.env['https_proxy'] = 'http://secure-proxy:1';
    process.env['ALL_PROXY'] = 'http://any-proxy:2';
    process.env['NO_PROXY'] = '.internal.example.org,127.0.0.1';
    const routes = new ProxyRoutes('');
    expect((await routes.routeFor('https://api.example.org/')).proxy?.host).toBe('secure-proxy:1');
    expect((await routes.routeFor('http://api.example.org/')).proxy?.host).toBe('any-proxy:2');
    expect((await routes.routeFor('https://data.internal.example.org/')).proxy).toBeUndefined();
    expect((await routes.routeFor('http://127.0.0.1:5000/')).proxy).toBeUndefined();
    expect((await new ProxyRoutes('direct').routeFor('https://api.example.org/')).proxy).toBeUndefined();
    expect((await new ProxyRoutes('http://chosen:3').routeFor('https://data.internal.example.org/')).proxy?.host).toBe('chosen:3');
  });

  it('asks the system for "system", address by address, and falls back to the environment without one', async () => {
    const asked: string[] = [];
    const routes = new ProxyRoutes('system', async (url) => {
      asked.push(url);
      return url.includes('api.example.org') ? 'PROXY pac-proxy:8080; DIRECT' : 'DIRECT';
    });
    expect((await routes.routeFor('https://api.example.org/v1/about')).proxy?.host).toBe('pac-proxy:8080');
    expect((await routes.routeFor('https://files.example.org/a.fts.gz')).proxy).toBeUndefined();
    expect(asked).toEqual(['https://api.example.org/v1/about', 'https://files.example.org/a.fts.gz']);
    process.env['HTTPS_PROXY'] = 'http://env-proxy:4';
    expect((await new ProxyRoutes('system').routeFor('https://api.example.org/')).proxy?.host).toBe('env-proxy:4');
  });
});
