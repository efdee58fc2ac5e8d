// One session shared by every download worker. It signs in before the first download, again before
// the cookie's Expires, and when a download is refused; only one sign-in is ever in flight and the
// workers that need it wait for that one.
import type { MlsoClient } from '../api/mlso-client';
import { MlsoError } from '../errors';

export class SignInRequiredError extends MlsoError {
  readonly kind = 'session' as const;
  constructor() {
    super('Downloading needs you to sign in with the e-mail you registered with the observatory.');
  }
}

export interface SessionKeeperOptions {
  /** Renew this long before the cookie expires, so no download starts on a dying session. */
  expiryMarginMs?: number;
}

export class SessionKeeper {
  /** Counts successful sign-ins; a worker remembers the generation its request used. */
  private generation = 0;
  private signingIn: Promise<void> | undefined;
  /** How long the last session was granted for, as its cookie's Expires said. */
  private lifetimeMs: number | undefined;
  private readonly marginMs: number;

  constructor(
    private readonly client: MlsoClient,
    private username: () => string | undefined,
    options: SessionKeeperOptions = {},
  ) {
    this.marginMs = options.expiryMarginMs ?? 30_000;
  }

  /** Waits until there is a usable session; returns its generation. */
  async ready(): Promise<number> {
    if (this.signingIn) await this.signingIn;
    const expiry = await this.client.sessionExpiry();
    const usable = expiry === null || (expiry !== undefined && expiry - this.margin() > Date.now());
    if (!usable) await this.renew(this.generation);
    return this.generation;
  }

  /** The renewal margin, shortened for short sessions so they are not renewed before every file. */
  private margin(): number {
    return this.lifetimeMs === undefined ? this.marginMs : Math.min(this.marginMs, this.lifetimeMs / 10);
  }

  /**
   * Signs in again because a request made with session `seenGeneration` was refused. If another
   * worker already renewed the session since then, there is nothing to do but use the new one.
   */
  async renew(seenGeneration: number): Promise<void> {
    if (seenGeneration !== this.generation) return;
    if (!this.signingIn) {
      const username = this.username();
      if (!username) throw new SignInRequiredError();
      this.signingIn = this.client
        .authenticate(username)
        .then(async () => {
          this.generation += 1;
          const expiry = await this.client.sessionExpiry();
          this.lifetimeMs = typeof expiry === 'number' ? Math.max(0, expiry - Date.now()) : undefined;
        })
        .finally(() => {
          this.signingIn = undefined;
        });
    }
    await this.signingIn;
  }
}
