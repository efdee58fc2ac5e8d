// Who may talk to web mode: only pages served by this server itself, on this machine, holding the
// random token printed at launch. The Host check defeats DNS rebinding, the Origin check other sites'
// pages, the token other local users and programs.
import { timingSafeEqual } from 'node:crypto';

export class LoopbackGuard {
  // Empty until the server knows its port: until then nothing is allowed.
  private hosts: ReadonlySet<string> = new Set();
  private origins: ReadonlySet<string> = new Set();

  constructor(private readonly token: string) {}

  listeningOn(port: number): void {
    this.hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    this.origins = new Set([...this.hosts].map((host) => `http://${host}`));
  }

  hostAllowed(host: string | undefined): boolean {
    return host !== undefined && this.hosts.has(host.toLowerCase());
  }

  originAllowed(origin: string | undefined): boolean {
    return origin !== undefined && this.origins.has(origin.toLowerCase());
  }

  tokenMatches(candidate: string | null | undefined): boolean {
    if (!candidate) return false;
    const given = Buffer.from(candidate);
    const expected = Buffer.from(this.token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The WebSocket addresses the page may connect to: this server's, under each host name it answers to. */
  get connectSources(): string[] {
    return [...this.hosts].map((host) => `ws://${host}`);
  }
}
