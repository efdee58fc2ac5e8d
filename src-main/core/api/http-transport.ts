// Plain GETs over axios with redirects followed here rather than inside axios, so that every hop
// takes and offers cookies through the fenced session jar, a relative Location resolves against the
// hop that sent it, a Location that is not a web address is refused before anything follows it, and a
// download is not led off the API's server unless the user allowed it (download-fence.ts).
// Catalogue answers are read here too, held to an overall deadline and a size cap.
import axios, { AxiosError, type AxiosInstance } from 'axios';
import type { Readable } from 'node:stream';
import {
  AnswerDeadlineError,
  AnswerTooLargeError,
  CancelledError,
  InvalidResponseError,
  MlsoError,
  NetworkError,
  ProxyError,
  RedirectError,
  type AnswerSubject,
} from '../errors';
import { isWebAddress } from './api-server';
import { proxyLabel } from '../network/proxy-setting';
import type { ProxyRoutes } from '../network/proxy-routes';
import { ACCEPTED_ENCODINGS, boundedBody } from './bounded-body';
import { refusalOfRedirect, type DownloadFence } from './download-fence';
import { RequestWatch } from './request-watch';
import type { SessionCookieJar } from './session-cookie-jar';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;

export interface HttpResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
  /** The address that finally answered, after redirects. */
  url: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Milliseconds of silence allowed: before the headers, and between two pieces of a catalogue answer. */
  timeoutMs?: number;
}

/** A download may ask for the rest of a body it has the beginning of. */
export interface DownloadRequestOptions extends RequestOptions {
  /**
   * Asks for the body from byte `from` on (`Range`), only if it is still the version `validator` names
   * (`If-Range`: its strong ETag or Last-Modified); a server that has another version sends it whole (200).
   */
  rest?: { from: number; validator: string };
}

export interface AnswerOptions extends RequestOptions {
  /** How the answer is named in messages, and what to advise when it breaks a limit. */
  subject: AnswerSubject;
  /** A lower size cap than the transport's, for an answer that is always small. */
  maxBytes?: number;
}

export interface TransportLimits {
  /** The default of RequestOptions.timeoutMs. */
  timeoutMs: number;
  /** Milliseconds a whole catalogue answer may take, redirects and body included. */
  answerDeadlineMs: number;
  /** Bytes a catalogue answer may hold, as sent and once decoded. */
  maxAnswerBytes: number;
}

/** Told of every request: its address and, when it goes through one, the proxy's label (never its credentials). */
export type RequestLogger = (url: string, proxy?: string) => void;

/** What a reader of a catalogue answer may do besides reading it. */
export interface AnswerReader {
  /**
   * Waits for work of the reader's own (handing entries to a slow consumer): the answer's clocks stop
   * meanwhile, and a failure of that work reaches the caller as it is.
   */
  waitFor<T>(work: Promise<T>): Promise<T>;
}

/** Carries a consumer's failure through the transport's own error handling untouched. */
class ConsumerFailure extends Error {
  constructor(readonly failure: unknown) {
    super('the consumer of the answer failed');
  }
}

/** The consumer's work, with the clocks paused; a failure of its own is marked as the consumer's, a cancel is the request's. */
async function consumerWork<T>(watch: RequestWatch, work: Promise<T>): Promise<T> {
  try {
    return await watch.pausedDuring(work);
  } catch (error) {
    throw watch.stoppedBy !== undefined ? error : new ConsumerFailure(error);
  }
}

type RequestKind = 'answer' | 'download';

export class HttpTransport {
  private readonly axios: AxiosInstance;

  constructor(
    private readonly cookies: SessionCookieJar,
    userAgent: string,
    private readonly limits: TransportLimits,
    private readonly fence: DownloadFence,
    private readonly routes: ProxyRoutes,
    private readonly log?: RequestLogger,
  ) {
    this.axios = axios.create({
      maxRedirects: 0,
      // The proxy is chosen by ProxyRoutes, one rule for http and https; axios's own reading of HTTP_PROXY would
      // send https to a proxy without the CONNECT tunnel proxies expect.
      proxy: false,
      validateStatus: () => true,
      headers: { 'User-Agent': userAgent },
    });
  }

  /**
   * GET of a catalogue (JSON) endpoint. `read` gets the answer with its body as decoded chunks; the
   * deadline, the idle timeout and the size cap hold until `read` is done, and the connection is closed
   * if `read` stops early.
   */
  async readAnswer<T>(
    url: string,
    options: AnswerOptions,
    read: (response: HttpResponse<AsyncIterable<Buffer>>, reader: AnswerReader) => Promise<T>,
  ): Promise<T> {
    const watch = new RequestWatch({ idleMs: options.timeoutMs ?? this.limits.timeoutMs, deadlineMs: this.limits.answerDeadlineMs, signal: options.signal });
    let current = url;
    let raw: Readable | undefined;
    const maxBytes = Math.min(options.maxBytes ?? Infinity, this.limits.maxAnswerBytes);
    try {
      const response = await this.follow(url, 'answer', watch, (hop) => (current = hop));
      raw = response.data;
      const body = boundedBody(raw, response.headers['content-encoding'], response.url, {
        maxBytes,
        tooLarge: () => new AnswerTooLargeError(response.url, maxBytes, options.subject),
        heard: () => watch.heard(),
      });
      const stop = (): void => void body.chunks.destroy();
      watch.signal.addEventListener('abort', stop, { once: true });
      try {
        return await read({ ...response, data: body.chunks }, { waitFor: (work) => consumerWork(watch, work) });
      } catch (error) {
        throw body.isDecodingFailure(error) ? new InvalidResponseError(response.url, 'the compressed answer is damaged') : error;
      } finally {
        watch.signal.removeEventListener('abort', stop);
        body.chunks.destroy();
      }
    } catch (error) {
      throw this.explain(error, watch, current, options.subject);
    } finally {
      watch.finish();
      raw?.destroy();
    }
  }

  /** GET of a catalogue endpoint with the body as text (small answers and error bodies). */
  getText(url: string, options: AnswerOptions): Promise<HttpResponse<string>> {
    return this.readAnswer(url, options, async (response) => ({ ...response, data: await textOf(response.data) }));
  }

  /** GET with the body as a raw byte stream: no content decoding, the caller inspects the bytes itself. */
  async getStream(url: string, options: DownloadRequestOptions = {}): Promise<HttpResponse<Readable>> {
    // Only the wait for the headers is timed here; the body's pace is the download engine's business.
    const watch = new RequestWatch({ idleMs: options.timeoutMs ?? this.limits.timeoutMs, signal: options.signal });
    let current = url;
    try {
      const rest: Record<string, string> = options.rest ? { Range: `bytes=${options.rest.from}-`, 'If-Range': options.rest.validator } : {};
      return await this.follow(url, 'download', watch, (hop) => (current = hop), rest);
    } catch (error) {
      throw this.explain(error, watch, current);
    } finally {
      watch.finish();
    }
  }

  private async follow(
    startUrl: string,
    kind: RequestKind,
    watch: RequestWatch,
    onHop: (url: string) => void,
    extraHeaders: Record<string, string> = {},
  ): Promise<HttpResponse<Readable>> {
    let url = startUrl;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      onHop(url);
      const response = await this.once(url, kind, watch.signal, extraHeaders);
      watch.heard();
      const location = response.headers['location'];
      if (!REDIRECT_STATUSES.has(response.status) || typeof location !== 'string') return response;
      response.data.destroy();
      const next = nextHop(location, url);
      const refusal = kind === 'download' ? refusalOfRedirect(this.fence, url, next) : undefined;
      if (refusal) throw refusal;
      url = next.href;
    }
    // The client's own limit, not a server status: say what happened rather than "508".
    throw RedirectError.tooMany(startUrl, MAX_REDIRECTS);
  }

  private async once(url: string, kind: RequestKind, signal: AbortSignal, extraHeaders: Record<string, string>): Promise<HttpResponse<Readable>> {
    const headers: Record<string, string> =
      kind === 'answer' ? { Accept: 'application/json', 'Accept-Encoding': ACCEPTED_ENCODINGS } : { Accept: '*/*', ...extraHeaders };
    const cookie = await this.cookies.headerFor(url);
    if (cookie) headers['Cookie'] = cookie;
    const route = await this.routes.routeFor(url);
    this.log?.(url, route.proxy ? proxyLabel(route.proxy) : undefined);
    const response = await this.axios
      .get(url, {
        headers,
        signal,
        responseType: 'stream',
        // Raw bytes either way: catalogue answers are decoded (and counted) by boundedBody, downloads by the download code.
        decompress: false,
        ...(route.agent ? { httpAgent: route.agent, httpsAgent: route.agent } : {}),
      })
      .catch((error: unknown) => {
        throw route.proxy ? proxyFailure(error, route.proxy) : error;
      });
    const data = response.data as Readable;
    if (route.proxy && response.status === 407) {
      data.destroy();
      throw new ProxyError('sign-in', proxyLabel(route.proxy));
    }
    // An https answer that did not come over TLS is the proxy's own refusal of the tunnel (https-proxy-agent hands it
    // on as the answer), not the server's.
    if (route.proxy && url.startsWith('https:') && !isEncrypted(response.request)) {
      data.destroy();
      throw new ProxyError('refused', proxyLabel(route.proxy), `${new URL(url).host} (${response.status})`);
    }
    try {
      await this.cookies.storeFrom(response.headers['set-cookie'], url);
    } catch (error) {
      data.destroy();
      throw error;
    }
    return { status: response.status, headers: response.headers as Record<string, string | string[] | undefined>, data, url };
  }

  /** The failure to report: a clock that ran out or the caller's cancel first, then the failure itself. */
  private explain(error: unknown, watch: RequestWatch, url: string, subject?: AnswerSubject): unknown {
    // The consumer's own failure (its output gone, say) is its own, not the network's.
    if (error instanceof ConsumerFailure) return error.failure;
    switch (watch.stoppedBy) {
      case 'cancelled':
        return new CancelledError('The request');
      case 'idle':
        return new NetworkError('timeout', url);
      case 'deadline':
        if (subject) return new AnswerDeadlineError(url, this.limits.answerDeadlineMs, subject);
        return new NetworkError('timeout', url);
      default:
        return error instanceof MlsoError ? error : toNetworkError(error, url);
    }
  }
}

/** The address a redirect points to; only http and https are followed (axios would refuse file: as "cannot reach null"). */
function nextHop(location: string, from: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw RedirectError.notWeb(from, location);
  }
  if (!isWebAddress(next)) throw RedirectError.notWeb(from, location);
  return next;
}

/** A whole (bounded) answer as text; with `limit`, only its beginning (an error body, say), and the rest is not read. */
export async function textOf(chunks: AsyncIterable<Buffer>, limit = Infinity): Promise<string> {
  const pieces: Buffer[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    pieces.push(chunk);
    length += chunk.length;
    if (length >= limit) break;
  }
  // A byte-order mark is no part of the JSON (axios dropped it too when it decoded text for us).
  return Buffer.concat(pieces)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}

/** Whether the request's answer came over TLS (axios's request is Node's ClientRequest). */
function isEncrypted(request: unknown): boolean {
  return (request as { socket?: { encrypted?: boolean } } | undefined)?.socket?.encrypted === true;
}

/** Failures to connect at all are the proxy's: through a proxy, the client connects to nothing else. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function proxyFailure(error: unknown, proxy: URL): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && CONNECT_FAILURES.has(code) ? new ProxyError('unreachable', proxyLabel(proxy), code) : error;
}

function toNetworkError(error: unknown, url: string): NetworkError {
  const code = error instanceof AxiosError ? error.code : (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === AxiosError.ETIMEDOUT) return new NetworkError('timeout', url);
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') return new NetworkError('reset', url);
  const message = error instanceof Error ? error.message : String(error);
  return new NetworkError('unreachable', url, code ?? message);
}
