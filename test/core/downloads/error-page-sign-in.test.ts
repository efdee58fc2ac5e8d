// The README's promise: "a download refused for want of a session (or answered with an error page) triggers one
// sign-in for everybody, then a retry". Here the expired session is answered the way a single-sign-on front does it:
// status 200 and an HTML sign-in page where the file was due. The engine must sign in once more and get every file.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { listFolder, oddServer, useEmulator } from '../../helpers/fixtures';
import { expectExactFolder, listing, useHarnesses } from './engine-harness';

const emulator = useEmulator({ imageSize: 64 });
const { harness } = useHarnesses(emulator);

const SIGN_IN_PAGE = '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><form action="/login"><input name="email"></form></body></html>\n';

/**
 * A proxy in front of the emulator that answers a refused download (401 or 403) with 200 and a sign-in page, and
 * passes everything else through. The Host header goes through unchanged, so the listing's URLs point at it too.
 */
async function signInPageProxy(target: string): Promise<{ url: string; pagesServed: () => number; close: () => Promise<void> }> {
  let pages = 0;
  const proxy = await oddServer((req, res) => {
    res.on('error', () => undefined);
    const upstream = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      answer.on('error', () => res.destroy());
      const refused = (answer.statusCode === 401 || answer.statusCode === 403) && (req.url ?? '').startsWith('/v1/download');
      if (!refused) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      answer.resume();
      pages += 1;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(SIGN_IN_PAGE)) });
      res.end(SIGN_IN_PAGE);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return { url: proxy.url, pagesServed: () => pages, close: proxy.close };
}

const proxies: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

const morning = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:02:00' };

describe('an error page where a file was due', () => {
  it('an expired session answered with a sign-in page: one new sign-in for all workers, then every file arrives', async () => {
    const proxy = await signInPageProxy(emulator().url);
    proxies.push(proxy);
    const client = new MlsoClient({ baseUrl: proxy.url });
    const { files } = await client.files({ instrument: 'kcor', product: 'pb', filters: morning });
    expect(files.length).toBeGreaterThanOrEqual(6);
    const h = await harness({ client, concurrency: 4, maxAttempts: 1 });
    await h.engine.signIn();
    emulator().resetStats();
    // The server forgets the session; the client's cookie still looks good to it.
    emulator().expireSessions();

    await h.engine.enqueue(files, h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');

    expect(proxy.pagesServed()).toBeGreaterThan(0);
    expect(emulator().stats().authentications).toBe(1);
    await expectExactFolder(emulator(), h.folder, files);
    expect(h.ledger.list().every((job) => job.state === 'done')).toBe(true);
  });

  it('a web page served once with a valid session: a sign-in, then the retry gets the file', async () => {
    const files = (await listing(emulator(), morning)).slice(0, 3);
    emulator().injectFault(files[1]!.filename, 'html-200');
    const h = await harness({ maxAttempts: 1 });
    await h.engine.signIn();
    emulator().resetStats();

    await h.engine.enqueue(files, h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');

    expect(emulator().stats().authentications).toBe(1);
    expect(emulator().stats().downloadsByFile[files[1]!.filename]).toBe(2);
    await expectExactFolder(emulator(), h.folder, files);
    expect(await listFolder(h.folder)).toHaveLength(3);
  });
});
