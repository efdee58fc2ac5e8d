// A server that is not the API: reached as "localhost" while the emulator is "127.0.0.1" (another host name for
// the same loopback address), or on another port of 127.0.0.1. It notes each request's path and cookie, and
// answers a download with the emulator's bytes of the file named in its `filename` (a .gz suffix dropped).
import type { RunningEmulator } from '../../src-main/emulator';
import { oddServer } from './fixtures';

export interface OtherServer {
  /** Its address, as a listing or a redirect would name it. */
  url: string;
  requests: { path: string; cookie: string | undefined }[];
  close(): Promise<void>;
}

export async function otherServer(emulator: () => RunningEmulator, reachedAs: 'localhost' | 'another port' = 'localhost'): Promise<OtherServer> {
  const requests: OtherServer['requests'] = [];
  const server = await oddServer((req, res) => {
    res.on('error', () => undefined);
    requests.push({ path: req.url ?? '', cookie: req.headers.cookie });
    const filename = new URL(req.url ?? '/', 'http://x').searchParams.get('filename')?.replace(/\.gz$/, '') ?? '';
    emulator()
      .fileBytes('kcor', filename)
      .then((bytes) => res.writeHead(200, { 'content-length': String(bytes.length) }).end(bytes))
      .catch(() => res.writeHead(404).end());
  });
  return { url: reachedAs === 'localhost' ? server.url.replace('127.0.0.1', 'localhost') : server.url, requests, close: server.close };
}
