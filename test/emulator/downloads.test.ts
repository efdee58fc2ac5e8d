import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { createEmulator, DEMO_EMAIL, type RunningEmulator } from '../../src-main/emulator';
import { decodeBody, listFiles, rawGet, sessionCookie, type ListedFile } from './http-helpers';

let emulator: RunningEmulator;
let cookie: string;
let files: ListedFile[];

beforeAll(async () => {
  emulator = await createEmulator({ registeredEmails: [DEMO_EMAIL, 'other@example.org'] });
  files = await listFiles(emulator, 'kcor', 'pb', 'start-date=2025-03-24T20:00:00&end-date=2025-03-24T20:10:00');
});
afterAll(() => emulator.close());
beforeEach(async () => {
  emulator.setOptions({ bodyForm: 'alternate', gzipMembers: 1, unauthenticatedStatus: 401, sessionLifetimeSeconds: 86400 });
  cookie = await sessionCookie(emulator);
});

const file = (index: number): ListedFile => {
  const found = files[index];
  if (!found) throw new Error(`no listed file ${index}`);
  return found;
};

describe('authentication', () => {
  it('opens a session for a registered username with the documented cookie', async () => {
    const before = Date.now();
    const response = await fetch(`${emulator.url}/v1/authenticate?username=${DEMO_EMAIL}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: `found username ${DEMO_EMAIL}` });
    const setCookie = response.headers.get('set-cookie') ?? '';
    const match = /^session=([A-Za-z0-9_-]{20,}); Expires=([^;]+ GMT); HttpOnly; Path=\/$/.exec(setCookie);
    expect(match, setCookie).not.toBeNull();
    const expires = Date.parse(match?.[2] ?? '');
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 86400_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 86400_000 + 1000);
    expect(match?.[1]).not.toBe(cookie.slice('session='.length)); // fresh token each time
  });

  it('answers an unknown username with 404 and the registration site', async () => {
    const response = await fetch(`${emulator.url}/v1/authenticate?username=nobody@example.com`);
    expect(response.status).toBe(404);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.json()).toEqual({ message: 'username nobody@example.com not found, sign up at https://registration.hao.ucar.edu' });
  });

  it('needs a username', async () => {
    const response = await fetch(`${emulator.url}/v1/authenticate`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('username');
  });

  it('counts authentications', async () => {
    emulator.resetStats();
    await sessionCookie(emulator, 'other@example.org');
    await fetch(`${emulator.url}/v1/authenticate?username=x@y.z`);
    expect(emulator.stats()).toMatchObject({ authentications: 1, failedAuthentications: 1 });
  });
});

describe('downloads', () => {
  it('refuses downloads without a valid session (401 or 403 as configured)', async () => {
    for (const headers of [{}, { Cookie: 'session=forged' }, { Cookie: 'other=1' }] as Array<Record<string, string>>) {
      const response = await rawGet(file(0).url, headers);
      expect(response.status).toBe(401);
      expect(response.headers['content-type']).toBe('application/json');
      expect(JSON.parse(response.body.toString()).message).toMatch(/authenticate/);
    }
    emulator.setOptions({ unauthenticatedStatus: 403 });
    expect((await rawGet(file(0).url)).status).toBe(403);
  });

  it('accepts the session among other cookies', async () => {
    expect((await rawGet(file(0).url, { Cookie: `a=b; ${cookie}; c=d` })).status).toBe(200);
  });

  it('stops accepting sessions after expireSessions or their lifetime', async () => {
    expect((await rawGet(file(0).url, { Cookie: cookie })).status).toBe(200);
    emulator.expireSessions();
    expect((await rawGet(file(0).url, { Cookie: cookie })).status).toBe(401);

    // On a fake clock (Date only), the half-second lifetime ends exactly: valid at 499 ms, refused at 500 ms.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      emulator.setOptions({ sessionLifetimeSeconds: 0.5 });
      const shortLived = await sessionCookie(emulator);
      expect((await rawGet(file(0).url, { Cookie: shortLived })).status).toBe(200);
      vi.advanceTimersByTime(499);
      expect((await rawGet(file(0).url, { Cookie: shortLived })).status).toBe(200);
      vi.advanceTimersByTime(1);
      expect((await rawGet(file(0).url, { Cookie: shortLived })).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends a gzip body as application/gzip', async () => {
    emulator.setOptions({ bodyForm: 'gzip-body' });
    const response = await rawGet(file(0).url, { Cookie: cookie });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/gzip');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-disposition']).toBe(`attachment; filename=${file(0).filename}.gz`);
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(response.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(gunzipSync(response.body).equals(await emulator.fileBytes('kcor', file(0).filename))).toBe(true);
  });

  it('sends gzip as Content-Encoding, which fetch undoes', async () => {
    emulator.setOptions({ bodyForm: 'content-encoding' });
    const response = await rawGet(file(1).url, { Cookie: cookie });
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['content-disposition']).toBe(`attachment; filename=${file(1).filename}`);
    expect(gunzipSync(response.body).equals(await emulator.fileBytes('kcor', file(1).filename))).toBe(true);

    const fetched = await fetch(file(1).url, { headers: { Cookie: cookie } });
    expect(Buffer.from(await fetched.arrayBuffer()).equals(await emulator.fileBytes('kcor', file(1).filename))).toBe(true);
  });

  it('alternates the two forms per file, deterministically', async () => {
    const forms = new Map<string, string>();
    for (const listed of files.slice(0, 16)) {
      const response = await rawGet(listed.url, { Cookie: cookie });
      forms.set(listed.filename, String(response.headers['content-encoding'] ?? response.headers['content-type']));
      expect(decodeBody(response).equals(await emulator.fileBytes('kcor', listed.filename))).toBe(true);
      const again = await rawGet(listed.url, { Cookie: cookie });
      expect(String(again.headers['content-encoding'] ?? again.headers['content-type'])).toBe(forms.get(listed.filename));
    }
    expect(new Set(forms.values())).toEqual(new Set(['gzip', 'application/gzip']));
  });

  it('sends raw FITS for URLs without .gz', async () => {
    const url = file(2).url.replace(/\.gz$/, '');
    const response = await rawGet(url, { Cookie: cookie });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(response.body.equals(await emulator.fileBytes('kcor', file(2).filename))).toBe(true);
  });

  it('splits the body into concatenated gzip members when asked', async () => {
    emulator.setOptions({ bodyForm: 'gzip-body', gzipMembers: 3 });
    const response = await rawGet(file(3).url, { Cookie: cookie });
    const magic = [...response.body.entries()].filter(([i, b]) => b === 0x1f && response.body[i + 1] === 0x8b && response.body[i + 2] === 8).length;
    expect(magic).toBeGreaterThanOrEqual(3);
    expect(gunzipSync(response.body).equals(await emulator.fileBytes('kcor', file(3).filename))).toBe(true);
  });

  it('serves valid, deterministic FITS files', async () => {
    const bytes = await emulator.fileBytes('kcor', file(0).filename);
    expect(bytes.length % 2880).toBe(0);
    const header = bytes.subarray(0, 2880).toString('latin1');
    expect(header.startsWith('SIMPLE  =                    T')).toBe(true);
    const cards = header.match(/.{80}/g) ?? [];
    const card = (key: string): string | undefined => cards.find((c) => c.startsWith(key.padEnd(8)));
    expect(card('BITPIX')).toMatch(/^BITPIX {2}=\s+-32/);
    expect(card('NAXIS')).toMatch(/^NAXIS {3}=\s+2 /);
    expect(card('NAXIS1')).toMatch(/^NAXIS1 {2}=\s+256 /);
    expect(card('DATE-OBS')).toContain(`'${file(0)['date-obs']}'`);
    expect(card('FILENAME')).toContain(file(0).filename);
    expect(card('ORIGIN')).toContain("'HAO/MLSO'");
    expect(cards.some((c) => c === 'END'.padEnd(80))).toBe(true);
    expect(bytes.length).toBe(2880 + Math.ceil((256 * 256 * 4) / 2880) * 2880);
    expect(bytes.equals(await emulator.fileBytes('kcor', `${file(0).filename}.gz`))).toBe(true);
    expect(bytes.equals(await emulator.fileBytes('kcor', file(1).filename))).toBe(false);

    const [ucomp] = await listFiles(emulator, 'ucomp', 'l2', 'wave-region=1074');
    const ucompHeader = (await emulator.fileBytes('ucomp', ucomp?.filename ?? '')).subarray(0, 2880).toString('latin1');
    expect(ucompHeader).toMatch(/WAVELNG =\s+1074\.70/);
    await expect(emulator.fileBytes('kcor', 'nonexistent.fts')).rejects.toThrow();
  });

  it('answers 404 JSON for unknown files, other days and other instruments, and 400 for missing parameters', async () => {
    const url = new URL(file(0).url);
    const variants: Array<[string, number]> = [];
    const mutate = (name: string, value: string | null): string => {
      const copy = new URL(url);
      if (value === null) copy.searchParams.delete(name);
      else copy.searchParams.set(name, value);
      return copy.toString();
    };
    variants.push([mutate('filename', '20250324_000000_kcor_l2_pb.fts.gz'), 404]);
    variants.push([mutate('obsday-id', '10136'), 404]);
    variants.push([mutate('instrument', 'ucomp'), 404]);
    variants.push([mutate('instrument', 'comp'), 404]);
    variants.push([mutate('filename', null), 400]);
    variants.push([mutate('obsday-id', null), 400]);
    variants.push([mutate('obsday-id', 'abc'), 400]);
    variants.push([mutate('client', null), 200]); // older URLs had no client
    for (const [target, status] of variants) {
      const response = await rawGet(target, { Cookie: cookie });
      expect(response.status, target).toBe(status);
      if (status !== 200) expect(JSON.parse(response.body.toString()).message, target).toBeTruthy();
    }
  });

  it('counts started and completed downloads per file', async () => {
    emulator.resetStats();
    await rawGet(file(4).url, { Cookie: cookie });
    await rawGet(file(4).url, { Cookie: cookie });
    await rawGet(file(5).url);
    const stats = emulator.stats();
    expect(stats.downloadsStarted).toBe(3);
    expect(stats.downloadsCompleted).toBe(2);
    expect(stats.downloadsByFile).toEqual({ [file(4).filename]: 2, [file(5).filename]: 1 });
    expect(stats.completedByFile).toEqual({ [file(4).filename]: 2 });
    expect(stats.activeDownloads).toBe(0);
    expect(stats.requests).toBe(3);
  });
});
