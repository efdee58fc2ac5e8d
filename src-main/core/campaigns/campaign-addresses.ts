// A campaign's files keep the download address their listing gave. When the campaign's server moves (`--base-url`
// changed: the service moves to https, or to a mirror of the same archive), an address that begins with the base URL
// of a server the campaign was listed from before is still the same archive's file, and the rest of it
// (/v1/download?obsday-id=...&filename=...) holds on the server the campaign syncs against now: it is rebuilt there.
// An address on any other host stays as it is, for the other-host rule to decide. Export and sync read a remembered
// address through this one rule.

/** A server's base URL as the start of its addresses, and whether it is the server the campaign syncs against now. */
interface ServerPrefix {
  prefix: string;
  base: string;
  current: boolean;
}

export class CampaignAddresses {
  /** Longest first: of two servers one of whose base URLs begins the other's, the longer one is the address's. */
  private readonly prefixes: readonly ServerPrefix[];

  /** `current` and `listedFrom` are base URLs as the client's settings give them (no slash at the end). */
  constructor(
    readonly current: string,
    listedFrom: Iterable<string>,
  ) {
    const bases = [current, ...[...new Set(listedFrom)].filter((base) => base !== current)];
    this.prefixes = bases
      .flatMap((base) => prefixesOf(base).map((prefix) => ({ prefix, base, current: base === current })))
      .sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** Whether the campaign was listed from another server than the current one: otherwise no address changes. */
  get moved(): boolean {
    return this.prefixes.some((server) => !server.current);
  }

  /** The base URL of the server the campaign was listed from before that `url` is on, or undefined (the current server's, or another host's). */
  formerServerOf(url: string): string | undefined {
    const server = this.serverOf(url);
    return server && !server.current ? server.base : undefined;
  }

  /** `url` on the server the campaign syncs against now when it is on one it was listed from before; otherwise `url`. */
  follow(url: string): string {
    const server = this.serverOf(url);
    return server && !server.current ? `${this.current}/${url.slice(server.prefix.length)}` : url;
  }

  private serverOf(url: string): ServerPrefix | undefined {
    return this.prefixes.find((server) => url.startsWith(server.prefix));
  }
}

/**
 * The starts of a server's addresses: its base URL and the slash that begins the path, and for an http server on the
 * default port its https twin too (the same server, as ApiServer holds: an http API may hand out https addresses).
 */
function prefixesOf(base: string): string[] {
  const own = `${base}/`;
  const url = URL.canParse(own) ? new URL(own) : undefined;
  return url?.protocol === 'http:' && url.port === '' ? [own, `https://${own.slice('http://'.length)}`] : [own];
}
