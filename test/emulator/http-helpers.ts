// Plain node:http requests for the emulator tests: bodies exactly as sent (no automatic decompression), and
// transport failures reported instead of thrown, so tests can assert on resets and truncation.
import { request, type Agent, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { DEMO_EMAIL, type RunningEmulator } from '../../src-main/emulator';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Set when the connection failed after the headers arrived (reset, premature close). */
  error?: Error;
  /** Whether the response ended cleanly ('end' event). */
  complete: boolean;
}

export function rawGet(url: string, headers: Record<string, string> = {}, method = 'GET', agent?: Agent): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let responded = false;
    const req = request(url, { method, headers, ...(agent ? { agent } : {}) }, (res) => {
      responded = true;
      const chunks: Buffer[] = [];
      const result = (): Omit<RawResponse, 'complete'> => ({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ ...result(), complete: true }));
      res.on('error', (error) => resolve({ ...result(), error, complete: false }));
      res.on('aborted', () => resolve({ ...result(), error: new Error('aborted'), complete: false }));
      res.on('close', () => resolve({ ...result(), error: new Error('closed'), complete: res.complete }));
    });
    // A connection reset part-way through the body is reported on the request too (Node 24), before the response's
    // own 'error': from the response on, the response's events say how it ended.
    req.on('error', (error) => {
      if (!responded) reject(error);
    });
    req.end();
  });
}

// Tests index into API answers freely; their shapes are what is under test.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonBody = any;

export async function json(emulator: RunningEmulator, path: string): Promise<{ status: number; body: JsonBody; headers: Headers }> {
  const response = await fetch(`${emulator.url}${path}`);
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** Authenticates the demo user and returns the `Cookie` header value to send back. */
export async function sessionCookie(emulator: RunningEmulator, username = DEMO_EMAIL): Promise<string> {
  const response = await fetch(`${emulator.url}/v1/authenticate?username=${encodeURIComponent(username)}`);
  const setCookie = response.headers.get('set-cookie');
  if (response.status !== 200 || !setCookie) throw new Error(`authentication failed: ${response.status}`);
  return setCookie.split(';')[0] ?? '';
}

export interface ListedFile {
  'date-obs': string;
  filename: string;
  filesize: number;
  instrument: string;
  product: string;
  url: string;
  'obs-plan'?: string;
  'wave-region'?: string;
  wavelengths?: number;
}

export async function listFiles(emulator: RunningEmulator, instrument: string, product: string, query = ''): Promise<ListedFile[]> {
  const { status, body } = await json(emulator, `/v1/instruments/${instrument}/products/${encodeURIComponent(product)}/files/${query ? `?${query}` : ''}`);
  if (status !== 200) throw new Error(`listing failed: ${status} ${JSON.stringify(body)}`);
  return body.files as ListedFile[];
}

/** The FITS bytes a download carried, whichever form it used. */
export function decodeBody(response: RawResponse): Buffer {
  const type = String(response.headers['content-type']);
  if (response.headers['content-encoding'] === 'gzip' || type === 'application/gzip') return gunzipSync(response.body);
  return response.body;
}
