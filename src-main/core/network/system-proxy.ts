// The system's proxy, as the desktop app learns it: Electron's session.resolveProxy answers in the PAC form
// ("PROXY host:port; DIRECT"). The core sees only this port, so it is tested without Electron.

/** Answers, for one address, the system's (or its PAC script's) proxy list in the PAC form. */
export type SystemProxyResolver = (url: string) => Promise<string>;

/**
 * The first entry of a PAC answer this client can use: a web proxy (PROXY, HTTPS) or DIRECT. SOCKS entries are
 * passed over, as this client speaks only to web proxies; an answer with nothing usable means no proxy.
 */
export function proxyFromPacAnswer(answer: string): URL | undefined {
  for (const entry of answer.split(';')) {
    const [type = '', where = ''] = entry.trim().split(/\s+/);
    const kind = type.toUpperCase();
    if (kind === 'DIRECT') return undefined;
    if ((kind === 'PROXY' || kind === 'HTTP' || kind === 'HTTPS') && where !== '') {
      try {
        return new URL(`${kind === 'HTTPS' ? 'https' : 'http'}://${where}`);
      } catch {
        continue;
      }
    }
  }
  return undefined;
}
