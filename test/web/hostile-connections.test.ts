// Web mode listens on loopback, where any page the user visits and any local program can reach it: no
// connection, however broken or hostile, may take it down. Each test ends by checking that the page is
// still served and a legitimate page can still use the app.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebApp, type RunningWebApp } from '../../src-main/web/web-app';
import { MAX_MESSAGE_BYTES, startWebServer } from '../../src-main/web/web-server';
import type { ContractHandlers } from '../../src-shared/contract/contract';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import {
  addressOf,
  closeCodeOf,
  exchange,
  expectStillServing,
  firstData,
  frame,
  invokeAppInfo,
  openRawSocket,
  rawWebSocket,
  readUntilClosed,
  readUntilResult,
  upgradeRequest,
  type WebModeAddress,
} from './hostile-client';

const emulator = useEmulator({ imageSize: 32 });
let app: RunningWebApp;
let address: WebModeAddress;

async function rendererFolder(): Promise<string> {
  const folder = await temporaryFolder();
  await writeFile(path.join(folder, 'index.html'), '<!doctype html><title>MLSO Downloader</title>');
  return folder;
}

async function startApp(): Promise<RunningWebApp> {
  return startWebApp({
    port: 0,
    stateFolder: await temporaryFolder(),
    rendererFolder: await rendererFolder(),
    version: '0.0.0-test',
    downloadFolder: await temporaryFolder(),
    server: { baseUrl: emulator().url },
  });
}

beforeAll(async () => {
  app = await startApp();
  address = addressOf(app.server.openUrl);
});
afterAll(async () => {
  await app?.close();
});

describe('web mode under refused and reset connections', () => {
  it('stays up when refused upgrades are reset by the client, before or after the answer, or mid-request', async () => {
    for (let round = 0; round < 3; round += 1) {
      const afterAnswer = await openRawSocket(address.port);
      const answered = firstData(afterAnswer);
      afterAnswer.write(upgradeRequest(address.port, '/ws'));
      expect((await answered).toString('latin1')).toMatch(/^HTTP\/1\.1 403 /);
      afterAnswer.resetAndDestroy();

      const beforeAnswer = await openRawSocket(address.port);
      beforeAnswer.write(upgradeRequest(address.port, '/ws?token=wrong'));
      beforeAnswer.resetAndDestroy();

      const midRequest = await openRawSocket(address.port);
      midRequest.write(`GET /ws?token=${address.token} HTTP/1.1\r\nHost: 127.0.0.1:${address.port}\r\nUpgr`);
      midRequest.resetAndDestroy();
    }
    await expectStillServing(address);
  });
});

describe('web mode under malformed WebSocket frames', () => {
  const kinds = [
    { kind: 'invalid UTF-8 in a text frame', bytes: () => frame(Buffer.from([0xc3, 0x28, 0xff])), codes: [1007] },
    { kind: 'an unmasked client frame', bytes: () => frame(Buffer.from('{}'), { masked: false }), codes: [1002] },
    { kind: 'a reserved opcode', bytes: () => frame(Buffer.from('{}'), { opcode: 0x3 }), codes: [1002] },
    { kind: 'an RSV bit set', bytes: () => frame(Buffer.from('{}'), { rsv: 0b100 }), codes: [1002] },
    { kind: 'a length over the cap', bytes: () => frame(Buffer.alloc(0), { announcedLength: 2n ** 40n }), codes: [1009] },
  ];

  it.each(kinds)('closes the connection that sends $kind and stays up', async ({ bytes, codes }) => {
    const socket = await rawWebSocket(address);
    const closed = readUntilClosed(socket);
    socket.write(bytes());
    expect(codes).toContain(closeCodeOf(await closed));
    await expectStillServing(address);
  });
});

describe('web mode and the size of messages', () => {
  it('takes a message of exactly the limit, closes the connection whose message is one byte over (1009), and serves the others', async () => {
    const limit = 64 * 1024;
    const server = await startWebServer({
      rendererFolder: await rendererFolder(),
      port: 0,
      handlers: { 'app:info': () => ({ transport: 'web' }) } as unknown as ContractHandlers,
      maxMessageBytes: limit,
    });
    const small = addressOf(server.openUrl);
    /** An app:info invoke padded with white space to `size` bytes. */
    const invokeOfSize = (id: number, size: number) => {
      const text = JSON.stringify({ type: 'invoke', id, channel: 'app:info' });
      return frame(Buffer.from(text.padEnd(size, ' ')));
    };
    try {
      const bystander = await rawWebSocket(small);
      const atLimit = readUntilResult(bystander);
      bystander.write(invokeOfSize(1, limit));
      expect(await atLimit).toMatchObject({ type: 'result', id: 1, result: { ok: true } });

      const socket = await rawWebSocket(small);
      // Closed, or (were the limit not applied) answered: whichever comes first, so a failure shows at once.
      const outcome = Promise.race([
        readUntilClosed(socket).then((bytes) => ({ closedWith: closeCodeOf(bytes) })),
        readUntilResult(socket).then(
          (message) => ({ answered: message }),
          () => new Promise<never>(() => undefined),
        ),
      ]);
      socket.write(invokeOfSize(2, limit + 1));
      expect(await outcome).toEqual({ closedWith: 1009 });
      // A connection open all along is untouched, and new ones are served.
      const answer = readUntilResult(bystander);
      bystander.write(invokeOfSize(3, 100));
      expect(await answer).toMatchObject({ type: 'result', id: 3, result: { ok: true } });
      bystander.destroy();
      expect(await invokeAppInfo(small)).toMatchObject({ type: 'result', result: { ok: true } });
    } finally {
      await server.close();
    }
  });

  it(`refuses a message over web mode's own limit (${MAX_MESSAGE_BYTES / 1024 / 1024} MiB)`, async () => {
    const socket = await rawWebSocket(address);
    const closed = readUntilClosed(socket);
    socket.write(frame(Buffer.alloc(0), { announcedLength: BigInt(MAX_MESSAGE_BYTES) + 1n }));
    expect(closeCodeOf(await closed)).toBe(1009);
    await expectStillServing(address);
  });

  it('takes a large message queueing sends: 300,000 rows chosen one by one', async () => {
    // Every other row of a sorted list: a range per row, the most a selection of that many rows takes.
    const ranges = Array.from({ length: 300_000 }, (_, index) => ({ first: 2 * index, last: 2 * index }));
    const selection = { sort: { key: 'filesize', direction: 'ascending' }, ranges };
    const text = JSON.stringify({ type: 'invoke', id: 8, channel: 'downloads:enqueue', args: { searchId: 'not-kept', selection } });
    expect(text.length).toBeGreaterThan(9_000_000);
    const socket = await rawWebSocket(address);
    const answer = readUntilResult(socket);
    socket.write(frame(Buffer.from(text)));
    // Answered (no session, so refused as data), not cut off.
    expect(await answer).toMatchObject({ type: 'result', id: 8, result: { ok: false } });
    socket.destroy();
  });
});

describe('web mode under malformed HTTP', () => {
  it('answers 400 to a request target that is not a URL, as a page request and as an upgrade', async () => {
    expect(await exchange(address.port, `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${address.port}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400 /);
    expect(await exchange(address.port, upgradeRequest(address.port, 'http://['))).toMatch(/^HTTP\/1\.1 400 /);
    await expectStillServing(address);
  });

  it('answers 400 to malformed request lines and headers', async () => {
    const host = `Host: 127.0.0.1:${address.port}`;
    const requests = [
      'NOT A REQUEST\r\n\r\n',
      `GET / HTTP/7.5\r\n${host}\r\n\r\n`,
      `GET / HTTP/1.1\r\n${host}\r\nNo colon here\r\n\r\n`,
      `GET / HTTP/1.1\r\n${host}\r\nX-Bad: a\u0000b\r\n\r\n`,
      `GET / HTTP/1.1\r\n${host}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n`,
      `GET /ws HTTP/1.1\r\n${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n`,
    ];
    for (const text of requests) expect(await exchange(address.port, text)).toMatch(/^HTTP\/1\.1 400 /);
    await expectStillServing(address);
  });

  it('refuses an upgrade that is not a valid WebSocket handshake without falling over', async () => {
    const badKey = upgradeRequest(address.port, `/ws?token=${address.token}`).replace(/Sec-WebSocket-Key: \S+/, 'Sec-WebSocket-Key: short');
    expect(await exchange(address.port, badKey)).toMatch(/^HTTP\/1\.1 400 /);
    expect(await exchange(address.port, upgradeRequest(address.port, `/ws?token=${address.token}`).replace('Upgrade: websocket', 'Upgrade: h2c'))).toMatch(
      /^HTTP\/1\.1 400 /,
    );
    await expectStillServing(address);
  });
});

describe('web mode shutting down', () => {
  it('closes even while a refused client keeps its connection half open', async () => {
    const other = await startApp();
    const port = addressOf(other.server.openUrl).port;
    const lingering = await openRawSocket(port);
    const answered = firstData(lingering);
    // A client that never sends its own FIN: without this the server would wait for it forever on Ctrl-C.
    lingering.allowHalfOpen = true;
    lingering.write(upgradeRequest(port, '/ws'));
    expect((await answered).toString('latin1')).toMatch(/^HTTP\/1\.1 403 /);
    try {
      await other.close();
    } finally {
      lingering.destroy();
    }
  });
});

describe('web mode answering requests', () => {
  it('answers with an error, and stays up, when a result cannot be sent', async () => {
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    const server = await startWebServer({
      rendererFolder: await rendererFolder(),
      port: 0,
      handlers: { 'app:info': () => circular } as unknown as ContractHandlers,
    });
    try {
      const reply = await invokeAppInfo(addressOf(server.openUrl));
      expect(reply).toMatchObject({ type: 'result', id: 1, result: { ok: false, error: { kind: 'internal' } } });
    } finally {
      await server.close();
    }
  });
});
