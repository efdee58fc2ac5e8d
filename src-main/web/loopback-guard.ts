// Who may talk to web mode: only pages served by this server itself, on this machine, holding the
// random token printed at launch. The Host check defeats DNS rebinding, the Origin check other sites'
// pages (the rule the emulator's control endpoints share), the token other local users and programs.
import { timingSafeEqual } from 'node:crypto';
import { ServerAddressRule } from '../core/server-address-rule';

/** Where web mode listens (web-server.ts): loopback only. */
const LOOPBACK = '127.0.0.1';

export class LoopbackGuard {
  // Unset until the server knows its port: until then nothing is allowed.
  private rule: ServerAddressRule | undefined;

  constructor(private readonly token: string) {}

  listeningOn(port: number): void {
    this.rule = new ServerAddressRule(LOOPBACK, port);
  }

  hostAllowed(host: string | undefined): boolean {
    return this.rule?.hostAllowed(host) ?? false;
  }

  originAllowed(origin: string | undefined): boolean {
    return this.rule?.originAllowed(origin) ?? false;
  }

  tokenMatches(candidate: string | null | undefined): boolean {
    if (!candidate) return false;
    const given = Buffer.from(candidate);
    const expected = Buffer.from(this.token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The WebSocket addresses the page may connect to: this server's, under each host name it answers to. */
  get connectSources(): string[] {
    return [...(this.rule?.hosts ?? [])].map((host) => `ws://${host}`);
  }
}
