// /v1/download: session check, lookup, faults, then the file as gzip (in one of two forms) or raw FITS.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { findInstrument } from './instruments';
import { finalPaddingBytes, fitsBytes, fitsChunks, fitsHeader, imageSizeOf, rawFitsSize, GZIP_OPTIONS, MEASURED_GZIP_RATIO } from './synthetic-fits';
import { gzipBuffer, gzipStream } from './gzip-bodies';
import { requestOrigin, sendError, sendJson, sendText } from './http-replies';
import { sendBody, type Cut, type CutAction } from './send-body';
import { answerRange, bytesOf, entityTag } from './byte-ranges';
import { Pacer } from './throttle';
import { unitHash } from './seeded-random';
import type { DownloadFault } from './faults';
import type { EmulatorContext } from './emulator-context';
import type { FileRecord } from './catalog';

// Bodies of files up to this raw size are built whole and cached (Content-Length known); larger ones are streamed
// (chunked) and never held in memory.
const CACHEABLE_RAW_BYTES = 32 * 1024 * 1024;
// Zeros after the end of an 'fits-overlong' file: far more than any synthetic file, yet small once gzipped.
const OVERLONG_TAIL_BYTES = 16 * 1024 * 1024;

type WireForm = 'gzip-body' | 'content-encoding' | 'raw';

export async function handleDownload(ctx: EmulatorContext, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const options = ctx.options();
  const instrumentId = query.get('instrument');
  const requested = query.get('filename');
  const obsdayId = query.get('obsday-id');
  const gzipped = requested?.endsWith('.gz') ?? false;
  const listedName = requested && gzipped ? requested.slice(0, -3) : requested;
  const record = instrumentId && listedName ? ctx.catalog().find(instrumentId, listedName) : undefined;

  res.once('close', ctx.stats.downloadInFlight());
  if (record) ctx.stats.downloadStarted(record.filename);

  if (!ctx.sessions.isValid(req.headers.cookie)) return sendUnauthenticated(ctx, res);
  for (const [name, value] of [
    ['obsday-id', obsdayId],
    ['instrument', instrumentId],
    ['filename', requested],
  ] as const) {
    if (!value) return sendError(res, 400, `missing required parameter "${name}"`);
  }
  if (!/^[0-9]+$/.test(obsdayId ?? '')) return sendError(res, 400, `invalid obsday-id "${obsdayId}": must be an integer`);
  if (!findInstrument(instrumentId ?? '')) return sendError(res, 404, `instrument "${instrumentId}" not found`);
  if (!record || record.obsdayId !== Number(obsdayId)) {
    return sendError(res, 404, `file ${requested} not found for instrument ${instrumentId} on observing day ${obsdayId}`);
  }

  const injected = ctx.faults.takeInjected(record.filename);
  const drawn = ctx.faults.draw(options.failureRate, options.resetRate); // drawn even when unused: keeps the sequence aligned
  if (injected) return serveFault(ctx, req, res, record, gzipped, injected);
  if (drawn.failure) return serveFault(ctx, req, res, record, gzipped, drawn.failure);
  const cut = drawn.resetAfter === undefined ? undefined : { share: drawn.resetAfter, action: 'reset' as const };
  await serveFile(ctx, req, res, record, gzipped, cut);
}

/** Marks the second address of a redirect loop: the same download with this parameter added. */
const LOOP_MARK = '&redirect-loop=b';

/** 302 to the address just requested, or (loop) to the other of two addresses that redirect to each other. */
function sendRedirectFault(ctx: EmulatorContext, req: IncomingMessage, res: ServerResponse, fault: 'redirect-self' | 'redirect-loop'): void {
  // The target as sent, so the address is the client's own down to the byte (absolute-form loses its authority).
  const target = (req.url ?? '/').replace(/^https?:\/\/[^/]*/i, '');
  let next = target;
  if (fault === 'redirect-loop') next = target.endsWith(LOOP_MARK) ? target.slice(0, -LOOP_MARK.length) : `${target}${LOOP_MARK}`;
  const location = `${requestOrigin(req, ctx.listenAddress())}${next}`;
  sendJson(res, 302, { message: `moved to ${location}` }, { Location: location });
}

function sendUnauthenticated(ctx: EmulatorContext, res: ServerResponse): void {
  sendError(res, ctx.options().unauthenticatedStatus, 'no valid session: authenticate first with /v1/authenticate?username=<registered e-mail>');
}

async function serveFault(
  ctx: EmulatorContext,
  req: IncomingMessage,
  res: ServerResponse,
  record: FileRecord,
  gzipped: boolean,
  fault: DownloadFault,
): Promise<void> {
  switch (fault) {
    case 'json-200':
      return sendJson(res, 200, { message: `file ${record.filename} is not available right now, try again later` });
    case 'html-200':
      return sendText(res, 200, 'text/html; charset=utf-8', htmlPage('MLSO data', 'The download service is under maintenance. Please try again later.'));
    case 'html-500':
      return sendText(res, 500, 'text/html; charset=utf-8', htmlPage('500 Internal Server Error', 'The server encountered an internal error.'));
    case 'status-500':
      return sendError(res, 500, 'internal server error');
    case 'status-503':
      return sendError(res, 503, 'service temporarily unavailable, try again later');
    case 'status-429':
      return sendError(res, 429, 'too many requests, retry after 1 second', { 'Retry-After': '1' });
    case 'status-404':
      return sendError(res, 404, `file ${record.filename} not found`);
    case 'unauthorized':
      return sendUnauthenticated(ctx, res);
    case 'not-fits':
      return serveNotFits(ctx, res, record, gzipped);
    case 'fits-header-only': {
      const header = fitsHeader(record, ctx.options());
      return serveAlteredFile(ctx, res, record, gzipped, [header].values(), header.length);
    }
    case 'fits-overlong': {
      const options = ctx.options();
      return serveAlteredFile(ctx, res, record, gzipped, withZerosAfter(fitsChunks(record, options)), rawFitsSize(record, options) + OVERLONG_TAIL_BYTES);
    }
    case 'fits-unpadded': {
      const options = ctx.options();
      const length = rawFitsSize(record, options) - finalPaddingBytes(record, options);
      return serveAlteredFile(ctx, res, record, gzipped, firstBytes(fitsChunks(record, options), length), length);
    }
    case 'reset':
    case 'truncate':
    case 'stall':
      return serveFile(ctx, req, res, record, gzipped, { share: ctx.faults.cutShare(), action: fault });
    case 'redirect-self':
    case 'redirect-loop':
      return sendRedirectFault(ctx, req, res, fault);
  }
}

function htmlPage(title: string, text: string): string {
  return `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>\n`;
}

/** How a download is put on the wire: `.gz` names get gzip in the configured form, older `.gz`-less names raw FITS. */
function wireForm(ctx: EmulatorContext, filename: string, gzipped: boolean): WireForm {
  if (!gzipped) return 'raw';
  const form = ctx.options().bodyForm;
  if (form !== 'alternate') return form;
  return unitHash(filename, 0xb0d7) < 0.5 ? 'gzip-body' : 'content-encoding';
}

function fileHeaders(form: WireForm, filename: string, length: number | undefined): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {
    'Content-Type': form === 'gzip-body' ? 'application/gzip' : 'application/octet-stream',
    // What the client ends up with: the .gz file, or the FITS file once Content-Encoding is undone.
    'Content-Disposition': `attachment; filename=${form === 'gzip-body' ? `${filename}.gz` : filename}`,
  };
  if (form === 'content-encoding') headers['Content-Encoding'] = 'gzip';
  if (length !== undefined) headers['Content-Length'] = length;
  return headers;
}

async function serveFile(
  ctx: EmulatorContext,
  req: IncomingMessage,
  res: ServerResponse,
  record: FileRecord,
  gzipped: boolean,
  cut?: { share: number; action: CutAction },
): Promise<void> {
  const options = ctx.options();
  const { gzipMembers } = options;
  const form = wireForm(ctx, record.filename, gzipped);
  const rawSize = rawFitsSize(record, options);
  const key = `${record.instrument}/${record.filename}/${imageSizeOf(record, options)}/${gzipMembers}`;
  let body: Iterable<Buffer> | AsyncIterable<Buffer>;
  let length: number | undefined;
  if (form === 'raw') {
    body = fitsChunks(record, options);
    length = rawSize;
  } else if (rawSize <= CACHEABLE_RAW_BYTES) {
    const whole = await ctx.bodies.get(key, () => gzipBuffer(fitsBytes(record, options), gzipMembers));
    if (res.destroyed) return;
    body = [whole];
    length = whole.length;
  } else {
    body = gzipStream(fitsChunks(record, options), rawSize, gzipMembers);
  }

  // Ranges only for a body whose length is known before it is sent (a streamed gzip body's is not).
  const headers = fileHeaders(form, record.filename, length);
  let status = 200;
  if (options.byteRanges && length !== undefined && Symbol.iterator in body) {
    const tag = entityTag(`${form}/${key}`);
    Object.assign(headers, { 'Accept-Ranges': 'bytes', ETag: tag });
    const answer = answerRange(req.headers, length, tag);
    if (answer.kind === 'unsatisfiable') {
      return sendError(res, 416, `range not satisfiable: ${record.filename} is ${answer.length} bytes`, { 'Content-Range': `bytes */${answer.length}` });
    }
    if (answer.kind === 'partial') {
      const { start, end } = answer.span;
      ctx.stats.partialDownload(record.filename, start);
      body = bytesOf(body, answer.span);
      length = end - start + 1;
      status = 206;
      Object.assign(headers, { 'Content-Range': `bytes ${start}-${end}/${answer.span.length}`, 'Content-Length': length });
    }
  }

  const expected = length ?? Math.round(rawSize * MEASURED_GZIP_RATIO[record.instrument]);
  const plannedCut: Cut | undefined = cut && { atByte: Math.max(1, Math.floor(expected * cut.share)), action: cut.action };
  // A truncated body must end cleanly, which only a body without Content-Length can.
  if (plannedCut?.action === 'truncate') delete headers['Content-Length'];

  res.writeHead(status, headers);
  const outcome = await sendBody(res, body, new Pacer(() => ctx.options().bandwidthBytesPerSecond), plannedCut);
  if (outcome === 'completed') ctx.stats.downloadCompleted(record.filename);
  else ctx.stats.downloadAborted();
}

/** A well-formed answer in the file's usual form whose content is not FITS at all. */
function serveNotFits(ctx: EmulatorContext, res: ServerResponse, record: FileRecord, gzipped: boolean): void {
  const form = wireForm(ctx, record.filename, gzipped);
  const text = Buffer.from(`${record.filename} is not available: the archive returned this placeholder text instead of the data.\n`);
  const body = form === 'raw' ? text : gzipSync(text, GZIP_OPTIONS);
  res.writeHead(200, fileHeaders(form, record.filename, body.length));
  res.end(body);
}

/**
 * Other bytes than the file's, in the file's usual wire form and at the configured bandwidth: a clean answer
 * with wrong content. Built whole (with Content-Length) when small, streamed when large, as files are.
 */
async function serveAlteredFile(
  ctx: EmulatorContext,
  res: ServerResponse,
  record: FileRecord,
  gzipped: boolean,
  raw: IterableIterator<Buffer>,
  rawLength: number,
): Promise<void> {
  const form = wireForm(ctx, record.filename, gzipped);
  const { gzipMembers } = ctx.options();
  let body: Iterable<Buffer> | AsyncIterable<Buffer>;
  let length: number | undefined;
  if (form === 'raw') {
    body = raw;
    length = rawLength;
  } else if (rawLength <= CACHEABLE_RAW_BYTES) {
    const whole = await gzipBuffer(Buffer.concat([...raw]), gzipMembers);
    if (res.destroyed) return;
    body = [whole];
    length = whole.length;
  } else {
    body = gzipStream(raw, rawLength, gzipMembers);
  }
  res.writeHead(200, fileHeaders(form, record.filename, length));
  const outcome = await sendBody(res, body, new Pacer(() => ctx.options().bandwidthBytesPerSecond));
  // Never counted as completed: what was sent is not the file.
  if (outcome !== 'completed') ctx.stats.downloadAborted();
}

/** The first `length` bytes of the chunks. */
function* firstBytes(chunks: Iterable<Buffer>, length: number): Generator<Buffer> {
  let left = length;
  for (const chunk of chunks) {
    if (left <= 0) return;
    yield chunk.length <= left ? chunk : chunk.subarray(0, left);
    left -= chunk.length;
  }
}

/** The chunks, then OVERLONG_TAIL_BYTES of zeros in 1 MiB pieces (one shared buffer: zeros never change). */
function* withZerosAfter(chunks: Iterable<Buffer>): Generator<Buffer> {
  yield* chunks;
  const zeros = Buffer.alloc(1024 * 1024);
  for (let left = OVERLONG_TAIL_BYTES; left > 0; left -= zeros.length) yield zeros.subarray(0, Math.min(left, zeros.length));
}
