// The one rule for which proxy a request goes through, and the agent that takes it there: every request of the
// client asks here. Environment variables are read as curl and Python's requests read them (HTTPS_PROXY,
// HTTP_PROXY, ALL_PROXY, NO_PROXY, either case), by proxy-from-env. An https address goes through a CONNECT
// tunnel (https-proxy-agent), a plain http one as a proxy request (http-proxy-agent).
import type { Agent } from 'node:http';
import { getProxyForUrl } from 'proxy-from-env';
import { proxyAddress, proxyChoiceOf, type ProxyChoice } from './proxy-setting';
import { proxyFromPacAnswer, type SystemProxyResolver } from './system-proxy';

export interface ProxyRoute {
  /** The proxy the request goes through; absent for a direct connection. */
  proxy?: URL;
  /** The agent to hand the request to; absent for a direct connection (Node's own agents). */
  agent?: Agent;
}

const DIRECT: ProxyRoute = {};

export class ProxyRoutes {
  private readonly choice: ProxyChoice;
  private readonly agents = new Map<string, Agent>();

  constructor(
    setting: string,
    private readonly systemProxy?: SystemProxyResolver,
  ) {
    this.choice = proxyChoiceOf(setting);
  }

  /** The route of a request to `url`. */
  async routeFor(url: string): Promise<ProxyRoute> {
    const proxy = await this.proxyFor(url);
    if (!proxy) return DIRECT;
    const tunnel = new URL(url).protocol === 'https:';
    const key = `${tunnel ? 'tunnel' : 'forward'} ${proxy.href}`;
    let agent = this.agents.get(key);
    if (!agent) {
      // A tunnel is the server's own connection and is kept for the next request; a forwarded request's connection is
      // the proxy's, which many (tinyproxy) close after each answer, so it is not reused.
      // Loaded only when a request goes through a proxy: loading them costs every command's start-up otherwise.
      const made = tunnel
        ? new (await import('https-proxy-agent')).HttpsProxyAgent(proxy, { keepAlive: true })
        : new (await import('http-proxy-agent')).HttpProxyAgent(proxy);
      // Another request may have made one while the module loaded: one agent per route, so its connections are shared.
      agent = this.agents.get(key) ?? made;
      this.agents.set(key, agent);
    }
    return { proxy, agent };
  }

  private async proxyFor(url: string): Promise<URL | undefined> {
    switch (this.choice.kind) {
      case 'direct':
        return undefined;
      case 'address':
        return this.choice.proxy;
      case 'system':
        // Outside the desktop app the system's proxy is what the environment says.
        if (this.systemProxy) return proxyFromPacAnswer(await this.systemProxy(url));
        return environmentProxyFor(url);
      case 'environment':
        return environmentProxyFor(url);
    }
  }
}

/** The proxy the environment's variables name for `url`, or undefined (none, or NO_PROXY covers it). */
function environmentProxyFor(url: string): URL | undefined {
  const named = getProxyForUrl(url);
  if (named === '') return undefined;
  return proxyAddress(named, 'http');
}
