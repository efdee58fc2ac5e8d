// What the engine does about a failed attempt, decided without touching anything: given the error, the
// attempts made and the policy, either retry after a delay, sign in again, pause the whole queue (a full
// disk, no usable sign-in), or fail the file with the reason the user reads.
import type { ErrorData } from '../../../src-shared/errors';
import { toErrorData } from '../errors';
import { backoffDelay, handlingFor, type BackoffSettings } from './retry-policy';

export interface FailedAttempt {
  error: unknown;
  /** Attempts made at the file so far, the failed one included. */
  attempts: number;
  maxAttempts: number;
  /** The session was already renewed once for this file (a second refusal is not the session's fault). */
  renewedBefore: boolean;
  backoff: BackoffSettings;
  /** The jitter's random source (Math.random unless a test fixes it). */
  random?: () => number;
}

/**
 * `error` is what the ledger records for the file. Only `fail` ends the file; `renew-session` and `pause-queue`
 * put it back in the queue without counting the attempt, as the failure was not the file's.
 */
export type FailureDecision =
  | { action: 'retry'; delayMs: number; error: ErrorData }
  | { action: 'renew-session'; error: ErrorData }
  | { action: 'pause-queue'; error: ErrorData }
  | { action: 'fail'; error: ErrorData };

export function decideFailure(attempt: FailedAttempt): FailureDecision {
  const data = toErrorData(attempt.error);
  const handling = handlingFor(attempt.error);
  if (handling.action === 'renew-session' && !attempt.renewedBefore) return { action: 'renew-session', error: data };
  if (handling.action === 'pause-queue') return { action: 'pause-queue', error: data };
  if (handling.action === 'retry' && attempt.attempts < attempt.maxAttempts) {
    return { action: 'retry', delayMs: backoffDelay(attempt.attempts, attempt.backoff, handling.retryAfterMs, attempt.random), error: data };
  }
  const message =
    handling.action === 'retry'
      ? withNote(data.message, `gave up after ${attempt.attempts} attempts`)
      : handling.action === 'renew-session'
        ? withNote(data.message, 'signing in again did not help')
        : data.message;
  return { action: 'fail', error: { ...data, message } };
}

/**
 * The note in parentheses at the end of the message's first sentence, where it belongs to what happened and not
 * to the advice after it; joined to a parenthesis already there: "Cannot reach X (ECONNREFUSED; gave up after 3
 * attempts). Check the address ...".
 */
export function withNote(message: string, note: string): string {
  const end = message.search(/\.(\s|$)/);
  const first = end === -1 ? message : message.slice(0, end);
  const rest = end === -1 ? '.' : message.slice(end);
  return first.endsWith(')') ? `${first.slice(0, -1)}; ${note})${rest}` : `${first} (${note})${rest}`;
}
