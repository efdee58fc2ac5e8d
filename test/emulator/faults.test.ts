import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { decodeBody, listFiles, rawGet, sessionCookie, type ListedFile } from './http-helpers';
import { waitFor } from '../helpers/wait-for';

let emulator: RunningEmulator;
let cookie: string;
let files: ListedFile[];

beforeAll(async () => {
  emulator = await createEmulator({ bodyForm: 'gzip-body' });
  cookie = await sessionCookie(emulator);
  files = await listFiles(emulator, 'kcor', 'nrgf', 'start-date=2025-03-24T20:00:00&end-date=2025-03-24T20:30:00');
});
afterAll(() => emulator.close());
beforeEach(() => {
  emulator.setOptions({ failureRate: 0, resetRate: 0, bandwidthBytesPerSecond: 0, seed: 1 });
  emulator.resetStats();
});

const pick = (index: number): ListedFile => {
  const found = files[index];
  if (!found) throw new Error(`no listed file ${index}`);
  return found;
};
const download = (listed: ListedFile): ReturnType<typeof rawGet> => rawGet(listed.url, { Cookie: cookie });

describe('injected faults', () => {
  it('json-200, html-200, html-500: bodies that are not the file', async () => {
    const target = pick(0);
    emulator.injectFault(target.filename, 'json-200');
    const jsonReply = await download(target);
    expect(jsonReply.status).toBe(200);
    expect(jsonReply.headers['content-type']).toBe('application/json');
    expect(JSON.parse(jsonReply.body.toString()).message).toBeTruthy();

    emulator.injectFault(target.filename, 'html-200');
    const html = await download(target);
    expect([html.status, html.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(html.body.toString()).toContain('<html>');

    emulator.injectFault(target.filename, 'html-500');
    const html500 = await download(target);
    expect([html500.status, html500.headers['content-type']]).toEqual([500, 'text/html; charset=utf-8']);

    expect(decodeBody(await download(target)).equals(await emulator.fileBytes('kcor', target.filename))).toBe(true);
  });

  it('status faults answer JSON with the status, 429 with Retry-After', async () => {
    const target = pick(1);
    for (const [fault, status] of [
      ['status-500', 500],
      ['status-503', 503],
      ['status-429', 429],
      ['status-404', 404],
    ] as const) {
      emulator.injectFault(target.filename, fault);
      const response = await download(target);
      expect(response.status, fault).toBe(status);
      expect(response.headers['content-type']).toBe('application/json');
      expect(JSON.parse(response.body.toString()).message).toBeTruthy();
      expect(response.headers['retry-after']).toBe(fault === 'status-429' ? '1' : undefined);
    }
  });

  it('unauthorized answers as if the session were invalid, once', async () => {
    const target = pick(2);
    emulator.injectFault(`${target.filename}.gz`, 'unauthorized'); // the .gz form of the name works too
    expect((await download(target)).status).toBe(401);
    expect((await download(target)).status).toBe(200);
  });

  it('applies a fault the requested number of times, to that file only', async () => {
    const target = pick(3);
    emulator.injectFault(target.filename, 'status-503', 2);
    expect((await download(pick(4))).status).toBe(200);
    expect((await download(target)).status).toBe(503);
    expect((await download(target)).status).toBe(503);
    expect((await download(target)).status).toBe(200);
    expect(emulator.stats().downloadsByFile[target.filename]).toBe(3);
    expect(emulator.stats().completedByFile[target.filename]).toBe(1);
  });

  it('reset destroys the connection part-way through the body', async () => {
    const target = pick(5);
    const full = await download(target);
    emulator.injectFault(target.filename, 'reset');
    const response = await download(target);
    expect(response.status).toBe(200);
    expect(response.complete).toBe(false);
    expect(response.error).toBeDefined();
    expect(response.body.length).toBeLessThan(full.body.length);
    expect(emulator.stats().downloadsAborted).toBe(1);
  });

  it('truncate ends the response cleanly with an incomplete gzip stream', async () => {
    const target = pick(6);
    const full = await download(target);
    emulator.injectFault(target.filename, 'truncate');
    const response = await download(target);
    expect(response.status).toBe(200);
    expect(response.complete).toBe(true);
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['transfer-encoding']).toBe('chunked');
    expect(response.body.length).toBeGreaterThan(0);
    expect(response.body.length).toBeLessThan(full.body.length);
    expect(full.body.subarray(0, response.body.length).equals(response.body)).toBe(true);
    expect(() => gunzipSync(response.body)).toThrow();
  });

  it('stall sends part of the body and then nothing until the client gives up', async () => {
    const target = pick(7);
    emulator.injectFault(target.filename, 'stall');
    const received = await new Promise<number>((resolve, reject) => {
      const req = request(target.url, { headers: { Cookie: cookie } }, (res) => {
        let bytes = 0;
        let timer: NodeJS.Timeout | undefined;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          clearTimeout(timer);
          timer = setTimeout(() => {
            req.destroy();
            resolve(bytes);
          }, 300);
        });
        res.on('error', () => undefined);
      });
      req.on('error', () => undefined);
      req.on('close', () => undefined);
      setTimeout(() => reject(new Error('no data')), 5000).unref();
      req.end();
    });
    expect(received).toBeGreaterThan(0);
    expect(emulator.stats().activeDownloads).toBe(1);
    await waitFor(() => emulator.stats().activeDownloads === 0, 'no download in flight', 5000);
    expect(emulator.stats().downloadsAborted).toBe(1);
    expect((await download(target)).status).toBe(200); // and the server carries on
  });

  it('not-fits is a valid gzip of something that is not FITS', async () => {
    const target = pick(8);
    emulator.injectFault(target.filename, 'not-fits');
    const response = await download(target);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/gzip');
    const text = gunzipSync(response.body).toString();
    expect(text.startsWith('SIMPLE')).toBe(false);
    expect(text.length).toBeGreaterThan(0);
  });

  it('fits-header-only is a complete gzip stream of the header alone, which declares the whole image', async () => {
    const target = pick(10);
    const fits = await emulator.fileBytes('kcor', target.filename);
    emulator.injectFault(target.filename, 'fits-header-only');
    const response = await download(target);
    expect([response.status, response.complete]).toEqual([200, true]);
    expect(response.headers['content-length']).toBe(String(response.body.length));
    expect(decodeBody(response).equals(fits.subarray(0, 2880))).toBe(true);
    expect(decodeBody(await download(target)).equals(fits)).toBe(true); // once only
  });

  it('fits-overlong is the whole file followed by megabytes of zeros its headers do not declare', async () => {
    const target = pick(11);
    const fits = await emulator.fileBytes('kcor', target.filename);
    emulator.injectFault(target.filename, 'fits-overlong');
    const response = await download(target);
    expect([response.status, response.complete]).toEqual([200, true]);
    const body = decodeBody(response);
    expect(body.length).toBeGreaterThanOrEqual(fits.length + 16 * 1024 * 1024);
    expect(body.subarray(0, fits.length).equals(fits)).toBe(true);
    expect(body.subarray(fits.length).every((byte) => byte === 0)).toBe(true);
    expect(response.body.length).toBeLessThan(body.length / 10); // small on the wire, large once inflated
  });

  it('fits-unpadded is the whole file but the zero padding after its last data unit', async () => {
    const target = pick(14);
    const fits = await emulator.fileBytes('kcor', target.filename);
    emulator.injectFault(target.filename, 'fits-unpadded');
    const response = await download(target);
    expect([response.status, response.complete]).toEqual([200, true]);
    const body = decodeBody(response);
    const axis = (n: number): number => Number(new RegExp(`NAXIS${n}  =\\s*(\\d+)`).exec(fits.subarray(0, 2880).toString('latin1'))![1]);
    expect(body.length).toBe(2880 + axis(1) * axis(2) * 4);
    expect(body.length % 2880).not.toBe(0);
    expect(body.equals(fits.subarray(0, body.length))).toBe(true);
    expect(fits.length % 2880).toBe(0);
    expect(decodeBody(await download(target)).equals(fits)).toBe(true); // once only
  });

  it('the FITS faults keep the raw form of older names without .gz', async () => {
    const target = pick(12);
    const fits = await emulator.fileBytes('kcor', target.filename);
    const url = new URL(target.url);
    url.searchParams.set('filename', target.filename);
    emulator.injectFault(target.filename, 'fits-header-only');
    const headerOnly = await rawGet(url.href, { Cookie: cookie });
    expect(headerOnly.body.equals(fits.subarray(0, 2880))).toBe(true);
    emulator.injectFault(target.filename, 'fits-overlong');
    const overlong = await rawGet(url.href, { Cookie: cookie });
    expect(overlong.body.subarray(0, fits.length).equals(fits)).toBe(true);
    expect(overlong.body.length).toBeGreaterThan(fits.length);
  });

  it('replaces what an earlier injection left unused', async () => {
    const target = pick(9);
    emulator.injectFault(target.filename, 'status-500', 5);
    expect((await download(target)).status).toBe(500);
    emulator.injectFault(target.filename, 'status-404');
    expect((await download(target)).status).toBe(404);
    expect((await download(target)).status).toBe(200);
  });

  it('rejects unknown fault names', () => {
    expect(() => emulator.injectFault(pick(0).filename, 'explode' as never)).toThrow(/explode/);
  });
});

describe('random faults', () => {
  const outcomes = async (listed: ListedFile[], session: string): Promise<string[]> => {
    const results: string[] = [];
    for (const file of listed) {
      const response = await rawGet(file.url, { Cookie: session });
      results.push(response.status !== 200 ? String(response.status) : response.complete ? 'ok' : 'reset');
    }
    return results;
  };

  it('fails about failureRate of downloads with 500, 503 or 429, reproducibly for a seed', async () => {
    emulator.setOptions({ failureRate: 0.5, seed: 7 });
    const first = await outcomes(files.slice(0, 40), cookie);
    const failures = first.filter((o) => o !== 'ok');
    expect(failures.length).toBeGreaterThan(8);
    expect(failures.length).toBeLessThan(32);
    expect(new Set(failures).size).toBeGreaterThan(1);
    for (const failure of failures) expect(['500', '503', '429']).toContain(failure);

    const twin = await createEmulator({ failureRate: 0.5, seed: 7, bodyForm: 'gzip-body' });
    try {
      const twinFiles = await listFiles(twin, 'kcor', 'nrgf', 'start-date=2025-03-24T20:00:00&end-date=2025-03-24T20:30:00');
      expect(await outcomes(twinFiles.slice(0, 40), await sessionCookie(twin))).toEqual(first);
    } finally {
      await twin.close();
    }
    emulator.setOptions({ seed: 8 });
    expect(await outcomes(files.slice(0, 40), cookie)).not.toEqual(first);
  });

  it('resets about resetRate of downloads mid-body', async () => {
    emulator.setOptions({ resetRate: 0.5, seed: 3 });
    const results = await outcomes(files.slice(0, 30), cookie);
    const resets = results.filter((o) => o === 'reset').length;
    expect(resets).toBeGreaterThan(5);
    expect(resets).toBeLessThan(25);
    expect(results.every((o) => o === 'ok' || o === 'reset')).toBe(true);
    expect(emulator.stats().downloadsAborted).toBe(resets);
    expect(emulator.stats().downloadsCompleted).toBe(30 - resets);
  });
});

describe('clients that go away', () => {
  it('never crash the server and are counted as aborted', async () => {
    emulator.setOptions({ bandwidthBytesPerSecond: 100_000 });
    for (const listed of files.slice(0, 5)) {
      await new Promise<void>((resolve) => {
        const req = request(listed.url, { headers: { Cookie: cookie } }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
          res.on('error', () => undefined);
        });
        req.on('error', () => undefined);
        req.end();
      });
    }
    await waitFor(() => emulator.stats().activeDownloads === 0, 'no download in flight', 5000);
    expect(emulator.stats().downloadsAborted).toBe(5);
    emulator.setOptions({ bandwidthBytesPerSecond: 0 });
    expect((await download(pick(0))).status).toBe(200);
  });
});
