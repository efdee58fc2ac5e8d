// Plain HTTP the way a generic downloader does it: a session cookie, keep-alive connections, the body taken as
// it comes (no decompression, no checks). Used to measure the files' wire sizes and by the Node baseline.
import http from 'node:http';
import { createHash } from 'node:crypto';
import { close, createWriteStream, fsync, open } from 'node:fs';
import { rename } from 'node:fs/promises';
import { promisify } from 'node:util';
import { pipeline } from 'node:stream/promises';
import { Transform, Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DEMO_EMAIL } from '../../src-shared/api/service-facts';

/** mlso-dl's own sizes (download-file.ts, gzip-layers.ts), so the floor differs from it only in what it leaves out. */
const STREAM_BUFFER_BYTES = 1024 * 1024;
const GUNZIP_CHUNK_BYTES = 256 * 1024;

const openFile = promisify(open);
const syncFile = promisify(fsync);
const closeFile = promisify(close);

/** Signs in like any client would and returns the `session=...` pair to send as Cookie. */
export async function sessionCookie(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/authenticate?username=${encodeURIComponent(DEMO_EMAIL)}`);
  await response.arrayBuffer();
  const pair = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';', 1)[0]!.trim())
    .find((cookie) => cookie.startsWith('session='));
  if (!response.ok || !pair) throw new Error(`GET /v1/authenticate answered ${response.status} without a session cookie`);
  return pair;
}

export function keepAliveAgent(connections: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: connections });
}

/** GETs `url` and streams the raw body into `file` (or just counts it when there is none); returns its length and first bytes. */
export async function getRawBody(url: string, cookie: string, agent: http.Agent, file?: string): Promise<{ bytes: number; head: Buffer }> {
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(url, { agent, headers: { Cookie: cookie } }, resolve).on('error', reject);
  });
  if (response.statusCode !== 200) {
    response.resume();
    throw new Error(`GET ${url} answered ${response.statusCode}`);
  }
  let bytes = 0;
  let head = Buffer.alloc(0);
  response.on('data', (chunk: Buffer) => {
    if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16 - head.length)]);
    bytes += chunk.length;
  });
  const sink = file ? createWriteStream(file) : new Writable({ write: (_chunk, _encoding, done) => done() });
  await pipeline(response, sink);
  if (!response.complete) throw new Error(`GET ${url}: the body ended early after ${bytes} bytes`);
  return { bytes, head };
}

/**
 * GETs a gzip body and saves it decompressed into `file`, doing the least mlso-dl does: gunzip, SHA-256 of what is
 * written, fsync, then a rename from a temporary name. The buffer sizes are mlso-dl's, and like mlso-dl it lets the
 * connection go once the body is in: `flushed` settles when the file is synced and renamed.
 */
export async function getFitsFile(url: string, cookie: string, agent: http.Agent, file: string): Promise<{ bytes: number; flushed: Promise<string> }> {
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(url, { agent, headers: { Cookie: cookie } }, resolve).on('error', reject);
  });
  if (response.statusCode !== 200) {
    response.resume();
    throw new Error(`GET ${url} answered ${response.statusCode}`);
  }
  const temporary = `${file}.part`;
  // A numeric descriptor, as mlso-dl's file sink: a FileHandle lent to a write stream cannot be fsynced afterwards.
  // Opened before anything reads the body, so that no byte flows past before the pipeline is in place.
  const fd = await openFile(temporary, 'w');
  let bytes = 0;
  const hash = createHash('sha256');
  const counted = new Transform({
    highWaterMark: STREAM_BUFFER_BYTES,
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const hashed = new Transform({
    highWaterMark: STREAM_BUFFER_BYTES,
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const sink = createWriteStream('', { fd, autoClose: false, highWaterMark: STREAM_BUFFER_BYTES });
  try {
    await pipeline(response, counted, createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES }), hashed, sink);
  } catch (error) {
    // A failed pipeline destroys the write stream, which then closes the descriptor itself.
    if (!sink.destroyed) await closeFile(fd);
    throw error;
  }
  if (!response.complete) throw new Error(`GET ${url}: the body ended early after ${bytes} bytes`);
  const flushed = (async () => {
    try {
      await syncFile(fd);
    } finally {
      await closeFile(fd);
    }
    await rename(temporary, file);
    return hash.digest('hex');
  })();
  return { bytes, flushed };
}

/** Runs `work` over `items` with at most `limit` at once, in order of the list; results in the same order. */
export async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
