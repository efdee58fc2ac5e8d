// The client of the MLSO data API: the eight endpoints, validated answers, typed failures.
// Plain Node (no electron): the command line, the desktop app and web mode all use this one class.
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import {
  aboutSchema,
  instrumentIdsSchema,
  instrumentSchema,
  messageSchema,
  productListSchema,
  productMetadataSchema,
  type About,
  type FileEntry,
  type FileListing,
  type Instrument,
  type InstrumentSummary,
  type ProductList,
  type ProductMetadata,
} from '../../../src-shared/api/schemas';
import { checkFilters, type FileFilters, type FilterQuery } from '../../../src-shared/filters/filter-rules';
import { DEMO_EMAIL_HEADER } from '../../../src-shared/api/service-facts';
import { AnswerTooLargeError, InvalidInputError, ServerError, UnknownUserError, type AnswerSubject, type MlsoError } from '../errors';
import { ApiServer } from './api-server';
import { normaliseSettings, type ClientSettings } from './client-settings';
import { checkDownloadAddress, type DownloadFence } from './download-fence';
import { FileListingParser } from './file-listing-parser';
import { inWindow, listingWindows, restOf, type ListingWindow } from './listing-windows';
import {
  HttpTransport,
  textOf,
  type AnswerReader,
  type DownloadRequestOptions,
  type HttpResponse,
  type RequestLogger,
  type RequestOptions,
} from './http-transport';
import { parseJsonAnswer } from './json-answer';
import { SessionCookieJar } from './session-cookie-jar';
import { ProxyRoutes } from '../network/proxy-routes';
import type { SystemProxyResolver } from '../network/system-proxy';

const USER_AGENT = 'mlso-downloader/0.1 (+https://github.com/mlso-downloader)';

/** What to tell the user when a file listing breaks a limit: each front end names its own way to raise it. */
export type ListingAdvice = Pick<AnswerSubject, 'tooLarge' | 'tooSlow'>;

const DEFAULT_LISTING_ADVICE: ListingAdvice = {
  tooLarge: 'narrow the search (fewer dates, or one file per period) or raise the listing size limit',
  tooSlow: 'try again later, narrow the search (fewer dates, or one file per period) or raise the listing time limit',
};

/** The small answers only outgrow the limits when the address points at something that is not the API. */
const OTHER_ANSWERS: AnswerSubject = { name: 'answer', tooLarge: 'check the server address', tooSlow: 'try again later, or check the server address' };
/** The most a small answer (about, instruments, products, a product, a sign-in) may hold: real ones take a few KB. */
const SMALL_ANSWER_BYTES = 1024 * 1024;
/** The most of an error body that is read for its message (the rest is left unread). */
const ERROR_BODY_BYTES = 64 * 1024;

export interface ClientOptions {
  /** Called with every URL requested (the command line's --verbose). */
  log?: RequestLogger;
  /** How the front end says to narrow a search or raise a listing limit. */
  listingAdvice?: ListingAdvice;
  /** How the front end lets downloads from other servers in, as a clause: "add --allow-other-hosts". */
  otherServersAdvice?: string;
  /** The system's proxy (the desktop app's session), for the proxy setting "system". */
  systemProxy?: SystemProxyResolver;
}

const DEFAULT_OTHER_SERVERS_ADVICE = 'allow downloads from other servers in the settings';

export interface FilesRequest {
  instrument: string;
  product: string;
  filters?: FileFilters;
}

/** Filters of a listing's span, which the service's products accept (their metadata lists them): see streamFiles. */
const SPAN_FILTERS: ReadonlySet<string> = new Set(['start-date', 'end-date', 'cr', 'every']);

export class MlsoClient {
  private current: ClientSettings;
  private readonly cookies: SessionCookieJar;
  private transport: HttpTransport;
  /** Where downloads may come from: remade with the transport, from the same settings. */
  private fence: DownloadFence;
  /** Beginnings of addresses (SERVER_PART) the fence lets through: remade with it. */
  private fineServers = new Set<string>();
  /** The server of fineServers last asked about: a listing's addresses nearly all begin with it. */
  private lastFineServer: string | undefined;
  private readonly metadataCache = new Map<string, Promise<ProductMetadata>>();

  constructor(
    settings: Partial<ClientSettings> = {},
    private readonly options: ClientOptions = {},
  ) {
    this.current = normaliseSettings(settings);
    this.cookies = new SessionCookieJar(this.current.baseUrl);
    this.fence = this.newFence();
    this.transport = this.newTransport();
  }

  get settings(): ClientSettings {
    return { ...this.current };
  }

  /** Changes settings; a different server forgets the session and cached metadata. */
  configure(settings: Partial<ClientSettings>): void {
    this.current = normaliseSettings({ ...this.current, ...settings });
    this.cookies.rescope(this.current.baseUrl);
    this.fence = this.newFence();
    this.fineServers = new Set();
    this.lastFineServer = undefined;
    this.transport = this.newTransport();
    this.metadataCache.clear();
  }

  private newTransport(): HttpTransport {
    const limits = { timeoutMs: this.current.timeoutMs, answerDeadlineMs: this.current.listingDeadlineMs, maxAnswerBytes: this.current.maxListingBytes };
    const routes = new ProxyRoutes(this.current.proxy, this.options.systemProxy);
    return new HttpTransport(this.cookies, USER_AGENT, limits, this.fence, routes, this.options.log);
  }

  private newFence(): DownloadFence {
    return {
      server: new ApiServer(this.current.baseUrl),
      allowOtherHosts: this.current.allowOtherHosts,
      advice: this.options.otherServersAdvice ?? DEFAULT_OTHER_SERVERS_ADVICE,
    };
  }

  /** The address of an endpoint; path segments are percent-encoded (product ids such as `nrgf+diff`). */
  endpoint(...segments: string[]): string {
    const path = segments.map((segment) => encodeURIComponent(segment)).join('/');
    return `${this.current.baseUrl}/${encodeURIComponent(this.current.apiVersion)}/${path}`;
  }

  /**
   * The address of an instrument, its products, a product or its files (the spec's endpoints 3 to 6), with the
   * trailing slash that is their canonical form, as the official Python client asks for them: without it the
   * service answers with a redirect first, a round trip more before every listing. Redirects are still followed.
   */
  private catalogueEndpoint(...segments: string[]): string {
    return `${this.endpoint(...segments)}/`;
  }

  async about(options: RequestOptions = {}): Promise<About> {
    return this.getJson(this.endpoint('about'), aboutSchema, options);
  }

  async instrumentIds(options: RequestOptions = {}): Promise<string[]> {
    return this.getJson(this.endpoint('instruments'), instrumentIdsSchema, options);
  }

  async instrument(id: string, options: RequestOptions = {}): Promise<Instrument> {
    return this.getJson(this.catalogueEndpoint('instruments', requireId(id, 'instrument')), instrumentSchema, options);
  }

  /** Every instrument's details, sorted by id (the service lists them unsorted). */
  async instruments(options: RequestOptions = {}): Promise<InstrumentSummary[]> {
    const ids = [...(await this.instrumentIds(options))].sort();
    const details = await Promise.all(ids.map((id) => this.instrument(id, options)));
    return ids.map((id, index) => {
      const instrument = details[index]!;
      return { id, ...instrument, 'start-date': instrument.dates['start-date'], 'end-date': instrument.dates['end-date'] };
    });
  }

  async products(instrument: string, options: RequestOptions = {}): Promise<ProductList> {
    return this.getJson(this.catalogueEndpoint('instruments', requireId(instrument, 'instrument'), 'products'), productListSchema, options);
  }

  /** A product's metadata, cached per instrument and product for the life of the settings. */
  productMetadata(instrument: string, product: string, options: RequestOptions = {}): Promise<ProductMetadata> {
    const url = this.catalogueEndpoint('instruments', requireId(instrument, 'instrument'), 'products', requireId(product, 'product'));
    let pending = this.metadataCache.get(url);
    if (!pending) {
      pending = this.getJson(url, productMetadataSchema, options);
      this.metadataCache.set(url, pending);
      pending.catch(() => this.metadataCache.delete(url));
    }
    return pending;
  }

  /**
   * Checks the filters against the shared rules and, when filters are given, against the product's own
   * list of accepted filters; throws InvalidInputError before any listing request when one is wrong.
   */
  async checkFilesRequest(request: FilesRequest, options: RequestOptions = {}): Promise<FilterQuery> {
    const local = checkFilters(request.filters ?? {});
    if (!local.ok) throw new InvalidInputError(local.problems);
    if (Object.keys(local.query).length === 0) return local.query;
    const metadata = await this.productMetadata(request.instrument, request.product, options);
    const checked = checkFilters(request.filters ?? {}, metadata.filters, `${request.instrument} ${request.product}`);
    if (!checked.ok) throw new InvalidInputError(checked.problems);
    return checked.query;
  }

  /** The whole listing, parsed as it arrives: memory holds the checked entries, never the whole text as well. */
  async files(request: FilesRequest, options: RequestOptions = {}): Promise<FileListing> {
    const query = await this.checkFilesRequest(request, options);
    return this.readListing(request, query, options, async (response) => {
      const parser = new FileListingParser(response.url);
      for await (const chunk of response.data) parser.write(chunk);
      return parser.end();
    });
  }

  /**
   * Streams a listing: `onEntries` gets each batch of checked entries as the answer arrives (a batch per
   * chunk received), and the next chunk is read only once the promise it returns settles, so a slow
   * consumer (a pipe, the ledger) holds the reading back instead of piling entries up in memory.
   * Resolves with the rest of the answer (`files` empty) and the number of entries handed over.
   * A query over more than a month is asked for in windows (listing-windows.ts), one answer after another, and a
   * window whose answer grows past a share of the listing size limit is split further: the entries, their order and
   * the rest of the answer are those of one listing, but no answer has to hold the whole span.
   */
  async streamFiles(request: FilesRequest, onEntries: EntriesConsumer, options: RequestOptions = {}): Promise<{ listing: FileListing; count: number }> {
    const local = checkFilters(request.filters ?? {});
    const onlySpan = local.ok && Object.keys(local.query).length > 0 && Object.keys(local.query).every((filter) => SPAN_FILTERS.has(filter));
    if (!onlySpan) return this.streamChecked(request, await this.checkFilesRequest(request, options), onEntries, options);
    // Filters of the span alone (the dates, every, cr): the listing is asked for while the product's metadata, which
    // the filters are checked against, is on its way, rather than one round trip after it. Its entries are handed
    // over only once the filters are accepted (the check changes no value, so the query is the same); a refusal stops
    // the listing and is what the caller sees, as if the listing had never been asked for.
    const checked = this.checkFilesRequest(request, options);
    const refused = new AbortController();
    checked.catch(() => refused.abort());
    const signal = options.signal ? AbortSignal.any([options.signal, refused.signal]) : refused.signal;
    const whenChecked = async (entries: FileEntry[]): Promise<void> => {
      await checked;
      await onEntries(entries);
    };
    try {
      const result = await this.streamChecked(request, local.query, whenChecked, { ...options, signal });
      await checked;
      return result;
    } catch (error) {
      // The check's failure is the cause (the listing was stopped because of it, or failed on the same unknown product).
      await checked;
      throw error;
    }
  }

  private streamChecked(
    request: FilesRequest,
    query: FilterQuery,
    onEntries: EntriesConsumer,
    options: RequestOptions,
  ): Promise<{ listing: FileListing; count: number }> {
    const windows = listingWindows(query);
    if (!windows) return this.streamAnswer(request, query, onEntries, options);
    return this.streamWindows(request, windows, Date.now(), onEntries, options);
  }

  /**
   * Streams one window of a query that checkFilesRequest has checked: a campaign's window of fixed bounds
   * (fixedWindows), split further when its answer grows large as streamFiles splits its own. Resolves with the
   * number of entries handed over.
   */
  async streamWindow(request: FilesRequest, window: ListingWindow, onEntries: EntriesConsumer, options: RequestOptions = {}): Promise<number> {
    return (await this.streamWindows(request, [window], Date.now(), onEntries, options)).count;
  }

  private async streamWindows(
    request: FilesRequest,
    windows: ListingWindow[],
    nowMs: number,
    onEntries: EntriesConsumer,
    options: RequestOptions,
  ): Promise<{ listing: FileListing; count: number }> {
    const firstWindow = windows[0];
    let pending = [...windows];
    let budget = Math.max(MIN_WINDOW_ENTRIES, Math.floor(this.current.maxListingBytes / BYTES_PER_ENTRY_BUDGET));
    let answers = 0;
    let count = 0;
    let totalBytes = 0;
    let startEcho: FileListing['start-date'] | undefined;
    let listing: FileListing | undefined;
    // The last entry handed over, and how many were handed over at its date-obs: a window that goes on from there
    // gets those again (its bound includes them) and skips them.
    let last: { dateObs: string; count: number } | undefined;
    while (pending.length > 0) {
      const window = pending.shift()!;
      let skip = last ? { ...last } : undefined;
      let inAnswer = 0;
      const take = async (entries: FileEntry[]): Promise<void> => {
        const kept: FileEntry[] = [];
        let full = false;
        for (const entry of entries) {
          const dateObs = entry['date-obs'];
          if (!inWindow(window, dateObs)) continue;
          if (skip?.dateObs === dateObs && skip.count > 0) {
            skip.count -= 1;
            continue;
          }
          skip = undefined;
          if (inAnswer >= budget) {
            full = true;
            break;
          }
          kept.push(entry);
          inAnswer += 1;
          totalBytes += entry.filesize;
          last = last?.dateObs === dateObs ? { dateObs, count: last.count + 1 } : { dateObs, count: 1 };
        }
        count += kept.length;
        if (kept.length > 0) await onEntries(kept);
        if (full) throw new WindowFull();
      };
      answers += 1;
      try {
        const answer = await this.streamAnswer(request, window.query, take, options);
        if (window === firstWindow) startEcho = answer.listing['start-date'];
        listing = answer.listing;
      } catch (error) {
        if (error instanceof AnswerTooLargeError) {
          // Entries larger than reckoned: later answers stop sooner. A limit that holds too few entries for windows
          // to make headway (thousands of requests) is the limit's own failure.
          if (inAnswer < MIN_WINDOW_ENTRIES) throw error;
          budget = Math.floor(inAnswer * 0.8);
        } else if (!(error instanceof WindowFull)) throw error;
        pending = [...restOf(window, last!.dateObs, nowMs), ...pending];
      }
    }
    const whole = listing!;
    // One answer held it all: its own total stands, as for any listing.
    if (answers === 1) return { listing: whole, count };
    // The first answer was cut short: the service echoes the start-date as sent, or the instrument's first date.
    startEcho ??= firstWindow!.query['start-date'] ?? (await this.instrument(request.instrument, options)).dates['start-date'];
    return { listing: { ...whole, 'start-date': startEcho, total_filesize: totalBytes, files: [] }, count };
  }

  /** One answer of the files endpoint, streamed (see streamFiles). */
  private async streamAnswer(
    request: FilesRequest,
    query: FilterQuery,
    onEntries: EntriesConsumer,
    options: RequestOptions,
  ): Promise<{ listing: FileListing; count: number }> {
    return this.readListing(request, query, options, async (response, reader) => {
      const parser = new FileListingParser(response.url);
      let count = 0;
      // The answer's clocks stop while the consumer takes its time: a paused pipe is not a slow server.
      const deliver = (batch: FileEntry[]): Promise<void> => reader.waitFor(Promise.resolve().then(() => onEntries(batch)));
      const handOver = async (): Promise<void> => {
        // The first entries go at once (downloads can start); later ones gather into batches of a thousand or so,
        // since each batch has a fixed cost for the consumer (a ledger transaction, a write to the pipe).
        if (parser.pendingEntries === 0 || (count > 0 && parser.pendingEntries < LISTING_BATCH_ENTRIES)) return;
        const batch = parser.takeEntries();
        count += batch.length;
        await deliver(batch);
      };
      for await (const chunk of response.data) {
        parser.write(chunk);
        await handOver();
      }
      const listing = parser.end();
      // end() checked the whole answer: the last entries go out only once they are known to belong to a listing.
      const last = listing.files;
      listing.files = [];
      if (last.length > 0) {
        count += last.length;
        await deliver(last);
      }
      return { listing, count };
    });
  }

  private async readListing<T>(
    request: FilesRequest,
    query: FilterQuery,
    options: RequestOptions,
    read: (response: HttpResponse<AsyncIterable<Buffer>>, reader: AnswerReader) => Promise<T>,
  ): Promise<T> {
    const url = new URL(
      this.catalogueEndpoint('instruments', requireId(request.instrument, 'instrument'), 'products', requireId(request.product, 'product'), 'files'),
    );
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    url.searchParams.set('client', this.current.clientName);
    const subject: AnswerSubject = { name: 'file listing', ...(this.options.listingAdvice ?? DEFAULT_LISTING_ADVICE) };
    return this.transport.readAnswer(url.href, { ...options, subject }, async (response, reader) => {
      if (!isOk(response.status)) throw statusError({ ...response, data: await textOf(response.data, ERROR_BODY_BYTES) });
      return read(response, reader);
    });
  }

  /** Signs in: on success the server's session cookie is kept in the jar and its message returned. */
  async authenticate(username: string, options: RequestOptions = {}): Promise<string> {
    const email = username.trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
      throw new InvalidInputError(`"${username}" is not an e-mail address: sign in with the e-mail you registered with the observatory.`);
    }
    const url = new URL(this.endpoint('authenticate'));
    url.searchParams.set('username', email);
    const response = await this.transport.getText(url.href, { ...options, subject: OTHER_ANSWERS, maxBytes: SMALL_ANSWER_BYTES });
    if (response.status === 404) {
      const message = serverMessage(response.data);
      throw new UnknownUserError(email, message ?? `username ${email} not found`, demoEmailOffered(response.headers));
    }
    if (!isOk(response.status)) throw statusError(response);
    return parseJsonAnswer(response.url, response.data, messageSchema).message;
  }

  async signOut(): Promise<void> {
    await this.cookies.clear();
  }

  /** The session cookie jar as text (null when there is no session), to be kept encrypted by the caller. */
  exportSession(): Promise<string | null> {
    return this.cookies.export();
  }

  /** Restores a session exported earlier for the same server; false when it does not apply. */
  importSession(serialized: string): Promise<boolean> {
    return this.cookies.import(serialized);
  }

  /** Expiry of the session cookie (ms since epoch); `null` when it has none, `undefined` when signed out. */
  sessionExpiry(): Promise<number | null | undefined> {
    return this.cookies.sessionExpiry(this.current.baseUrl);
  }

  /**
   * Why a listed download address would not be fetched (not a web address; on another server, unless other
   * servers are allowed), or undefined when it would: the enqueuer refuses such entries before queuing them.
   */
  downloadAddressRefusal(url: string): MlsoError | undefined {
    // The answer depends only on the scheme and the server, so a server once found fine is not asked about again
    // (parsing a million addresses takes seconds); refusals, whose reasons name the whole address, are asked each time.
    // An address beginning with the server last found fine has that server part (it ends at the first slash after
    // the scheme), so it needs no match at all, which a million-file sync asks for every file.
    if (this.lastFineServer !== undefined && url.startsWith(this.lastFineServer)) return undefined;
    const server = SERVER_PART.exec(url)?.[0];
    if (server !== undefined && this.fineServers.has(server)) {
      this.lastFineServer = server;
      return undefined;
    }
    const check = checkDownloadAddress(this.fence, url, this.current.baseUrl);
    if (check.ok && server !== undefined) {
      this.fineServers.add(server);
      this.lastFineServer = server;
    }
    return check.ok ? undefined : check.error;
  }

  /** Opens a download URL exactly as the listing gave it (a relative one resolves against the base URL). */
  async openDownload(url: string, options: DownloadRequestOptions = {}): Promise<HttpResponse<Readable>> {
    // Checked here too, not only when queued: a job queued while other servers were allowed may run after.
    const check = checkDownloadAddress(this.fence, url, this.current.baseUrl);
    if (!check.ok) throw check.error;
    return this.transport.getStream(check.url.href, options);
  }

  private async getJson<S extends z.ZodType>(url: string, schema: S, options: RequestOptions): Promise<z.infer<S>> {
    const response = await this.transport.getText(url, { ...options, subject: OTHER_ANSWERS, maxBytes: SMALL_ANSWER_BYTES });
    if (!isOk(response.status)) throw statusError(response);
    return parseJsonAnswer(response.url, response.data, schema);
  }
}

function requireId(value: string, what: 'instrument' | 'product'): string {
  const id = value.trim();
  if (id.length === 0) throw new InvalidInputError(`Choose an ${what}: the ${what} id must not be empty.`);
  return id;
}

/**
 * The scheme and server of an absolute web address, with the slash that starts its path: what the download fence
 * reads of it. No user part ("@"), no backslash (a slash to a web address), nothing before the scheme.
 */
const SERVER_PART = /^https?:\/\/[^/?#\\@]*\//i;

/** Entries per batch of a streamed listing after the first: about half a megabyte of checked entries. */
const LISTING_BATCH_ENTRIES = 1000;
/**
 * A window's answer stops at one entry per this many bytes of the listing size limit (a real entry takes 250 to
 * 450 bytes, so some 40% of the limit at most) and the rest of the window is asked for in halves.
 */
const BYTES_PER_ENTRY_BUDGET = 1000;
/** The fewest entries a window's answer may hold before it is split, however low the limit. */
const MIN_WINDOW_ENTRIES = 100;

/** Takes the entries of a streamed listing; the next are read once its promise settles. */
type EntriesConsumer = (entries: FileEntry[]) => void | Promise<void>;

/** Thrown by a window's consumer to stop an answer that reached its share of the limit (never leaves the client). */
class WindowFull extends Error {}

const isOk = (status: number): boolean => status >= 200 && status < 300;

/** The `message` of a JSON error body, if the body is one. */
/** The e-mail a demo server says it accepts, when it names one that looks like an address; nothing else is believed. */
export function demoEmailOffered(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers[DEMO_EMAIL_HEADER];
  return typeof value === 'string' && value.length <= 254 && /^[\x21-\x3f\x41-\x7e]+@[\x21-\x3f\x41-\x7e]+$/.test(value) ? value : undefined;
}

export function serverMessage(text: string): string | undefined {
  try {
    const parsed = messageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.message : undefined;
  } catch {
    return undefined;
  }
}

export function retryAfterSeconds(headers: Record<string, string | string[] | undefined>): number | undefined {
  const value = headers['retry-after'];
  if (typeof value !== 'string') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function statusError(response: HttpResponse<string>): ServerError {
  return new ServerError(response.status, serverMessage(response.data), response.url, retryAfterSeconds(response.headers));
}
