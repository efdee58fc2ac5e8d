// Sign-in state and the top bar's sign-in form. Browsing needs no session; downloading does, so other parts
// of the app can ask for a sign-in (the form then takes focus and says why).
import type { SessionState } from '../../src-shared/contract/contract';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';

const SIGNED_OUT: SessionState = { signedIn: false, email: null, expiresAt: null };

export class SessionStore {
  session = $state.raw<SessionState>(SIGNED_OUT);
  /** The E-mail field. */
  email = $state('');
  busy = $state(false);
  /** The server's answer to a failed sign-in (an unknown e-mail carries the registration link). */
  error = $state.raw<ErrorData | null>(null);
  /** Why a sign-in is needed right now (e.g. a download was asked for while signed out). */
  prompt = $state<string | null>(null);
  /** Bumped to move focus to the E-mail field. */
  focusRequests = $state(0);

  private readonly client: ApiClient;

  constructor(client: ApiClient) {
    this.client = client;
    client.on('session:changed', (session) => this.accept(session));
  }

  get signedIn(): boolean {
    return this.session.signedIn;
  }

  async load(): Promise<void> {
    const result = await this.client.invoke('session:get');
    if (result.ok) this.accept(result.value);
    else this.error = result.error;
  }

  /** Fills the field with the last e-mail used, unless the user has typed something already. */
  suggestEmail(email: string): void {
    if (this.email === '' && email) this.email = email;
  }

  async signIn(): Promise<void> {
    const email = this.email.trim();
    if (email === '') {
      this.error = { kind: 'invalid-input', message: 'Enter the e-mail address you registered with the observatory.' };
      this.focusRequests += 1;
      return;
    }
    this.busy = true;
    this.error = null;
    const result = await this.client.invoke('session:sign-in', { email });
    this.busy = false;
    if (result.ok) this.accept(result.value);
    else {
      this.error = result.error;
      this.focusRequests += 1;
    }
  }

  async signOut(): Promise<void> {
    this.busy = true;
    const result = await this.client.invoke('session:sign-out');
    this.busy = false;
    if (result.ok) this.accept(result.value);
    else this.error = result.error;
  }

  requireSignIn(reason: string): void {
    this.prompt = reason;
    this.focusRequests += 1;
  }

  dismissMessages(): void {
    this.error = null;
    this.prompt = null;
  }

  private accept(session: SessionState): void {
    this.session = session;
    if (session.signedIn) {
      this.error = null;
      this.prompt = null;
      if (session.email) this.email = session.email;
    }
  }
}
