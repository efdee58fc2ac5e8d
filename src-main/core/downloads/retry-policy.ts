// Which failures are worth another attempt, and how long to wait before it: exponential backoff with
// full jitter (so parallel workers that failed together do not retry together), never sooner than a
// server's Retry-After.
import { DownloadError, MlsoError, NetworkError, ProxyError, ServerError, SessionError, UnknownUserError } from '../errors';
import { SignInRequiredError } from './session-keeper';

export interface BackoffSettings {
  /** Delay before the second attempt, before jitter. */
  baseMs: number;
  /** The longest delay between attempts. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = { baseMs: 1_000, maxMs: 60_000 };

export type FailureHandling = { action: 'retry'; retryAfterMs?: number } | { action: 'renew-session' } | { action: 'pause-queue' } | { action: 'fail' };

/** What to do about a failed attempt. */
export function handlingFor(error: unknown): FailureHandling {
  if (error instanceof SessionError) return { action: 'renew-session' };
  // An error body or a non-FITS body where a file was due is what an expired session often looks like.
  if (error instanceof DownloadError && (error.reason === 'error-body' || error.reason === 'not-fits')) return { action: 'renew-session' };
  if (error instanceof MlsoError && error.kind === 'disk-full') return { action: 'pause-queue' };
  // No file can arrive until the user signs in (again, or with another e-mail): stop and say so.
  if (error instanceof UnknownUserError || error instanceof SignInRequiredError) return { action: 'pause-queue' };
  // A body longer than its FITS headers declare is what the server holds: asking again gets the same bytes.
  if (error instanceof DownloadError && error.reason === 'oversized') return { action: 'fail' };
  // No file can pass a proxy that wants a sign-in until the user gives one: stop and say so.
  if (error instanceof ProxyError && error.reason === 'sign-in') return { action: 'pause-queue' };
  if (error instanceof NetworkError || error instanceof ProxyError) return { action: 'retry' };
  if (error instanceof DownloadError && (error.reason === 'truncated' || error.reason === 'corrupt')) return { action: 'retry' };
  if (error instanceof ServerError && (error.status >= 500 || error.status === 429)) {
    return error.retryAfterSeconds !== undefined ? { action: 'retry', retryAfterMs: error.retryAfterSeconds * 1000 } : { action: 'retry' };
  }
  return { action: 'fail' };
}

/** Delay before attempt `attempt + 1`, given `attempt` attempts so far (1 = the first failed). */
export function backoffDelay(attempt: number, settings: BackoffSettings, retryAfterMs = 0, random: () => number = Math.random): number {
  const ceiling = Math.min(settings.maxMs, settings.baseMs * 2 ** Math.max(0, attempt - 1));
  // Full jitter keeps at least half the ceiling, so a retry never hammers the server straight away.
  const jittered = ceiling / 2 + random() * (ceiling / 2);
  return Math.max(Math.round(jittered), retryAfterMs);
}
