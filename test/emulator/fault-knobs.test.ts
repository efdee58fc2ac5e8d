// The emulator's knobs for the fault suite: redirect loops on downloads, listings that never end, and the request
// timestamps that let a test check a client's waits from the server's side.
import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmulator, DEFAULT_EMULATOR_OPTIONS, type RunningEmulator } from '../../src-main/emulator';
import { decodeBody, listFiles, rawGet, sessionCookie, type ListedFile } from './http-helpers';
import { waitFor } from '../helpers/wait-for';

let emulator: RunningEmulator;
let cookie: string;
let files: ListedFile[];
const WINDOW = 'start-date=2025-03-24T20:00:00&end-date=2025-03-24T20:10:00';
const filesPath = `/v1/instruments/kcor/products/pb/files/?${WINDOW}`;

beforeAll(async () => {
  emulator = await createEmulator({ imageSize: 32 });
  cookie = await sessionCookie(emulator);
  files = await listFiles(emulator, 'kcor', 'pb', WINDOW);
});
afterAll(() => emulator.close());
beforeEach(() => {
  emulator.setOptions({ endlessListing: 'off' });
  emulator.clearFaults();
  emulator.resetStats();
});

const pick = (index: number): ListedFile => {
  const found = files[index];
  if (!found) throw new Error(`no listed file ${index}`);
  return found;
};

/** Reads a files answer until `enough` says so (or it ends), then hangs up; returns the text received. */
function readListing(enough: (text: string) => boolean, quietMs?: number): Promise<{ text: string; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(`${emulator.url}${filesPath}`, (res) => {
      let text = '';
      let quiet: NodeJS.Timeout | undefined;
      const finish = (ended: boolean): void => {
        clearTimeout(quiet);
        req.destroy();
        resolve({ text, ended });
      };
      const rearm = (): void => {
        clearTimeout(quiet);
        if (quietMs !== undefined) quiet = setTimeout(() => finish(false), quietMs);
      };
      rearm();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        rearm();
        if (enough(text)) finish(false);
      });
      res.on('end', () => finish(true));
      res.on('error', () => undefined);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The file names in a listing prefix, complete entries only. */
const namesIn = (text: string): string[] => [...text.matchAll(/"filename":"([^"]+)"/g)].map((m) => m[1]!);

describe('redirect faults', () => {
  it('redirect-self answers 302 to the very address requested, as many times as injected', async () => {
    const target = pick(0);
    emulator.injectFault(target.filename, 'redirect-self', 2);
    for (let hop = 0; hop < 2; hop += 1) {
      const reply = await rawGet(target.url, { Cookie: cookie });
      expect(reply.status).toBe(302);
      expect(reply.headers.location).toBe(target.url);
      expect(JSON.parse(reply.body.toString()).message).toBe(`moved to ${target.url}`);
    }
    const file = await rawGet(target.url, { Cookie: cookie });
    expect(decodeBody(file).equals(await emulator.fileBytes('kcor', target.filename))).toBe(true);
  });

  it('redirect-loop sends A to B and B back to A, both naming the same file', async () => {
    const target = pick(1);
    emulator.injectFault(target.filename, 'redirect-loop', 3);
    const toB = await rawGet(target.url, { Cookie: cookie });
    const b = String(toB.headers.location);
    expect(toB.status).toBe(302);
    expect(b).not.toBe(target.url);
    expect(new URL(b).searchParams.get('filename')).toBe(`${target.filename}.gz`);
    const toA = await rawGet(b, { Cookie: cookie });
    expect([toA.status, toA.headers.location]).toEqual([302, target.url]);
    expect((await rawGet(target.url, { Cookie: cookie })).headers.location).toBe(b);
    expect(emulator.stats().downloadsByFile[target.filename]).toBe(3);
  });

  it('the redirects still need a session, like every download', async () => {
    const target = pick(2);
    emulator.injectFault(target.filename, 'redirect-self');
    expect((await rawGet(target.url)).status).toBe(401);
  });
});

describe('fault sequences', () => {
  it('gives the next downloads of a file one fault each, in order, then the file', async () => {
    const target = pick(4);
    emulator.injectFaults(`${target.filename}.gz`, ['status-503', 'unauthorized', 'html-500']);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await rawGet(target.url, { Cookie: cookie })).status);
    expect(statuses).toEqual([503, 401, 500, 200]);
  });

  it('refuses unknown faults, and an empty sequence clears what was left', async () => {
    const target = pick(5);
    expect(() => emulator.injectFaults(target.filename, ['status-503', 'explode' as never])).toThrow(/explode/);
    emulator.injectFault(target.filename, 'status-503', 3);
    emulator.injectFaults(target.filename, []);
    expect((await rawGet(target.url, { Cookie: cookie })).status).toBe(200);
  });
});

describe('request timestamps', () => {
  it('records when each download of a file started, on the emulator clock', async () => {
    const target = pick(3);
    // The emulator's clock is fake (Date only): the two downloads start exactly 30 ms apart.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const before = Date.now();
      emulator.injectFault(target.filename, 'status-503');
      await rawGet(target.url, { Cookie: cookie });
      vi.advanceTimersByTime(30);
      await rawGet(target.url, { Cookie: cookie });
      const starts = emulator.stats().downloadStartsByFile[target.filename]!;
      expect(starts).toEqual([before, before + 30]);
    } finally {
      vi.useRealTimers();
    }
    emulator.resetStats();
    expect(emulator.stats().downloadStartsByFile).toEqual({});
  });
});

describe('endless listings', () => {
  it('are off by default, and a normal listing counts its bytes and ends', async () => {
    expect(DEFAULT_EMULATOR_OPTIONS.endlessListing).toBe('off');
    const response = await fetch(`${emulator.url}${filesPath}`);
    const text = await response.text();
    expect(JSON.parse(text).files).toHaveLength(files.length);
    expect(emulator.stats().listingBytesSent).toBe(Buffer.byteLength(text));
    await waitFor(() => emulator.stats().activeListings === 0, 'the listing to end', 5000);
  });

  it('refuses an unknown mode', () => {
    expect(() => emulator.setOptions({ endlessListing: 'forever' as never })).toThrow(/endlessListing/);
  });

  it('flood: the real entries, then new names for ever, until the client hangs up; then the writing stops', async () => {
    emulator.setOptions({ endlessListing: 'flood' });
    const { text, ended } = await readListing((received) => received.length > 2 * 1024 * 1024);
    expect(ended).toBe(false);
    expect(text.startsWith('{"end-date":"2025-03-24T20:10:00","files":[')).toBe(true);
    const names = namesIn(text);
    expect(names.slice(0, files.length)).toEqual(files.map((f) => f.filename));
    expect(names.length).toBeGreaterThan(files.length + 1000);
    expect(new Set(names).size).toBe(names.length);
    const madeUp = names.slice(files.length);
    expect(madeUp.every((name) => /^\d{8}_\d{6}_kcor_l2_pb\.fts$/.test(name))).toBe(true);
    expect([...madeUp].sort()).toEqual(madeUp); // later and later, like a real listing
    await waitFor(() => emulator.stats().activeListings === 0, 'the flood to stop', 5000);
    const sent = emulator.stats().listingBytesSent;
    // A whole download answered meanwhile: many turns of the emulator's loop, each of which a flood still
    // running would have used to write another batch.
    expect((await rawGet(pick(0).url, { Cookie: cookie })).status).toBe(200);
    expect(emulator.stats().listingBytesSent).toBe(sent);
  });

  it('flood honours backpressure: a client that stops reading stops the writing once the socket buffers are full', async () => {
    emulator.setOptions({ endlessListing: 'flood' });
    // Sampled every 100 ms while the client reads nothing: the count must come to rest (the kernel's buffers, which
    // grow for a while, are full), where a writer ignoring backpressure would go on for ever.
    const plateau = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${emulator.url}${filesPath}`, (res) => {
        res.pause();
        let last = -1;
        const timer = setInterval(() => {
          const sent = emulator.stats().listingBytesSent;
          const settled = sent === last;
          last = sent;
          if (settled || Date.now() > giveUpAt) {
            clearInterval(timer);
            req.destroy();
            resolve(settled ? sent : undefined);
          }
        }, 100);
      });
      const giveUpAt = Date.now() + 3000;
      req.on('error', reject);
      req.end();
    });
    expect(plateau, 'the writing never came to rest').toBeDefined();
    expect(plateau).toBeGreaterThan(0);
    expect(plateau).toBeLessThan(64 * 1024 * 1024);
    await waitFor(() => emulator.stats().activeListings === 0, 'the flood to stop', 5000);
  });

  it('trickle: an entry at a time, the response never ending', async () => {
    emulator.setOptions({ endlessListing: 'trickle' });
    const { text, ended } = await readListing((received) => namesIn(received).length >= files.length + 3);
    expect(ended).toBe(false);
    expect(namesIn(text).slice(0, files.length)).toEqual(files.map((f) => f.filename));
    await waitFor(() => emulator.stats().activeListings === 0, 'the trickle to stop', 5000);
  });

  it('silent: the real entries, then nothing, on a connection that stays open', async () => {
    emulator.setOptions({ endlessListing: 'silent' });
    const { text, ended } = await readListing(() => false, 300);
    expect(ended).toBe(false);
    expect(namesIn(text)).toEqual(files.map((f) => f.filename));
    expect(text.endsWith('}')).toBe(true); // the last entry, and not the end of the answer
    await waitFor(() => emulator.stats().activeListings === 0, 'the silent listing to be closed', 5000);
  });
});
