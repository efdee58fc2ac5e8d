// Plain GETs over axios with redirects followed here rather than inside axios, so that every hop
// takes and offers cookies through the fenced session jar, and a relative Location resolves against
// the hop that sent it.
import axios, { AxiosError, type AxiosInstance } from 'axios';
import type { Readable } from 'node:stream';
import { CancelledError, NetworkError, ServerError } from '../errors';
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
  /** Milliseconds to wait for the answer (the whole body for text, the headers for streams). */
  timeoutMs?: number;
}

export type RequestLogger = (url: string) => void;

export class HttpTransport {
  private readonly axios: AxiosInstance;

  constructor(
    private readonly cookies: SessionCookieJar,
    userAgent: string,
    private readonly defaultTimeoutMs: number,
    private readonly log?: RequestLogger,
  ) {
    this.axios = axios.create({
      maxRedirects: 0,
      validateStatus: () => true,
      headers: { 'User-Agent': userAgent },
    });
  }

  /** GET with the body as text (JSON endpoints); decoding gzip content-encoding is left to axios. */
  getText(url: string, options: RequestOptions = {}): Promise<HttpResponse<string>> {
    return this.get(url, 'text', options);
  }

  /** GET with the body as a raw byte stream: no content decoding, the caller inspects the bytes itself. */
  getStream(url: string, options: RequestOptions = {}): Promise<HttpResponse<Readable>> {
    return this.get(url, 'stream', options);
  }

  private async get<T extends string | Readable>(
    startUrl: string,
    kind: 'text' | 'stream',
    options: RequestOptions,
  ): Promise<HttpResponse<T>> {
    let url = startUrl;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const response = await this.once<T>(url, kind, options);
      const location = response.headers['location'];
      if (REDIRECT_STATUSES.has(response.status) && typeof location === 'string') {
        if (kind === 'stream') (response.data as Readable).destroy();
        url = new URL(location, url).href;
        continue;
      }
      return response;
    }
    throw new ServerError(508, `more than ${MAX_REDIRECTS} redirects`, startUrl);
  }

  private async once<T extends string | Readable>(url: string, kind: 'text' | 'stream', options: RequestOptions): Promise<HttpResponse<T>> {
    this.log?.(url);
    const headers: Record<string, string> = { Accept: kind === 'text' ? 'application/json' : '*/*' };
    const cookie = await this.cookies.headerFor(url);
    if (cookie) headers['Cookie'] = cookie;
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;

    // Streams get a timer of their own for the wait until headers; axios's timeout would keep
    // watching the socket while the body flows, which is the download engine's business.
    const headerWait = new AbortController();
    const signals = [headerWait.signal, ...(options.signal ? [options.signal] : [])];
    const timer = kind === 'stream' && timeoutMs > 0 ? setTimeout(() => headerWait.abort(), timeoutMs) : undefined;
    try {
      const response = await this.axios.get(url, {
        headers,
        signal: AbortSignal.any(signals),
        timeout: kind === 'text' ? timeoutMs : 0,
        responseType: kind,
        // Text answers: let axios undo Content-Encoding, but never parse JSON for us (an HTML error
        // page must reach the caller as text). Streams: raw bytes, decoded by the download code.
        decompress: kind === 'text',
        transformResponse: (data: unknown) => data,
      });
      await this.cookies.storeFrom(response.headers['set-cookie'], url);
      return {
        status: response.status,
        headers: response.headers as Record<string, string | string[] | undefined>,
        data: response.data as T,
        url,
      };
    } catch (error) {
      if (options.signal?.aborted) throw new CancelledError('The request');
      if (headerWait.signal.aborted) throw new NetworkError('timeout', url);
      throw toNetworkError(error, url);
    } finally {
      clearTimeout(timer);
    }
  }
}

export function toNetworkError(error: unknown, url: string): NetworkError {
  const code = error instanceof AxiosError ? error.code : (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === AxiosError.ETIMEDOUT) return new NetworkError('timeout', url);
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') return new NetworkError('reset', url);
  const message = error instanceof Error ? error.message : String(error);
  return new NetworkError('unreachable', url, code ?? message);
}
