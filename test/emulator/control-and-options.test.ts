import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_EMULATOR_OPTIONS, DEMO_EMAIL, type RunningEmulator } from '../../src-main/emulator';
import { listFiles, rawGet, sessionCookie } from './http-helpers';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await createEmulator();
});
afterAll(() => emulator.close());

const control = async (
  path: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<{ status: number; body: Record<string, unknown> }> => {
  const response = await fetch(`${emulator.url}/__emulator/${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('options', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_EMULATOR_OPTIONS).toMatchObject({
      host: '127.0.0.1',
      port: 0,
      lastDay: '2025-03-24',
      days: 5,
      cadenceSeconds: 15,
      imageSize: 256,
      latencyMs: 0,
      bandwidthBytesPerSecond: 0,
      failureRate: 0,
      resetRate: 0,
      sessionLifetimeSeconds: 86400,
      registeredEmails: [DEMO_EMAIL],
      bodyForm: 'alternate',
      gzipMembers: 1,
      zeroFilesizeRate: 0.05,
      unauthenticatedStatus: 401,
      redirectStatus: 308,
      seed: 1,
    });
    expect(DEMO_EMAIL).toBe('demo@example.com');
    expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emulator.options.port).toBe(emulator.port);
  });

  it('refuses bad and unknown options', async () => {
    await expect(createEmulator({ failureRate: 2 })).rejects.toThrow(/failureRate/);
    await expect(createEmulator({ lastDay: '2025-02-30' })).rejects.toThrow(/lastDay/);
    expect(() => emulator.setOptions({ nope: 1 } as never)).toThrow(/nope/);
    expect(() => emulator.setOptions({ port: emulator.port + 1 })).toThrow(/port/);
    expect(() => emulator.setOptions({ ...DEFAULT_EMULATOR_OPTIONS })).not.toThrow(); // resetting to defaults is fine
  });

  it('rebuilds the catalogue when a shaping option changes', async () => {
    emulator.setOptions({ lastDay: '2024-12-31', days: 2 });
    const days = new Set((await listFiles(emulator, 'kcor', 'pbextavg')).map((f) => f['date-obs'].slice(0, 10)));
    expect([...days]).toEqual(['2024-12-30', '2024-12-31']);
    const [last] = await listFiles(emulator, 'kcor', 'pbextavg', 'start-date=2024-12-31');
    expect(new URL(last?.url ?? '').searchParams.get('obsday-id')).toBe(String(10137 - 83));

    emulator.setOptions({ cadenceSeconds: 60 });
    const perDay = (await listFiles(emulator, 'kcor', 'pb', 'start-date=2024-12-31')).length;
    expect(perDay).toBeGreaterThan(150);
    expect(perDay).toBeLessThan(230);

    emulator.setOptions({ zeroFilesizeRate: 1 });
    expect((await listFiles(emulator, 'kcor', 'pbavg')).every((f) => f.filesize === 0)).toBe(true);
    emulator.setOptions({ ...DEFAULT_EMULATOR_OPTIONS });
    expect((await listFiles(emulator, 'kcor', 'pbextavg')).length).toBe(5);
  });

  it('authenticates only the registered e-mails', async () => {
    emulator.setOptions({ registeredEmails: ['a@b.c'] });
    expect((await fetch(`${emulator.url}/v1/authenticate?username=${DEMO_EMAIL}`)).status).toBe(404);
    expect((await fetch(`${emulator.url}/v1/authenticate?username=a@b.c`)).status).toBe(200);
    emulator.setOptions({ registeredEmails: [DEMO_EMAIL] });
  });
});

describe('control endpoints', () => {
  it('reports and resets stats, without counting themselves', async () => {
    await control('reset-stats', {});
    await fetch(`${emulator.url}/v1/about`);
    const { status, body } = await control('stats');
    expect(status).toBe(200);
    expect(body.requests).toBe(1);
    expect(Object.keys(body).sort()).toEqual(Object.keys(emulator.stats()).sort());
    expect((await control('reset-stats', {})).status).toBe(200);
    expect(emulator.stats().requests).toBe(0);
  });

  it('changes options, injects faults and expires sessions', async () => {
    const [file] = await listFiles(emulator, 'kcor', 'pbextavg');
    const cookie = await sessionCookie(emulator);
    const changed = await control('options', { latencyMs: 5, unauthenticatedStatus: 403 });
    expect(changed.status).toBe(200);
    expect(changed.body.latencyMs).toBe(5);
    expect(emulator.options.unauthenticatedStatus).toBe(403);

    expect((await control('fault', { filename: file?.filename, fault: 'status-503', times: 1 })).status).toBe(200);
    expect((await rawGet(file?.url ?? '', { Cookie: cookie })).status).toBe(503);
    expect((await rawGet(file?.url ?? '', { Cookie: cookie })).status).toBe(200);

    expect((await control('expire-sessions', {})).status).toBe(200);
    expect((await rawGet(file?.url ?? '', { Cookie: cookie })).status).toBe(403);
    await control('options', { latencyMs: 0, unauthenticatedStatus: 401, publicBaseUrl: null });
  });

  it('answers bad control requests with 4xx JSON', async () => {
    expect((await control('options', { failureRate: 'lots' })).status).toBe(400);
    expect((await control('fault', { filename: 'x.fts', fault: 'boom' })).status).toBe(400);
    expect((await control('fault', { fault: 'reset' })).status).toBe(400);
    expect((await control('stats', {}, 'POST')).status).toBe(405);
    expect((await control('reset-stats', undefined, 'GET')).status).toBe(405);
    expect((await control('nothing')).status).toBe(404);
    const broken = await fetch(`${emulator.url}/__emulator/options`, { method: 'POST', body: '{not json', headers: { 'Content-Type': 'application/json' } });
    expect(broken.status).toBe(400);
  });
});
