// Which addresses belong to the API's own server: the only server the session cookie goes to and, unless the
// user allows other servers, the only one files are downloaded from (listed addresses and redirects alike).
// The same server means the same host name and port, and the same scheme, with one exception: an http API may
// hand out https addresses on its own host (an upgrade; the real service lists http:// download URLs today and
// may move to https). The reverse, https to http, counts as another server: it would send the session unencrypted.

export class ApiServer {
  private readonly base: URL;

  constructor(baseUrl: string) {
    this.base = new URL(baseUrl);
  }

  /** scheme://host[:port] of the API, e.g. http://api.mlso.ucar.edu: one jar of cookies per origin. */
  get origin(): string {
    return this.base.origin;
  }

  /** The API's host name, as the user sees it in messages (with its port when it is not the default). */
  get host(): string {
    return this.base.host;
  }

  /** Whether `url` is on the API's server. An address that cannot be read is on no server. */
  holds(url: string | URL): boolean {
    let target: URL;
    try {
      target = typeof url === 'string' ? new URL(url) : url;
    } catch {
      return false;
    }
    if (target.hostname !== this.base.hostname) return false;
    if (target.protocol === this.base.protocol) return target.port === this.base.port;
    // Both on their scheme's default port ('' in URL), http://host and https://host are the same machine.
    return this.base.protocol === 'http:' && target.protocol === 'https:' && this.base.port === '' && target.port === '';
  }

  /**
   * How to name `url`'s server beside the API's in a message: its host, or its origin when the host alone
   * would read the same as the API's (https://api.example.org against http://api.example.org).
   */
  describe(url: URL): { other: string; api: string } {
    if (url.host === this.base.host) return { other: url.origin, api: this.base.origin };
    return { other: url.host, api: this.base.host };
  }
}

/** Whether `url` is an http or https address: nothing else is fetched, whatever the settings. */
export function isWebAddress(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}
