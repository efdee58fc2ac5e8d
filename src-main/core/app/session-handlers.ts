// Signing in and out, and the remembered session: who is signed in is known here and nowhere else.
import type { ContractHandlers, EventSink, SessionState } from '../../../src-shared/contract/contract';
import type { ErrorData } from '../../../src-shared/errors';
import type { MlsoClient } from '../api/mlso-client';
import { UnknownUserError } from '../errors';
import type { SecretVault } from './app-ports';
import type { SettingsKeeper } from './settings-keeper';

/** Errors that mean "the user has to sign in (again)" rather than "something broke". */
const SIGN_IN_KINDS: ReadonlySet<string> = new Set(['unknown-user', 'session']);

/** The queue stopped because nobody was signed in (or the sign-in was refused); a new sign-in lifts that. */
export function pausedForSignIn(reason: ErrorData | null): boolean {
  return reason !== null && SIGN_IN_KINDS.has(reason.kind);
}

export interface SessionDeps {
  client: MlsoClient;
  settings: SettingsKeeper;
  vault: SecretVault | undefined;
  emit: EventSink;
  /** Told after every sign-in (the download queue resumes when it waited for one). */
  onSignedIn(): void;
  /** The e-mail the demo server accepts while the demo server is the one in use. */
  demoEmail(): string | undefined;
}

export class AppSession {
  private signedInEmail: string | null = null;

  constructor(private readonly deps: SessionDeps) {}

  /** A remembered session comes back only for the server it was made with. */
  async restore(): Promise<void> {
    const { settings, vault, client } = this.deps;
    if (!settings.value.rememberSession || !vault || !settings.value.lastEmail) return;
    const saved = await vault.load();
    if (saved && (await client.importSession(saved)) && (await client.sessionExpiry()) !== undefined) this.signedInEmail = settings.value.lastEmail;
  }

  get email(): string | null {
    return this.signedInEmail;
  }

  async state(): Promise<SessionState> {
    const expiry = await this.deps.client.sessionExpiry();
    const signedIn = this.signedInEmail !== null && expiry !== undefined;
    return { signedIn, email: signedIn ? this.signedInEmail : null, expiresAt: signedIn && typeof expiry === 'number' ? expiry : null };
  }

  /** Keeps (or forgets) the session in the vault as the settings say. */
  async remember(): Promise<void> {
    const { vault, settings, client } = this.deps;
    if (!vault) return;
    await vault.save(settings.value.rememberSession && this.signedInEmail ? await client.exportSession() : null);
  }

  async signOut(): Promise<SessionState> {
    await this.deps.client.signOut();
    this.signedInEmail = null;
    await this.remember();
    return this.announce();
  }

  handlers(): Pick<ContractHandlers, 'session:get' | 'session:sign-in' | 'session:sign-out'> {
    const { client, settings } = this.deps;
    return {
      'session:get': () => this.state(),
      'session:sign-in': async ({ email }) => {
        await client.authenticate(email).catch((error: unknown) => {
          const demoEmail = this.deps.demoEmail();
          throw error instanceof UnknownUserError && demoEmail !== undefined ? error.onDemoServer(demoEmail) : error;
        });
        this.signedInEmail = email.trim();
        settings.save({ ...settings.value, lastEmail: this.signedInEmail });
        await this.remember();
        this.deps.onSignedIn();
        return this.announce();
      },
      'session:sign-out': () => this.signOut(),
    };
  }

  private async announce(): Promise<SessionState> {
    const state = await this.state();
    this.deps.emit('session:changed', state);
    return state;
  }
}
