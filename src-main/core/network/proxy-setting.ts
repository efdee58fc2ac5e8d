// What the proxy setting says: the environment's variables (empty, the default), no proxy ("direct"), the
// system's choice ("system", which only the desktop app can ask), or one proxy's address. Credentials in an
// address are used to sign in to the proxy and never shown: proxyLabel is how every message names a proxy.
import { InvalidInputError } from '../errors';

export type ProxyChoice = { kind: 'environment' } | { kind: 'direct' } | { kind: 'system' } | { kind: 'address'; proxy: URL };

const EXAMPLE = 'http://proxy.example.org:3128';

/** The choice a setting's text makes; throws InvalidInputError with what to type instead. */
export function proxyChoiceOf(setting: string): ProxyChoice {
  const text = setting.trim();
  if (text === '') return { kind: 'environment' };
  if (text.toLowerCase() === 'direct') return { kind: 'direct' };
  if (text.toLowerCase() === 'system') return { kind: 'system' };
  return { kind: 'address', proxy: proxyAddress(text, 'http') };
}

/**
 * A proxy's address as curl reads one: without a scheme it is an http proxy. Only http and https proxies are
 * spoken to; a SOCKS proxy is refused by name rather than misread as a web proxy.
 */
export function proxyAddress(text: string, defaultScheme: 'http' | 'https'): URL {
  let parsed: URL;
  try {
    parsed = new URL(text.includes('://') ? text : `${defaultScheme}://${text}`);
  } catch {
    throw new InvalidInputError(`The proxy address is not a web address: use one such as ${EXAMPLE}, or leave it empty.`, 'proxy');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InvalidInputError(
      `Only http and https proxies are supported, not ${parsed.protocol.replace(/:$/, '')}: use an address such as ${EXAMPLE}.`,
      'proxy',
    );
  }
  if (parsed.hostname === '') throw new InvalidInputError(`The proxy address names no server: use one such as ${EXAMPLE}.`, 'proxy');
  return parsed;
}

/** How messages and logs name a proxy: scheme, host and port, never the user name or password. */
export function proxyLabel(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}
