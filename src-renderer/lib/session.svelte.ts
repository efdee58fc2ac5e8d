// Sign-in state and the top bar's sign-in form. Browsing needs no session; downloading does, so other parts
// of the app can ask for a sign-in (the form then takes focus and says why).
import type { SessionState } from '../../src-shared/contract/contract';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from './api';
import { Request } from './request.svelte';

const SIGNED_OUT: SessionState = { signedIn: false, email: null, expiresAt: null };

export class SessionStore {
  session = $state.raw<SessionState>(SIGNED_OUT);
  /** The E-mail field. */
  email = $state('');
  /** Why a sign-in is needed right now (e.g. a download was asked for while signed out). */
  prompt = $state<string | null>(null);
  /** Bumped to move focus to the E-mail field. */
  focusRequests = $state(0);

  /** Signing in or out: the form is busy meanwhile. */
  private readonly signing = new Request<SessionState>();
  /** Asking for the session at start-up: the form stays as it is. */
  private readonly reading = new Request<SessionState>({ keepErrorWhileLoading: true });

  private readonly client: ApiClient;

  constructor(client: ApiClient) {
    this.client = client;
    client.on('session:changed', (session) => this.accept(session));
  }

  get signedIn(): boolean {
    return this.session.signedIn;
  }

  get busy(): boolean {
    return this.signing.loading;
  }

  /** The server's answer to a failed sign-in (an unknown e-mail carries the registration link). */
  get error(): ErrorData | null {
    return this.signing.error ?? this.reading.error;
  }

  async load(): Promise<void> {
    const result = await this.reading.run(() => this.client.invoke('session:get'));
    if (result?.ok) this.accept(result.value);
  }

  /** Fills the field with the last e-mail used, unless the user has typed something already. */
  suggestEmail(email: string): void {
    if (this.email === '' && email) this.email = email;
  }

  async signIn(): Promise<void> {
    const email = this.email.trim();
    if (email === '') {
      this.signing.error = { kind: 'invalid-input', message: 'Enter the e-mail address you registered with the observatory.' };
      this.focusRequests += 1;
      return;
    }
    // A new attempt puts away whatever was said before, the start-up's failure too.
    this.reading.error = null;
    const result = await this.signing.run(() => this.client.invoke('session:sign-in', { email }));
    if (result?.ok) this.accept(result.value);
    else if (result) this.focusRequests += 1;
  }

  async signOut(): Promise<void> {
    const result = await this.signing.run(() => this.client.invoke('session:sign-out'));
    if (result?.ok) this.accept(result.value);
  }

  requireSignIn(reason: string): void {
    this.prompt = reason;
    this.focusRequests += 1;
  }

  dismissMessages(): void {
    this.forgetErrors();
    this.prompt = null;
  }

  private accept(session: SessionState): void {
    this.session = session;
    if (session.signedIn) {
      this.forgetErrors();
      this.prompt = null;
      if (session.email) this.email = session.email;
    }
  }

  private forgetErrors(): void {
    this.signing.error = null;
    this.reading.error = null;
  }
}
