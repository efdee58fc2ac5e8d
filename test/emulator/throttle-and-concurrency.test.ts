import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { listFiles, rawGet, sessionCookie, type ListedFile } from './http-helpers';

let emulator: RunningEmulator;
let cookie: string;
let files: ListedFile[];

beforeAll(async () => {
  emulator = await createEmulator({ imageSize: 128, bodyForm: 'gzip-body' });
  cookie = await sessionCookie(emulator);
  files = await listFiles(emulator, 'kcor', 'pb', 'start-date=2025-03-24T19:00:00&end-date=2025-03-24T19:10:00');
});
afterAll(() => emulator.close());

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
};

describe('bandwidth limit', () => {
  it('paces each download body at roughly the configured rate', async () => {
    const target = files[0] as ListedFile;
    const [unlimited, fast] = await timed(() => rawGet(target.url, { Cookie: cookie }));
    const size = unlimited.body.length; // ~45 KB for 128x128
    expect(fast).toBeLessThan(500);

    const rate = 40_000;
    emulator.setOptions({ bandwidthBytesPerSecond: rate });
    const [limited, slow] = await timed(() => rawGet(target.url, { Cookie: cookie }));
    emulator.setOptions({ bandwidthBytesPerSecond: 0 });
    expect(limited.body.equals(unlimited.body)).toBe(true);
    // The first chunk (4 KB at this rate) may go at once; everything after it is paced.
    expect(slow).toBeGreaterThan(((size - 4096) / rate) * 1000 * 0.85);
    expect(slow).toBeLessThan((size / rate) * 1000 * 3 + 1000);
  });

  it('limits per connection, so parallel downloads each get the rate', async () => {
    const rate = 40_000;
    emulator.setOptions({ bandwidthBytesPerSecond: rate });
    emulator.resetStats();
    const agent = new Agent({ keepAlive: false, maxSockets: 16 });
    try {
      const [responses, elapsed] = await timed(() => Promise.all(files.slice(1, 7).map((file) => rawGet(file.url, { Cookie: cookie }, 'GET', agent))));
      const total = responses.reduce((sum, r) => sum + r.body.length, 0);
      expect(responses.every((r) => r.status === 200 && r.complete)).toBe(true);
      // Six bodies at `rate` each take about as long as one, far less than six in a row.
      expect(elapsed).toBeLessThan((total / rate) * 1000 * 0.6);
      const stats = emulator.stats();
      expect(stats.peakActiveDownloads).toBe(6);
      expect(stats.peakConnections).toBeGreaterThanOrEqual(6);
      expect(stats.downloadsCompleted).toBe(6);
      expect(stats.activeDownloads).toBe(0);
    } finally {
      agent.destroy();
      emulator.setOptions({ bandwidthBytesPerSecond: 0 });
    }
  });
});

describe('latency', () => {
  it('waits latencyMs before answering any request', async () => {
    emulator.setOptions({ latencyMs: 150 });
    const [, elapsed] = await timed(() => fetch(`${emulator.url}/v1/about`).then((r) => r.json()));
    const [, missing] = await timed(() => fetch(`${emulator.url}/v1/nothing`).then((r) => r.json()));
    emulator.setOptions({ latencyMs: 0 });
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(missing).toBeGreaterThanOrEqual(140);
  });
});

describe('large files', () => {
  it('streams bodies too large to cache, chunked, in concatenated members', async () => {
    const big = await createEmulator({ imageSize: 3000, bodyForm: 'gzip-body', gzipMembers: 2 });
    try {
      const [file] = await listFiles(big, 'kcor', 'pbextavg');
      const response = await rawGet(file?.url ?? '', { Cookie: await sessionCookie(big) });
      expect(response.status).toBe(200);
      expect(response.headers['content-length']).toBeUndefined();
      expect(response.headers['transfer-encoding']).toBe('chunked');
      const fits = gunzipSync(response.body);
      expect(fits.length).toBe(2880 + Math.ceil((3000 * 3000 * 4) / 2880) * 2880);
      expect(fits.equals(await big.fileBytes('kcor', file?.filename ?? ''))).toBe(true);
      const ratio = response.body.length / fits.length;
      expect(ratio).toBeGreaterThan(0.6);
      expect(ratio).toBeLessThan(0.75);
      expect(big.stats().completedByFile).toEqual({ [file?.filename ?? '']: 1 });
    } finally {
      await big.close();
    }
  });
});
