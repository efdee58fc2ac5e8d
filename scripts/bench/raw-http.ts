// Plain HTTP the way a generic downloader does it: a session cookie, keep-alive connections, the body taken as
// it comes (no decompression, no checks). Used to measure the files' wire sizes and by the Node baseline.
import http from 'node:http';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { DEMO_EMAIL } from './scenario';

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
  const sink = file
    ? createWriteStream(file)
    : new Writable({ write: (_chunk, _encoding, done) => done() });
  await pipeline(response, sink);
  if (!response.complete) throw new Error(`GET ${url}: the body ended early after ${bytes} bytes`);
  return { bytes, head };
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
