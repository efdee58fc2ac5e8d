// The one-file download primitive. The body streams through gzip detection and a check against its FITS
// headers into a hidden temporary file beside the target; only a body that ended cleanly and holds exactly
// what its headers declare is renamed to its real name. JSON or HTML answers are errors whatever their
// status, and are never written to disk. Where the server serves byte ranges, the body as sent is also kept
// (resume-file.ts, resume-file-writer.ts) until the file is done, so a transfer cut short resumes where it stopped.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, pipeline } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import { gunzipSync } from 'node:zlib';
import { checkSafeFilename } from '../../../src-shared/files/safe-filename';
import { displayName } from '../../../src-shared/format/display-text';
import type { DownloadRequestOptions, HttpResponse } from '../api/http-transport';
import type { RateLimit } from '../network/shared-rate-limit';
import { retryAfterSeconds, serverMessage } from '../api/mlso-client';
import { CancelledError, DiskFullError, DownloadError, MlsoError, NetworkError, ServerError, SessionError } from '../errors';
import { openFileSink, type FileSink, type OpenFileSink } from './file-sink';
import { fitsLayoutGuard } from './fits-layout-guard';
import { cannotWriteThere, inPlainWords, isNoRoom } from '../folder-errors';
import { startsWithFitsSignature } from './fits-signature';
import { keepErrorsForTheReader, peekStream, withoutGzipLayers } from './gzip-layers';
import { contentRangeOf, resumeFileNameFor, resumeValidator, type ResumePoint } from './resume-file';
import { ResumeFileWriter } from './resume-file-writer';
import { writtenMtimeOf } from './quick-check';
import { temporaryNameFor } from './temporary-files';

export type OpenDownload = (url: string, options: DownloadRequestOptions) => Promise<HttpResponse<Readable>>;

export interface DownloadTarget {
  /** The listing's `url`, used as given. */
  url: string;
  /** The listing's `filename`: must be a plain base name. */
  filename: string;
  /** Folder the file goes into (must exist). */
  folder: string;
  /** Name on disk when it differs from `filename` (a "keep both" copy); same rules. */
  localName?: string;
}

interface DownloadProgress {
  /** Bytes of the body as they came over the wire (compressed), the kept beginning of a resumed body included. */
  bytesReceived: number;
  /** Decompressed bytes written to the temporary file. */
  bytesWritten: number;
  /** Content-Length of the body, when the server sent one. */
  bodyLength?: number;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Milliseconds without a single byte before the download counts as failed (default 60 s). */
  stallTimeoutMs?: number;
  /** Milliseconds to wait for the response headers (default: the stall timeout). */
  headerTimeoutMs?: number;
  /** Called as the body's bytes arrive and as they are written, with the running totals (the same object each time). */
  onProgress?: (progress: Readonly<DownloadProgress>) => void;
  /** Called with the temporary file's name before it is created (the engine records it for crash clean-up). */
  onTemporaryFile?: (name: string) => void;
  /**
   * Called once the temporary file is complete, checked and flushed, just before it is renamed into place:
   * the engine records the hash here, so after a crash it can tell a finished file from an interrupted one.
   */
  onVerified?: (verified: { temporaryName: string; sha256: string; bytesWritten: number }) => void;
  /**
   * Called once the whole body has arrived and the connection is no longer needed; flushing and renaming
   * follow. The engine hands the connection slot to the next file here.
   */
  onBodyReceived?: () => void;
  openSink?: OpenFileSink;
  /** The kept beginning of this file's body from an earlier attempt: only the rest is asked for. */
  resumeFrom?: ResumePoint;
  /**
   * Called when what is kept of the body changes: a new point before its file is created (the first bytes of a
   * body the server can resume are written), null when nothing is kept (the server serves no byte ranges or names
   * no version, or the kept bytes were dropped). The engine records it, so a later attempt, or run, asks only for
   * the rest. Without it nothing is kept.
   */
  onResumePoint?: (point: ResumePoint | null) => void;
  /** Bytes of the body held in memory before any is written to the resume file (default: resume-file-writer.ts). */
  heldBodyBytes?: number;
  /** The run's speed cap, shared with its other downloads: each read of the body waits for its share. */
  rateLimit?: RateLimit;
}

export interface DownloadResult {
  path: string;
  bytesReceived: number;
  bytesWritten: number;
  /** SHA-256 of the decompressed file as written, hex. */
  sha256: string;
  /** Bytes of the body an earlier attempt had received, which this one did not ask for again. */
  resumedBytes: number;
  /** The file's modification time once in place (absent when it could not be read). */
  mtimeMs?: number;
}

const ERROR_BODY_LIMIT = 64 * 1024;
const DEFAULT_STALL_MS = 60_000;
// Room for a few socket reads between stages, so a busy moment downstream does not pause the socket
// (a paused socket fills the TCP window and the link sits idle).
const STREAM_BUFFER_BYTES = 1024 * 1024;

export async function downloadFile(openDownload: OpenDownload, target: DownloadTarget, options: DownloadOptions = {}): Promise<DownloadResult> {
  const localName = target.localName ?? target.filename;
  for (const name of new Set([target.filename, localName])) {
    const check = checkSafeFilename(name);
    if (!check.ok) throw new DownloadError('unsafe-name', `Refused to save "${displayName(name)}": ${check.reason}. Only plain file names are written.`);
  }
  if (options.signal?.aborted) throw new CancelledError('The download');

  const kept = await keptBeginning(target.folder, options);
  // Waiting for the headers is waiting for bytes too: a server that accepts and then says nothing is stalled.
  const open = (from?: KeptBeginning): Promise<HttpResponse<Readable>> =>
    openDownload(target.url, {
      signal: options.signal,
      timeoutMs: options.headerTimeoutMs ?? options.stallTimeoutMs ?? DEFAULT_STALL_MS,
      ...(from ? { rest: { from: from.bytes, validator: from.point.validator } } : {}),
    });
  let response = await open(kept);
  let resumed = kept;
  if (resumed && response.status === 416) {
    // Nothing left past what is kept: the kept bytes are not what the server has now. Start again.
    response.data.destroy();
    resumed = await dropKept(target.folder, resumed, options);
    response = await open();
  }
  const body = response.data;
  if (response.status < 200 || response.status >= 300) {
    const text = await readLimited(body, ERROR_BODY_LIMIT).catch(() => '');
    const message = serverMessage(text);
    if (response.status === 401 || response.status === 403) throw new SessionError(response.status, message);
    throw new ServerError(response.status, message, response.url, retryAfterSeconds(response.headers));
  }
  const range = response.status === 206 ? contentRangeOf(response.headers) : undefined;
  if (response.status === 206 && (!resumed || range?.first !== resumed.bytes)) {
    body.destroy();
    await dropKept(target.folder, resumed, options);
    throw new NetworkError('reset', response.url, 'the server sent another part of the file than the one asked for');
  }
  // A whole answer to a request for the rest: the file changed, or the server ignored the range. Start again.
  if (resumed && response.status !== 206) resumed = await dropKept(target.folder, resumed, options);
  const lengthHeader = response.headers['content-length'];
  const sentLength = typeof lengthHeader === 'string' && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  const bodyLength = resumed ? (range?.length ?? (sentLength !== undefined ? resumed.bytes + sentLength : undefined)) : sentLength;
  // Kept only for a caller that records where (onResumePoint): an unrecorded resume file would be litter. A new point
  // is recorded when its file is created, which a body that arrives whole never needs.
  const keeping = resumed?.point ?? (options.onResumePoint !== undefined ? newResumePoint(localName, response.headers) : undefined);
  if (!keeping) options.onResumePoint?.(null);
  const progress: DownloadProgress = { bytesReceived: resumed?.bytes ?? 0, bytesWritten: 0, ...(bodyLength !== undefined ? { bodyLength } : {}) };

  const watchdog = new StallWatchdog(body, options.stallTimeoutMs ?? DEFAULT_STALL_MS);
  const onAbort = (): void => {
    body.destroy(new CancelledError('The download'));
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const keeper = keeping
    ? new ResumeFileWriter({
        path: path.join(target.folder, keeping.name),
        keptBefore: resumed?.bytes ?? 0,
        beforeCreate: () => options.onResumePoint?.(keeping),
        ...(options.heldBodyBytes !== undefined ? { heldBytes: options.heldBodyBytes } : {}),
      })
    : undefined;
  let sink: FileSink | undefined;
  let temporaryPath: string | undefined;
  let failure: MlsoError | undefined;
  try {
    const pieces = new BodyPieces();
    // Raw bytes are counted as they arrive, before any decoding; every byte also feeds the watchdog and, when the
    // body can be resumed, goes to the resume file too (waiting for its disk, so a slow disk slows the socket).
    // They go on in pieces (BodyPieces); a read held back is reported all the same, so progress follows the socket.
    const counted = new Transform({
      highWaterMark: STREAM_BUFFER_BYTES,
      transform(chunk: Buffer, _encoding, done) {
        progress.bytesReceived += chunk.length;
        watchdog.fed();
        const kept = keeper?.take(chunk);
        // Waiting for the cap is this client's own doing, not the server's silence: the watchdog waits with it.
        const paced = options.rateLimit ? watchdog.pausedDuring(options.rateLimit.take(chunk.length, options.signal)) : undefined;
        const wait = kept && paced ? Promise.all([kept, paced]) : (kept ?? paced);
        const piece = pieces.add(chunk);
        // Once the file is open, as before any progress: a file with bytes received has its temporary file.
        if (!piece && sink) options.onProgress?.(progress);
        if (!wait) done(null, piece);
        else wait.then(() => done(null, piece), done);
      },
      flush(done) {
        done(null, pieces.rest());
      },
    });
    pipeline(body, counted, () => {});
    keepErrorsForTheReader(counted);
    const wire = resumed ? joined(path.join(target.folder, resumed.point.name), resumed.bytes, counted, () => watchdog.fed()) : counted;

    const peeked = await peekStream(await withoutGzipLayers(wire), 80);
    const decoded = peeked.stream;
    if (!startsWithFitsSignature(peeked.head)) {
      throw await notFitsError(decoded, target.filename);
    }
    const temporaryName = temporaryNameFor(localName);
    options.onTemporaryFile?.(temporaryName);
    temporaryPath = path.join(target.folder, temporaryName);
    sink = await (options.openSink ?? openFileSink)(temporaryPath);
    const hash = createHash('sha256');
    const hashed = new Transform({
      highWaterMark: STREAM_BUFFER_BYTES,
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        progress.bytesWritten += chunk.length;
        options.onProgress?.(progress);
        done(null, chunk);
      },
    });
    await pipelineAsync(decoded, fitsLayoutGuard(target.filename), hashed, sink.writable);
    if (bodyLength !== undefined && progress.bytesReceived !== bodyLength) {
      throw new DownloadError('truncated', `${target.filename} arrived incomplete (${progress.bytesReceived} of ${bodyLength} bytes).`);
    }
    options.onBodyReceived?.();
    await sink.sync();
    await sink.close();
    sink = undefined;
    const sha256 = hash.digest('hex');
    options.onVerified?.({ temporaryName, sha256, bytesWritten: progress.bytesWritten });
    const finalPath = path.join(target.folder, localName);
    // No fsync of the folder after the rename: the rename is atomic either way, and if a power cut
    // loses it the file is simply absent (the ledger notices and fetches it again), never corrupt.
    await rename(temporaryPath, finalPath);
    temporaryPath = undefined;
    // Its time as written, for the ledger: a later sync's quick check compares the file on disk with it.
    const mtimeMs = writtenMtimeOf(finalPath);
    return {
      path: finalPath,
      bytesReceived: progress.bytesReceived,
      bytesWritten: progress.bytesWritten,
      sha256,
      resumedBytes: resumed?.bytes ?? 0,
      ...(mtimeMs !== undefined ? { mtimeMs } : {}),
    };
  } catch (error) {
    // The file's own failure first: a sink that failed before the pipeline started is refused by Node 24's pipeline
    // as a destroyed stream, which would hide a full disk behind a network error.
    failure = classify(sink?.writable.errored ?? error, target, response.url, watchdog.stalled);
    throw failure;
  } finally {
    watchdog.stop();
    options.signal?.removeEventListener('abort', onAbort);
    body.destroy();
    await sink?.close().catch(() => undefined);
    if (temporaryPath) await unlink(temporaryPath).catch(() => undefined);
    if (keeper && keeping) await settleResumeFile(path.join(target.folder, keeping.name), keeper, failure, options);
  }
}

/** Bytes of the body gathered into one piece before it goes on to gunzip (see BodyPieces)... */
const BODY_PIECE_BYTES = 256 * 1024;
/** ...unless the piece's first read has waited this long: on a slow link, bytes go on about as they come. */
const BODY_PIECE_WAIT_MS = 50;

/**
 * The body's socket reads (16-64 KB each) gathered into pieces of a quarter megabyte. Every piece that goes on costs
 * one inflate call on libuv's threads, one hash update, a trip through each stream stage and about one write, so
 * a piece per read would cost a file some hundred of each. Copying the reads into one piece costs less than that.
 */
class BodyPieces {
  private reads: Buffer[] = [];
  private bytes = 0;
  private since = 0;

  /** Takes a read; returns the piece to pass on when one is complete, undefined while it gathers. */
  add(read: Buffer): Buffer | undefined {
    if (this.reads.length === 0) this.since = performance.now();
    this.reads.push(read);
    this.bytes += read.length;
    if (this.bytes < BODY_PIECE_BYTES && performance.now() - this.since < BODY_PIECE_WAIT_MS) return undefined;
    return this.rest();
  }

  /** What is gathered, as one piece (undefined when nothing is). */
  rest(): Buffer | undefined {
    if (this.reads.length === 0) return undefined;
    const piece = this.reads.length === 1 ? this.reads[0]! : Buffer.concat(this.reads, this.bytes);
    this.reads = [];
    this.bytes = 0;
    return piece;
  }
}

/** The kept beginning of a body: where it is and how many bytes it holds. */
interface KeptBeginning {
  point: ResumePoint;
  bytes: number;
}

/** What an earlier attempt kept of the body, if its file is still there and holds something. */
async function keptBeginning(folder: string, options: DownloadOptions): Promise<KeptBeginning | undefined> {
  const point = options.resumeFrom;
  if (!point) return undefined;
  const bytes = await stat(path.join(folder, point.name)).then(
    (found) => (found.isFile() ? found.size : 0),
    () => 0,
  );
  if (bytes > 0) return { point, bytes };
  await dropKept(folder, { point, bytes }, options);
  return undefined;
}

/** Forgets the resume file of a body (the file and the engine's record of it). */
async function dropKept(folder: string, kept: KeptBeginning | undefined, options: DownloadOptions): Promise<undefined> {
  if (!kept) return undefined;
  await unlink(path.join(folder, kept.point.name)).catch(() => undefined);
  options.onResumePoint?.(null);
  return undefined;
}

function newResumePoint(localName: string, headers: Record<string, string | string[] | undefined>): ResumePoint | undefined {
  const validator = resumeValidator(headers);
  return validator === undefined ? undefined : { name: resumeFileNameFor(localName), validator };
}

/**
 * After the attempt: a finished file needs its resume file no more; a transfer cut short (network, pause, cancel,
 * a body that ended early) keeps what arrived; any other failure (bad content, a full disk) drops it, so the next
 * attempt starts from the first byte. A cut that kept nothing (no byte came, or none could be written) drops it too.
 */
async function settleResumeFile(resumeFile: string, keeper: ResumeFileWriter, failure: MlsoError | undefined, options: DownloadOptions): Promise<void> {
  const cutShort = failure !== undefined && isCutShort(failure);
  await keeper.close(cutShort);
  if (cutShort && keeper.keptBytes > 0) return;
  if (keeper.mayHaveFile) await unlink(resumeFile).catch(() => undefined);
  if (failure) options.onResumePoint?.(null);
}

function isCutShort(failure: MlsoError): boolean {
  return failure instanceof NetworkError || failure instanceof CancelledError || (failure instanceof DownloadError && failure.reason === 'truncated');
}

/**
 * The whole body as sent: the kept beginning read back from disk, then what arrives now. Reading the beginning
 * back feeds the stall watchdog, so a long kept beginning is not taken for a silent server.
 */
function joined(resumeFile: string, keptBytes: number, rest: Readable, fed: () => void): Readable {
  async function* bytes(): AsyncGenerator<Buffer> {
    for await (const chunk of createReadStream(resumeFile, { start: 0, end: keptBytes - 1, highWaterMark: STREAM_BUFFER_BYTES }) as AsyncIterable<Buffer>) {
      fed();
      yield chunk;
    }
    yield* rest as AsyncIterable<Buffer>;
  }
  const stream = Readable.from(bytes(), { objectMode: false, highWaterMark: STREAM_BUFFER_BYTES });
  keepErrorsForTheReader(stream);
  return stream;
}

/** Destroys the body when no byte has arrived for `timeoutMs`: a stalled read is a failure, not a wait. */
class StallWatchdog {
  stalled = false;
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly body: Readable,
    private readonly timeoutMs: number,
  ) {
    this.fed();
  }
  private stopped = false;
  private pauses = 0;
  fed(): void {
    if (this.stopped || this.pauses > 0) return;
    // refresh() re-arms the same timer: cheaper than a new one for every chunk.
    if (this.timer) this.timer.refresh();
    else
      this.timer = setTimeout(() => {
        this.stalled = true;
        this.body.destroy(new Error('stalled'));
      }, this.timeoutMs);
  }
  /** No stall is counted while `wait` is pending; the clock starts again when it settles. */
  pausedDuring<T>(wait: Promise<T>): Promise<T> {
    this.pauses += 1;
    clearTimeout(this.timer);
    this.timer = undefined;
    const resume = (): void => {
      this.pauses -= 1;
      this.fed();
    };
    return wait.finally(resume);
  }
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}

/** `body` still holds the peeked head, so it alone has the whole beginning of the answer. */
async function notFitsError(body: Readable, filename: string): Promise<DownloadError> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= ERROR_BODY_LIMIT) break;
  }
  const text = Buffer.concat(chunks).subarray(0, ERROR_BODY_LIMIT).toString('utf8');
  const message = serverMessage(text);
  if (message !== undefined) {
    return new DownloadError('error-body', `The server sent a message instead of ${filename}: ${message}`, message);
  }
  const trimmed = text.trimStart();
  if (/^<(!doctype|html|\?xml|body|head)/i.test(trimmed)) {
    return new DownloadError('error-body', `The server sent a web page instead of ${filename}; the file was not saved.`);
  }
  if (trimmed.length === 0) return new DownloadError('not-fits', `The server sent an empty body instead of ${filename}; the file was not saved.`);
  return new DownloadError('not-fits', `${filename} is not a FITS file (it does not begin with "SIMPLE  ="); it was not saved.`);
}

function classify(error: unknown, target: DownloadTarget, url: string, stalled: boolean): MlsoError {
  if (stalled) return new NetworkError('stalled', url);
  if (error instanceof MlsoError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (isNoRoom(code)) return new DiskFullError(target.folder);
  if (code === 'Z_BUF_ERROR' || (error instanceof Error && /unexpected end of file/i.test(error.message))) {
    return new DownloadError('truncated', `${target.filename} arrived incomplete (the compressed stream ended early).`);
  }
  if (code === 'Z_DATA_ERROR') return new DownloadError('corrupt', `${target.filename} arrived corrupted (invalid compressed data); it was not saved.`);
  // The file fails with the reason; the other files go on.
  if (cannotWriteThere(code)) {
    return new DownloadError(
      'write-failed',
      `Cannot write ${target.filename} into ${target.folder} (${inPlainWords(code)}). Choose a folder you can write to.`,
    );
  }
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'EPIPE' || (error instanceof Error && error.message === 'aborted')) {
    return new NetworkError('reset', url);
  }
  if (code === 'ETIMEDOUT') return new NetworkError('timeout', url);
  return new NetworkError('reset', url, error instanceof Error ? error.message : String(error));
}

async function readLimited(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= limit) break;
  }
  let bytes = Buffer.concat(chunks).subarray(0, limit);
  // Error bodies may themselves be gzip-encoded; the text path of axios would have undone that.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      return '';
    }
  }
  return bytes.toString('utf8');
}
