// The decision about a failed attempt, case by case: what each failure leads to (retry when, sign in again,
// pause the queue, fail) and the reason the ledger keeps for the file.
import { describe, expect, it } from 'vitest';
import {
  DiskFullError,
  DownloadError,
  InvalidResponseError,
  NetworkError,
  ProxyError,
  ServerError,
  SessionError,
  UnknownUserError,
} from '../../../src-main/core/errors';
import { decideFailure, withNote, type FailedAttempt, type FailureDecision } from '../../../src-main/core/downloads/failure-decision';
import { SignInRequiredError } from '../../../src-main/core/downloads/session-keeper';

const URL = 'http://127.0.0.1:1/v1/download/x.fts.gz';
const backoff = { baseMs: 1_000, maxMs: 60_000 };
/** The jitter's draw fixed at the middle: the delay is three quarters of the backoff ceiling. */
const middle = (): number => 0.5;

function decide(error: unknown, attempts: number, extra: Partial<FailedAttempt> = {}): FailureDecision {
  return decideFailure({ error, attempts, maxAttempts: 5, renewedBefore: false, backoff, random: middle, ...extra });
}

const reset = new NetworkError('reset', URL);
const truncated = new DownloadError('truncated', 'x.fts arrived incomplete (100 of 200 bytes).');
const corrupt = new DownloadError('corrupt', 'x.fts arrived corrupted (invalid compressed data); it was not saved.');
const busy = new ServerError(503, 'Try later', URL);
const tooMany = new ServerError(429, undefined, URL, 30);
const refused = new SessionError(401, 'Not signed in');
const errorPage = new DownloadError('error-body', 'The server sent a web page instead of x.fts; the file was not saved.');
const notFits = new DownloadError('not-fits', 'x.fts is not a FITS file (it does not begin with "SIMPLE  ="); it was not saved.');

describe('the decision about a failed attempt', () => {
  const retries: [string, unknown, number, number][] = [
    // what, error, attempts so far, delay: a ceiling of base * 2^(attempts - 1), three quarters of it with the draw fixed
    ['a dropped connection, first attempt', reset, 1, 750],
    ['a dropped connection, third attempt', reset, 3, 3_000],
    ['a truncated body', truncated, 2, 1_500],
    ['a corrupted gzip stream', corrupt, 1, 750],
    ['a 503', busy, 1, 750],
    ['a 429 with Retry-After: 30 (longer than the backoff)', tooMany, 1, 30_000],
  ];
  for (const [what, error, attempts, delayMs] of retries) {
    it(`retries ${what} after ${delayMs} ms`, () => {
      expect(decide(error, attempts)).toEqual({ action: 'retry', delayMs, error: (error as DownloadError).toData() });
    });
  }

  it('keeps the backoff under its ceiling however many attempts', () => {
    expect(decide(reset, 30, { maxAttempts: 100 })).toEqual({ action: 'retry', delayMs: 45_000, error: reset.toData() });
  });

  const renewals: [string, unknown][] = [
    ['a refused session (401)', refused],
    ['a web page where the file was due', errorPage],
    ['a body that is not FITS', notFits],
  ];
  for (const [what, error] of renewals) {
    it(`signs in again after ${what}, once; a second time the file fails`, () => {
      expect(decide(error, 1)).toEqual({ action: 'renew-session', error: (error as SessionError).toData() });
      expect(decide(error, 2, { renewedBefore: true })).toEqual({
        action: 'fail',
        error: { ...(error as SessionError).toData(), message: withNote((error as Error).message, 'signing in again did not help') },
      });
    });
  }

  const pauses: [string, unknown][] = [
    ['a full disk', new DiskFullError('/data/fits')],
    ['an e-mail the service does not know', new UnknownUserError('who@example.org', 'Unknown user')],
    ['no e-mail to sign in with', new SignInRequiredError()],
  ];
  for (const [what, error] of pauses) {
    it(`pauses the queue on ${what}, whatever the attempts`, () => {
      expect(decide(error, 1)).toEqual({ action: 'pause-queue', error: (error as DiskFullError).toData() });
      expect(decide(error, 5)).toEqual({ action: 'pause-queue', error: (error as DiskFullError).toData() });
    });
  }

  it('pauses the queue when signing in again is refused, even after a renewal', () => {
    const unknown = new UnknownUserError('who@example.org', 'Unknown user');
    expect(decide(unknown, 1, { renewedBefore: true })).toEqual({ action: 'pause-queue', error: unknown.toData() });
  });

  const gaveUp: [string, unknown, number][] = [
    ['a dropped connection', reset, 5],
    ['a truncated body', truncated, 5],
    ['a 503', busy, 7],
  ];
  for (const [what, error, attempts] of gaveUp) {
    it(`fails ${what} after the last attempt, saying how many were made`, () => {
      const data = (error as NetworkError).toData();
      expect(decide(error, attempts)).toEqual({
        action: 'fail',
        error: { ...data, message: withNote(data.message, `gave up after ${attempts} attempts`) },
      });
    });
  }

  const failures: [string, unknown][] = [
    ['a 404', new ServerError(404, 'No such file', URL)],
    ['a body longer than its headers declare', new DownloadError('oversized', 'x.fts is longer than its FITS headers declare; it was not saved.')],
    [
      'a folder that cannot be written',
      new DownloadError('write-failed', 'Cannot write x.fts into /data (read-only file system). Choose a folder you can write to.'),
    ],
    ['an unsafe name', new DownloadError('unsafe-name', 'The listing names a file "../x.fts" that would leave the folder; it was not saved.')],
    ['an answer that is not what the service sends', new InvalidResponseError(URL, 'HTML where JSON was due')],
  ];
  for (const [what, error] of failures) {
    it(`fails ${what} at once, with its own message`, () => {
      expect(decide(error, 1)).toEqual({ action: 'fail', error: (error as ServerError).toData() });
    });
  }

  it('fails a failure nobody foresaw at once, as an unexpected problem', () => {
    expect(decide(new TypeError('x is undefined'), 1)).toEqual({ action: 'fail', error: { kind: 'internal', message: 'Unexpected problem: x is undefined' } });
  });
});

describe('the note on a failed file', () => {
  it.each([
    [
      'The server answered 500: internal server error.',
      'gave up after 4 attempts',
      'The server answered 500: internal server error (gave up after 4 attempts).',
    ],
    [
      'Cannot reach http://127.0.0.1:5000 (ECONNREFUSED). Check the address and your network connection, then try again.',
      'gave up after 3 attempts',
      'Cannot reach http://127.0.0.1:5000 (ECONNREFUSED; gave up after 3 attempts). Check the address and your network connection, then try again.',
    ],
    [
      '20250324_180000_kcor_l2_pb.fts arrived incomplete (the compressed stream ended early).',
      'gave up after 3 attempts',
      '20250324_180000_kcor_l2_pb.fts arrived incomplete (the compressed stream ended early; gave up after 3 attempts).',
    ],
    [
      'The server sent a web page instead of x.fts; the file was not saved.',
      'signing in again did not help',
      'The server sent a web page instead of x.fts; the file was not saved (signing in again did not help).',
    ],
    ['A message from the server without a full stop', 'gave up after 2 attempts', 'A message from the server without a full stop (gave up after 2 attempts).'],
  ])('%s', (message, note, expected) => {
    expect(withNote(message, note)).toBe(expected);
  });
});

describe('a proxy that fails', () => {
  it('is retried when it cannot be reached, and pauses the queue when it wants a password no retry will give', () => {
    const unreachable = new ProxyError('unreachable', 'http://proxy.example.org:3128', 'ECONNREFUSED');
    expect(decide(unreachable, 1)).toMatchObject({ action: 'retry', error: { kind: 'network', message: unreachable.message } });
    expect(decide(unreachable, 5)).toMatchObject({ action: 'fail' });
    const signIn = new ProxyError('sign-in', 'http://proxy.example.org:3128');
    expect(decide(signIn, 1)).toEqual({ action: 'pause-queue', error: { kind: 'network', message: signIn.message } });
  });
});
