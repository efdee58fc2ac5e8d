import { request } from 'node:http';
import { rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { WebSocketServerMessage } from '../../src-shared/contract/contract';
import { contentSecurityPolicy } from '../../src-main/core/content-security-policy';
import { startWebApp, type RunningWebApp } from '../../src-main/web/web-app';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import { waitFor } from '../helpers/wait-for';
import { firstData, openRawSocket, upgradeRequest } from './hostile-client';

const emulator = useEmulator({ imageSize: 32 });
let app: RunningWebApp;
let token: string;
let downloadFolder: string;

beforeAll(async () => {
  const renderer = await temporaryFolder();
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>MLSO Downloader</title>');
  downloadFolder = await temporaryFolder();
  app = await startWebApp({
    port: 0,
    stateFolder: await temporaryFolder(),
    rendererFolder: renderer,
    version: '0.0.0-test',
    downloadFolder,
    server: { baseUrl: emulator().url },
  });
  token = new URL(app.server.openUrl).hash.replace('#token=', '');
});
afterAll(async () => {
  await app?.close();
});

function get(
  pathname: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: app.server.port, path: pathname, headers: { ...headers, host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function connect(query: string, origin: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${app.server.port}/ws${query}`, { origin });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
  });
}

const ownOrigin = (): string => `http://127.0.0.1:${app.server.port}`;

/** Sends one invoke on an open socket and waits for its result. */
function invokeOver(ws: WebSocket, message: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: Buffer) => {
      const reply = JSON.parse(data.toString()) as WebSocketServerMessage;
      if (reply.type !== 'result' || reply.id !== message['id']) return;
      ws.off('message', onMessage);
      resolve(reply.result);
    };
    ws.on('message', onMessage);
    ws.once('close', () => reject(new Error('closed before answering')));
    ws.send(JSON.stringify(message));
  });
}

/** The status line the server answers a raw request with (the connection is then dropped). */
async function firstLineOf(text: string): Promise<string> {
  const socket = await openRawSocket(app.server.port);
  try {
    const answered = firstData(socket);
    socket.write(text);
    return (await answered).toString('latin1').split('\r\n')[0] ?? '';
  } finally {
    socket.destroy();
  }
}

describe('web mode', () => {
  it('prints an address on 127.0.0.1 with a long random token', () => {
    expect(app.server.openUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{32}$/);
  });

  it('serves the renderer with a strict Content-Security-Policy', async () => {
    const page = await get('/', `127.0.0.1:${app.server.port}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('MLSO Downloader');
    // The app's one policy (test/core/content-security-policy.unit.test.ts), letting the page reach its own WebSocket.
    expect(page.headers['content-security-policy']).toBe(contentSecurityPolicy([`ws://127.0.0.1:${app.server.port}`, `ws://localhost:${app.server.port}`]));
    expect((await get('/../../etc/passwd', `127.0.0.1:${app.server.port}`)).status).toBe(404);
    expect((await get('/%2e%2e/%2e%2e/etc/passwd', `localhost:${app.server.port}`)).status).toBe(404);
  });

  it('listens on the loopback interface only', () => {
    expect(app.server.address).toBe('127.0.0.1');
  });

  it('refuses requests for another host name (DNS rebinding)', async () => {
    expect((await get('/', `evil.example:${app.server.port}`)).status).toBe(421);
    expect((await get('/', `127.0.0.1:${app.server.port + 1}`)).status).toBe(421);
    expect((await get('/', `localhost:${app.server.port}`)).status).toBe(200);
  });

  it("refuses page requests made by another site's page (a foreign Origin)", async () => {
    expect((await get('/', `127.0.0.1:${app.server.port}`, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get('/', `127.0.0.1:${app.server.port}`, { origin: 'null' })).status).toBe(403);
    expect((await get('/', `127.0.0.1:${app.server.port}`, { origin: ownOrigin() })).status).toBe(200);
  });

  it('refuses sockets without the token, with a wrong one, or from another origin', async () => {
    await expect(connect('', ownOrigin())).rejects.toThrow(/403/);
    await expect(connect('?token=wrong', ownOrigin())).rejects.toThrow(/403/);
    await expect(connect(`?token=${token}x`, ownOrigin())).rejects.toThrow(/403/);
    await expect(connect(`?token=${token.slice(0, -1)}`, ownOrigin())).rejects.toThrow(/403/);
    await expect(connect(`?token=${token}`, 'http://evil.example')).rejects.toThrow(/403/);
    await expect(connect(`?token=${token}`, `http://127.0.0.1:${app.server.port + 1}`)).rejects.toThrow(/403/);
  });

  it('refuses sockets for another host name, even with the token and the own origin', async () => {
    const request = upgradeRequest(app.server.port, `/ws?token=${token}`).replace(/^Host: .*$/m, `Host: evil.example:${app.server.port}`);
    expect(await firstLineOf(request)).toMatch(/^HTTP\/1\.1 403 /);
    expect(await firstLineOf(upgradeRequest(app.server.port, `/ws?token=${token}`))).toMatch(/^HTTP\/1\.1 101 /);
  });

  it('checks every invoke at the contract boundary: bad arguments are refused by name, as data', async () => {
    const ws = await connect(`?token=${token}`, ownOrigin());
    try {
      const call = (id: number, channel: string, args?: unknown) => invokeOver(ws, { type: 'invoke', id, channel, ...(args === undefined ? {} : { args }) });
      expect(await call(1, 'search:start', { instrument: 5 })).toEqual({ ok: false, error: { kind: 'invalid-input', message: 'instrument must be text.' } });
      // The window's old way to a product's files (the whole listing kept in memory) is no channel any more.
      expect(await call(7, 'catalog:files', { instrument: 'kcor', product: 'pb', filters: {} })).toEqual({
        ok: false,
        error: { kind: 'internal', message: 'Unknown request "catalog:files". Update MLSO Downloader.' },
      });
      // JSON has no undefined: a call without arguments arrives without the key.
      expect(await call(2, 'downloads:pause')).toEqual({ ok: false, error: { kind: 'invalid-input', message: 'id is missing; it must be a whole number.' } });
      expect(await call(3, 'settings:update', { retries: '2' })).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'retries' } });
      expect(await call(4, 'downloads:enqueue', { searchId: 'x', files: [{ url: 'http://evil.example/a.fts' }] })).toMatchObject({
        ok: false,
        error: { kind: 'invalid-input', message: '"files" is not an argument of downloads:enqueue.' },
      });
      expect(await call(5, 'downloads:snapshot')).toMatchObject({ ok: true });
      expect(await call(6, 'downloads:snapshot', { all: true })).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    } finally {
      ws.close();
    }
  });

  it("lists and makes folders for the folder chooser over the token's socket only, refusing unsafe names as data", async () => {
    await expect(connect('?token=wrong', ownOrigin())).rejects.toThrow(/403/);
    const ws = await connect(`?token=${token}`, ownOrigin());
    try {
      const call = (id: number, channel: string, args: unknown) => invokeOver(ws, { type: 'invoke', id, channel, args });
      expect(await call(1, 'folders:create', { parent: downloadFolder, name: 'picked' })).toEqual({ ok: true, value: path.join(downloadFolder, 'picked') });
      expect(await call(2, 'folders:list', { path: path.join(downloadFolder, 'not', 'yet') })).toMatchObject({
        ok: true,
        value: { path: downloadFolder, folders: [{ name: 'picked', path: path.join(downloadFolder, 'picked') }], problem: null },
      });
      expect(await call(3, 'folders:create', { parent: downloadFolder, name: '../out' })).toMatchObject({
        ok: false,
        error: { kind: 'invalid-input', message: expect.stringContaining('path separator') },
      });
      expect(await call(4, 'folders:list', { path: 7 })).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    } finally {
      ws.close();
    }
  });

  it('carries the contract: invokes answer with results or errors as data, events reach every page', async () => {
    const ws = await connect(`?token=${token}`, ownOrigin());
    const messages: WebSocketServerMessage[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as WebSocketServerMessage));
    const messageWhere = async (match: (m: WebSocketServerMessage) => boolean): Promise<WebSocketServerMessage> => {
      await waitFor(() => messages.some(match), 'such a message');
      return messages.find(match)!;
    };
    ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'app:info', args: null }));
    expect(await messageWhere((m) => m.type === 'result' && m.id === 1)).toMatchObject({
      result: { ok: true, value: { transport: 'web', serverUrl: emulator().url } },
    });
    ws.send(JSON.stringify({ type: 'invoke', id: 2, channel: 'session:sign-in', args: { email: 'nobody@example.org' } }));
    expect(await messageWhere((m) => m.type === 'result' && m.id === 2)).toMatchObject({ result: { ok: false, error: { kind: 'unknown-user' } } });
    ws.send(JSON.stringify({ type: 'invoke', id: 3, channel: 'session:sign-in', args: { email: DEMO_EMAIL } }));
    expect(await messageWhere((m) => m.type === 'event' && m.event === 'session:changed')).toMatchObject({ payload: { signedIn: true, email: DEMO_EMAIL } });
    ws.send(JSON.stringify({ type: 'invoke', id: 4, channel: 'no:such', args: null }));
    expect(await messageWhere((m) => m.type === 'result' && m.id === 4)).toMatchObject({ result: { ok: false } });
    ws.close();
  });
});

describe('web mode: file bytes for quick-look', () => {
  it('sends a finished file as a binary frame right after its result, byte for byte', { timeout: 20_000 }, async () => {
    const ws = await connect(`?token=${token}`, ownOrigin());
    const frames: { binary: boolean; data: Buffer }[] = [];
    ws.on('message', (data, isBinary) => frames.push({ binary: isBinary, data: Buffer.from(data as Buffer) }));
    const parsed = (frame: { data: Buffer }) => JSON.parse(frame.data.toString()) as WebSocketServerMessage;
    const resultIndex = (id: number) => frames.findIndex((f) => !f.binary && parsed(f).type === 'result' && (parsed(f) as { id: number }).id === id);
    const call = async (id: number, channel: string, args: unknown): Promise<{ result: { ok: boolean; value?: unknown; error?: unknown }; index: number }> => {
      ws.send(JSON.stringify({ type: 'invoke', id, channel, args }));
      await waitFor(() => resultIndex(id) >= 0, `the answer to ${channel}`);
      const index = resultIndex(id);
      return { result: (parsed(frames[index]!) as { result: { ok: boolean } }).result, index };
    };
    await call(10, 'session:sign-in', { email: DEMO_EMAIL });
    const search = (await call(11, 'search:start', { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', every: '4hours' } })).result
      .value as { searchId: string };
    const firstRow = { searchId: search.searchId, offset: 0, limit: 1, sort: { key: 'listed', direction: 'ascending' } };
    const page = (await call(12, 'search:page', firstRow)).result.value as { rows: { entry: { filename: string } }[] };
    const filename = page.rows[0]!.entry.filename;
    await call(13, 'downloads:enqueue', { searchId: search.searchId, selection: { sort: firstRow.sort, ranges: [{ first: 0, last: 0 }] } });
    let jobId: number | undefined;
    let nextId = 14;
    await waitFor(
      async () => {
        const snapshot = (await call(nextId++, 'downloads:snapshot', null)).result.value as { jobs: { id: number; filename: string; state: string }[] };
        jobId = snapshot.jobs.find((job) => job.filename === filename && job.state === 'done')?.id;
        return jobId !== undefined;
      },
      'the file to be downloaded',
      15_000,
      50,
    );
    const read = await call(500, 'files:read', { id: jobId });
    expect(read.result).toEqual({ ok: true, value: { name: filename, bytes: null } });
    expect(parsed(frames[read.index]!)).toMatchObject({ binary: true });
    await waitFor(() => frames.length > read.index + 1, 'the frame after the answer');
    const next = frames[read.index + 1]!;
    expect(next.binary).toBe(true);
    expect(next.data.equals(await emulator().fileBytes('kcor', filename))).toBe(true);
    // A refusal is plain JSON, with no frame after it.
    const refused = await call(501, 'files:read', { id: 999_999 });
    expect(refused.result).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    expect(parsed(frames[refused.index]!)).not.toHaveProperty('binary');
    // The finished file replaced by a link to a file outside the folder: refused, the other file never sent.
    const outside = path.join(await temporaryFolder(), 'passwd');
    await writeFile(outside, 'root:x:0:0:secret\n');
    await rm(path.join(downloadFolder, filename));
    await symlink(outside, path.join(downloadFolder, filename));
    const linked = await call(502, 'files:read', { id: jobId });
    expect(linked.result).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: expect.stringContaining('replaced by a link') } });
    expect(frames.slice(linked.index).some((frame) => frame.binary || frame.data.toString().includes('secret'))).toBe(false);
    ws.close();
  });
});
