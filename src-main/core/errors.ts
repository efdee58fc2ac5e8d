// Typed failures of the core. Each carries a plain message fit to show as it is, and converts to the
// ErrorData that crosses into the front ends.
import type { ErrorData, ErrorKind } from '../../src-shared/errors';
import type { FilterProblem } from '../../src-shared/filters/filter-rules';
import { REGISTRATION_URL } from '../../src-shared/api/service-facts';
import { unknownUserMessage } from '../../src-shared/api/unknown-user';
import { displayName } from '../../src-shared/format/display-text';

export abstract class MlsoError extends Error {
  abstract readonly kind: ErrorKind;
  toData(): ErrorData {
    return { kind: this.kind, message: this.message };
  }
}

/** The e-mail is not registered: keeps the server's own message and says where to sign up, in one sentence. */
export class UnknownUserError extends MlsoError {
  readonly kind = 'unknown-user' as const;
  readonly registrationUrl: string;
  constructor(
    readonly username: string,
    readonly serverMessage: string,
    /** The e-mail the demo server accepts, when the server is the demo. */
    readonly demoEmail?: string,
  ) {
    const registrationUrl = /https?:\/\/[^\s"',]+/.exec(serverMessage)?.[0] ?? REGISTRATION_URL;
    super(unknownUserMessage(displayName(username), registrationUrl, demoEmail));
    this.registrationUrl = registrationUrl;
  }
  /** The same refusal, told as the demo server's: the e-mail to use there. */
  onDemoServer(demoEmail: string): UnknownUserError {
    return new UnknownUserError(this.username, this.serverMessage, demoEmail);
  }
  override toData(): ErrorData {
    return { ...super.toData(), registrationUrl: this.registrationUrl };
  }
}

/** The service answered with an error status; `serverMessage` is its `message`, when it sent one. */
export class ServerError extends MlsoError {
  readonly kind = 'server' as const;
  constructor(
    readonly status: number,
    readonly serverMessage: string | undefined,
    readonly url: string,
    /** Seconds the server asked to wait (Retry-After), when it said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(serverMessage ? `The server answered ${status}: ${serverMessage}` : `The server answered ${status} for ${url} without an explanation.`);
  }
  override toData(): ErrorData {
    return { ...super.toData(), status: this.status };
  }
}

export type NetworkFailure = 'unreachable' | 'timeout' | 'reset' | 'stalled';

export class NetworkError extends MlsoError {
  readonly kind = 'network' as const;
  constructor(
    readonly reason: NetworkFailure,
    readonly url: string,
    detail?: string,
  ) {
    const where = safeOrigin(url);
    // What happened, then what to do; the system's code (ECONNREFUSED) belongs to what happened.
    const text: Record<NetworkFailure, [string, string]> = {
      unreachable: [`Cannot reach ${where}`, 'Check the address and your network connection, then try again.'],
      timeout: [`${where} did not answer in time`, 'Try again later.'],
      reset: [`The connection to ${where} was dropped before the answer was complete`, 'Try again.'],
      stalled: [`The download from ${where} stopped sending data`, 'Try again.'],
    };
    const [happened, advice] = text[reason];
    super(`${happened}${detail ? ` (${detail})` : ''}. ${advice}`);
  }
}

/**
 * The proxy in front of the service failed the request: it could not be reached, or it asks for a sign-in this
 * client did not give. Named by scheme, host and port only, so a password in its address never shows.
 */
export class ProxyError extends MlsoError {
  readonly kind = 'network' as const;
  constructor(
    readonly reason: 'unreachable' | 'sign-in' | 'refused',
    readonly proxy: string,
    detail?: string,
  ) {
    const text: Record<ProxyError['reason'], string> = {
      unreachable: `Cannot reach the proxy ${proxy}${detail ? ` (${detail})` : ''}. Check the proxy address (the proxy setting, or HTTPS_PROXY and HTTP_PROXY), then try again.`,
      'sign-in': `The proxy ${proxy} asks for a user name and password. Put them in the proxy address (http://user:password@host:port), or check the ones there.`,
      refused: `The proxy ${proxy} refused to connect to ${detail ?? 'the server'}. Ask whoever runs the proxy, or set the server in NO_PROXY (or the proxy to "direct") if it can be reached without it.`,
    };
    super(text[reason]);
  }
}

export class InvalidInputError extends MlsoError {
  readonly kind = 'invalid-input' as const;
  constructor(
    readonly problems: FilterProblem[] | string,
    /** The setting the message is about, when it is about one. */
    readonly field?: string,
  ) {
    super(typeof problems === 'string' ? problems : problems.map((p) => p.message).join(' '));
  }
  override toData(): ErrorData {
    return { ...super.toData(), ...(this.field !== undefined ? { field: this.field } : {}) };
  }
}

/** The service answered in a shape the documentation does not allow (HTML, wrong fields, bad JSON). */
export class InvalidResponseError extends MlsoError {
  readonly kind = 'invalid-response' as const;
  constructor(
    readonly url: string,
    readonly detail: string,
  ) {
    super(`The server at ${safeOrigin(url)} sent an answer this client does not understand (${detail}). Check the server address and API version.`);
  }
}

/** The server redirected in a way this client does not follow: round and round, or to something that is not a web address. */
export class RedirectError extends MlsoError {
  // Not a network failure: trying again would only meet the same redirect, so retries give up at once.
  readonly kind = 'invalid-response' as const;
  private constructor(
    readonly reason: 'too-many' | 'not-web' | 'other-server',
    readonly url: string,
    message: string,
  ) {
    super(message);
  }

  static tooMany(url: string, maxRedirects: number): RedirectError {
    return new RedirectError('too-many', url, `The server at ${safeOrigin(url)} kept redirecting (more than ${maxRedirects} times); check the server address.`);
  }

  static notWeb(url: string, location: string): RedirectError {
    return new RedirectError(
      'not-web',
      url,
      `The server at ${safeOrigin(url)} redirected to ${displayName(location)}, which is not a web address; it was not followed.`,
    );
  }

  /** A download redirected off the API's server (`other`, `api`: how to name both), which the user has not allowed. */
  static otherServer(url: string, other: string, api: string, advice: string): RedirectError {
    return new RedirectError(
      'other-server',
      url,
      `The server at ${safeOrigin(url)} redirected the download to another server (${other}); MLSO Downloader only downloads from ${api}, so it was not followed. To allow it, ${advice}.`,
    );
  }
}

/** A listed download address this client does not fetch: on another server (unless allowed), or not a web address. */
export class RefusedAddressError extends MlsoError {
  // Asking again would meet the same address: retries give up at once.
  readonly kind = 'invalid-response' as const;
  private constructor(
    readonly reason: 'other-server' | 'not-web',
    readonly url: string,
    message: string,
  ) {
    super(message);
  }

  static otherServer(url: string, other: string, api: string, advice: string): RefusedAddressError {
    return new RefusedAddressError(
      'other-server',
      url,
      `The file's address is on another server (${other}); MLSO Downloader only downloads from ${api}. To allow it, ${advice}.`,
    );
  }

  static notWeb(url: string): RefusedAddressError {
    return new RefusedAddressError('not-web', url, `The file's address, ${displayName(url)}, is not a web address; it was not fetched.`);
  }
}

/** What a catalogue answer is called in a message, and what to advise when it breaks a limit. */
export interface AnswerSubject {
  /** "file listing", "answer". */
  name: string;
  /** What to do about an answer larger than the limit (a clause, no final full stop). */
  tooLarge: string;
  /** What to do about an answer slower than the deadline (a clause, no final full stop). */
  tooSlow: string;
}

/** A catalogue answer was larger than the client's limit (as sent, or once decompressed). */
export class AnswerTooLargeError extends MlsoError {
  readonly kind = 'invalid-response' as const;
  constructor(
    readonly url: string,
    readonly limitBytes: number,
    subject: AnswerSubject,
  ) {
    super(`The ${subject.name} from ${safeOrigin(url)} is larger than the ${describeSize(limitBytes)} limit; ${subject.tooLarge}.`);
  }
}

/** A catalogue answer did not arrive in full within the client's overall deadline. */
export class AnswerDeadlineError extends MlsoError {
  readonly kind = 'network' as const;
  constructor(
    readonly url: string,
    readonly deadlineMs: number,
    subject: AnswerSubject,
  ) {
    super(`The server at ${safeOrigin(url)} did not finish sending the ${subject.name} within ${describeDuration(deadlineMs)}; ${subject.tooSlow}.`);
  }
}

/** The download was refused for want of a valid session (401/403, or an error body where a file was due). */
export class SessionError extends MlsoError {
  readonly kind = 'session' as const;
  constructor(
    readonly status: number,
    readonly serverMessage: string | undefined,
  ) {
    super(`The server refused the download (${status}${serverMessage ? `: ${serverMessage}` : ''}). Sign in again with your registered e-mail.`);
  }
}

export type DownloadFailure = 'unsafe-name' | 'not-fits' | 'error-body' | 'truncated' | 'corrupt' | 'oversized' | 'write-failed';

export class DownloadError extends MlsoError {
  readonly kind = 'download' as const;
  constructor(
    readonly reason: DownloadFailure,
    message: string,
    readonly serverMessage?: string,
  ) {
    super(message);
  }
}

export class DiskFullError extends MlsoError {
  readonly kind = 'disk-full' as const;
  constructor(readonly folder: string) {
    super(`The disk holding ${folder} is full. Free some space or choose another download folder, then resume.`);
  }
}

export class CancelledError extends MlsoError {
  readonly kind = 'cancelled' as const;
  constructor(what = 'The operation') {
    super(`${what} was cancelled.`);
  }
}

function safeOrigin(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin;
  } catch {
    return url;
  }
}

/** Sizes in binary multiples, named as the command line's --max-listing-size reads them (256MB = 256 MiB). */
function describeSize(bytes: number): string {
  for (const [unit, factor] of [
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['KB', 1024],
  ] as const) {
    if (bytes >= factor) return `${Number((bytes / factor).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

function describeDuration(ms: number): string {
  const plural = (value: number, unit: string): string => `${value} ${unit}${value === 1 ? '' : 's'}`;
  if (ms >= 60_000 && ms % 60_000 === 0) return plural(ms / 60_000, 'minute');
  if (ms >= 1_000) return plural(Number((ms / 1_000).toFixed(1)), 'second');
  return `${Math.round(ms)} ms`;
}

/** Converts anything thrown into ErrorData, without leaking stack traces. */
export function toErrorData(error: unknown): ErrorData {
  if (error instanceof MlsoError) return error.toData();
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'internal', message: `Unexpected problem: ${message}` };
}
