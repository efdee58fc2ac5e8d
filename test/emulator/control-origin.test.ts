// The control endpoints (/__emulator/*) steer the emulator; a web page the user happens to open must not. The
// same rule as web mode: the Host must name this server (no DNS rebinding), an Origin present must be its own,
// and a body must be declared JSON (a cross-site "simple" text/plain or form POST never is). The API itself
// stays open to any Host, as a real API server is.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type RunningEmulator } from '../../src-main/emulator';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await createEmulator({ imageSize: 32 });
});
afterAll(() => emulator.close());

interface Answer {
  status: number;
  body: string;
}

/** A request with exactly these headers (fetch would not let a test set Host); `host: ''` sends none. */
function send(target: RunningEmulator, pathname: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const { host = `127.0.0.1:${target.port}`, ...others } = options.headers ?? {};
  const headers = host === '' ? others : { host, ...others };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: target.port, path: pathname, method: options.method ?? 'GET', headers, setHost: host !== '' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const BIG_IMAGE = JSON.stringify({ imageSize: 16384 });
const json = { 'content-type': 'application/json' };

describe('the control endpoints refuse other sites', () => {
  it('refuses a text/plain POST from another Origin (a page at evil.example): 403, options unchanged', async () => {
    const answer = await send(emulator, '/__emulator/options', {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
      body: BIG_IMAGE,
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ message: expect.stringMatching(/origin/i) });
    expect(emulator.options.imageSize).toBe(32);
  });

  it.each([
    ['another site', 'http://evil.example'],
    ['an opaque origin', 'null'],
    ['its own port on another name', 'http://evil.example:PORT'],
    ['https on its address', 'https://127.0.0.1:PORT'],
  ])('refuses an Origin of %s even with a JSON body', async (_what, origin) => {
    const headers = { ...json, origin: origin.replace('PORT', String(emulator.port)) };
    expect((await send(emulator, '/__emulator/options', { method: 'POST', headers, body: BIG_IMAGE })).status).toBe(403);
    expect((await send(emulator, '/__emulator/stats', { headers })).status).toBe(403);
    expect(emulator.options.imageSize).toBe(32);
  });

  it('refuses a rebinding Host (a name that resolved to 127.0.0.1), with or without an Origin', async () => {
    const host = `rebind.evil.example:${emulator.port}`;
    const answer = await send(emulator, '/__emulator/options', { method: 'POST', headers: { ...json, host }, body: BIG_IMAGE });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ message: expect.stringMatching(/host/i) });
    const sameSite = await send(emulator, '/__emulator/options', { method: 'POST', headers: { ...json, host, origin: `http://${host}` }, body: BIG_IMAGE });
    expect(sameSite.status).toBe(403);
    expect((await send(emulator, '/__emulator/stats', { headers: { host: `127.0.0.1:${emulator.port + 1}` } })).status).toBe(403);
    // No Host at all: Node's server refuses HTTP/1.1 without one before the emulator sees it.
    expect((await send(emulator, '/__emulator/stats', { headers: { host: '' } })).status).toBe(400);
    expect(emulator.options.imageSize).toBe(32);
  });

  it.each([
    ['text/plain', 'text/plain;charset=UTF-8'],
    ['form-encoded (what curl -d sends)', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
  ])('refuses a %s body even without an Origin: 415, saying to send JSON', async (_what, type) => {
    const answer = await send(emulator, '/__emulator/options', { method: 'POST', headers: { 'content-type': type }, body: BIG_IMAGE });
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.body)).toMatchObject({ message: expect.stringContaining('Content-Type: application/json') });
    const untyped = await send(emulator, '/__emulator/options', { method: 'POST', body: BIG_IMAGE });
    expect(untyped.status).toBe(415);
    expect(emulator.options.imageSize).toBe(32);
  });

  it('accepts a request as curl sends it (its own Host, no Origin) and pages of its own origin', async () => {
    const plain = await send(emulator, '/__emulator/options', {
      method: 'POST',
      headers: { ...json, 'content-type': 'application/json; charset=utf-8' },
      body: '{"latencyMs": 0}',
    });
    expect(plain.status).toBe(200);
    for (const origin of [`http://127.0.0.1:${emulator.port}`, `http://localhost:${emulator.port}`]) {
      expect((await send(emulator, '/__emulator/stats', { headers: { origin } })).status).toBe(200);
    }
    expect((await send(emulator, '/__emulator/stats', { headers: { host: `localhost:${emulator.port}` } })).status).toBe(200);
    // A POST without a body (the benchmark's reset-stats) needs no type.
    expect((await send(emulator, '/__emulator/reset-stats', { method: 'POST' })).status).toBe(200);
  });

  it('leaves the API open to any Host and Origin, as a real API server', async () => {
    const answer = await send(emulator, '/v1/about', { headers: { host: 'api.mlso.example', origin: 'http://evil.example' } });
    expect(answer.status).toBe(200);
  });

  it("runs the emulator guide's curl command as written", async () => {
    const readme = await readFile(path.resolve(import.meta.dirname, '../../docs/guide/emulator.md'), 'utf8');
    const command = /`(curl [^`]*__emulator\/fault)`/.exec(readme)?.[1];
    expect(command).toBeDefined();
    const listing = (await (await fetch(`${emulator.url}/v1/instruments/kcor/products/pb/files/?start-date=2025-03-24&every=1day`)).json()) as {
      files: { filename: string }[];
    };
    const filename = listing.files[0]!.filename;
    const args = [...command!.matchAll(/'([^']*)'|(\S+)/g)]
      .map((m) => m[1] ?? m[2]!)
      .slice(1)
      .map((arg) => arg.replace('NAME.fts', filename).replace('http://127.0.0.1:5000', emulator.url));
    const { stdout } = await promisify(execFile)('curl', ['--silent', '--show-error', '--write-out', '\n%{http_code}', ...args]);
    expect(stdout.trim().split('\n').at(-1)).toBe('200');
  });
});

describe('an emulator listening on every interface', () => {
  let everywhere: RunningEmulator;
  beforeAll(async () => {
    everywhere = await createEmulator({ host: '0.0.0.0', imageSize: 32 });
  });
  afterAll(() => everywhere.close());

  it('answers control requests that name it by a loopback name, and refuses other names', async () => {
    for (const host of [`127.0.0.1:${everywhere.port}`, `localhost:${everywhere.port}`]) {
      expect((await send(everywhere, '/__emulator/stats', { headers: { host } })).status).toBe(200);
    }
    expect((await send(everywhere, '/__emulator/stats', { headers: { host: `evil.example:${everywhere.port}` } })).status).toBe(403);
    expect(
      (await send(everywhere, '/__emulator/options', { method: 'POST', headers: { ...json, origin: 'http://evil.example' }, body: BIG_IMAGE })).status,
    ).toBe(403);
    expect(everywhere.options.imageSize).toBe(32);
  });
});
