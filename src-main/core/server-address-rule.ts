// Which Host and Origin headers name a small local server (web mode, the emulator's control endpoints): the
// Host check defeats DNS rebinding (a site's own name made to resolve to this machine), the Origin check other
// sites' pages. One rule for both servers, so they cannot drift apart.

/** Addresses that mean "every interface": reachable here through the loopback names. */
const WILDCARDS = new Set(['0.0.0.0', '::', '']);

export class ServerAddressRule {
  /** Host header values (name:port, IPv6 in brackets), lower case. */
  readonly hosts: ReadonlySet<string>;
  private readonly origins: ReadonlySet<string>;

  /** `listenHost` as given to listen(): a name, an IP address or a wildcard. */
  constructor(listenHost: string, port: number) {
    this.hosts = new Set(namesFor(listenHost.toLowerCase()).map((name) => `${name}:${port}`));
    this.origins = new Set([...this.hosts].map((host) => `http://${host}`));
  }

  hostAllowed(host: string | undefined): boolean {
    return host !== undefined && this.hosts.has(host.toLowerCase());
  }

  /** An Origin header (absent is the caller's decision: browsers always send one with a cross-site request). */
  originAllowed(origin: string | undefined): boolean {
    return origin !== undefined && this.origins.has(origin.toLowerCase());
  }
}

/** The names a browser on this machine may use for a server listening on `host`. */
function namesFor(host: string): string[] {
  if (WILDCARDS.has(host) || host === 'localhost') return ['127.0.0.1', 'localhost', '[::1]'];
  if (host === '127.0.0.1') return ['127.0.0.1', 'localhost'];
  if (host === '::1') return ['[::1]', 'localhost'];
  // Any other address of this machine (or a name for it): that name only.
  return [host.includes(':') ? `[${host}]` : host];
}
