// Sessions handed out by /v1/authenticate and checked by /v1/download.
import { randomBytes } from 'node:crypto';
import { httpDate } from './timestamps';

interface Session {
  username: string;
  expiresAt: number;
}

export class EmulatorSessions {
  private readonly sessions = new Map<string, Session>();

  /** Opens a session and returns the Set-Cookie header value for it, shaped like the real service's. */
  open(username: string, lifetimeSeconds: number, now = Date.now()): string {
    this.dropExpired(now);
    // 32 random bytes in base64url: the same 43-character shape as the documented cookie value.
    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + lifetimeSeconds * 1000;
    this.sessions.set(token, { username, expiresAt });
    return `session=${token}; Expires=${httpDate(expiresAt)}; HttpOnly; Path=/`;
  }

  /** True when the Cookie header carries a `session` cookie that is known and not expired. */
  isValid(cookieHeader: string | undefined, now = Date.now()): boolean {
    return sessionTokens(cookieHeader).some((token) => {
      const session = this.sessions.get(token);
      return session !== undefined && session.expiresAt > now;
    });
  }

  expireAll(): void {
    this.sessions.clear();
  }

  private dropExpired(now: number): void {
    for (const [token, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(token);
  }
}

/** Every value of a cookie named `session` (a client may send stale and fresh ones side by side). */
function sessionTokens(cookieHeader: string | undefined): string[] {
  if (!cookieHeader) return [];
  return cookieHeader
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith('session='))
    .map((pair) => pair.slice('session='.length).replace(/^"(.*)"$/, '$1'));
}
