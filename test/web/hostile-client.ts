// Raw TCP clients for web mode: what any page the user visits, or any local program, can send to the
// loopback server, byte for byte, including what a well-behaved HTTP or WebSocket client never would.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { expect } from 'vitest';
import WebSocket from 'ws';
import type { WebSocketServerMessage } from '../../src-shared/contract/contract';

export interface WebModeAddress {
  port: number;
  token: string;
}

export function addressOf(openUrl: string): WebModeAddress {
  const url = new URL(openUrl);
  return { port: Number(url.port), token: url.hash.replace('#token=', '') };
}

/** A connected raw socket; its own errors (the server resetting it) are expected, not failures. */
export function openRawSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection. */
export function readUntilClosed(socket: Socket): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('close', () => resolve(Buffer.concat(chunks)));
  });
}

/** The first result message the server sends on a raw WebSocket (unmasked text frames, as a server sends them). */
export function readUntilResult(socket: Socket): Promise<WebSocketServerMessage> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const parsed = serverFrame(received);
        if (!parsed) return;
        received = received.subarray(parsed.size);
        if (parsed.opcode === CLOSE_FRAME) {
          socket.off('data', onData);
          reject(new Error(`closed with ${parsed.payload.length >= 2 ? parsed.payload.readUInt16BE(0) : 'no code'} before a result`));
          return;
        }
        if (parsed.opcode !== TEXT_FRAME) continue; // pings and binary frames carry no result
        let message: WebSocketServerMessage;
        try {
          message = JSON.parse(parsed.payload.toString()) as WebSocketServerMessage;
        } catch (error) {
          socket.off('data', onData);
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        if (message.type === 'result') {
          socket.off('data', onData);
          resolve(message);
          return;
        }
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error('closed before a result')));
  });
}

const TEXT_FRAME = 0x1;
const CLOSE_FRAME = 0x8;

/** One whole unmasked frame at the start of `bytes` (its opcode, payload and size in bytes), or undefined if incomplete. */
function serverFrame(bytes: Buffer): { opcode: number; payload: Buffer; size: number } | undefined {
  if (bytes.length < 2) return undefined;
  const short = bytes[1]! & 0x7f;
  const header = short === 126 ? 4 : short === 127 ? 10 : 2;
  if (bytes.length < header) return undefined;
  const length = short === 126 ? bytes.readUInt16BE(2) : short === 127 ? Number(bytes.readBigUInt64BE(2)) : short;
  if (bytes.length < header + length) return undefined;
  return { opcode: bytes[0]! & 0x0f, payload: bytes.subarray(header, header + length), size: header + length };
}

/** Sends bytes on a fresh connection and returns the whole answer, as text. */
export async function exchange(port: number, bytes: string | Buffer): Promise<string> {
  const socket = await openRawSocket(port);
  const answer = readUntilClosed(socket);
  socket.write(bytes);
  return (await answer).toString('latin1');
}

/** Waits for the first bytes of an answer. */
export function firstData(socket: Socket): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    socket.once('data', resolve);
    socket.once('close', () => reject(new Error('closed before answering')));
  });
}

export function upgradeRequest(port: number, target: string, headers: Record<string, string> = {}): string {
  const lines = [
    `GET ${target} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `Origin: http://127.0.0.1:${port}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** A WebSocket opened by hand over a raw socket, so the test can then write frames no real client sends. */
export async function rawWebSocket(address: WebModeAddress): Promise<Socket> {
  const socket = await openRawSocket(address.port);
  const answered = firstData(socket);
  socket.write(upgradeRequest(address.port, `/ws?token=${address.token}`));
  const answer = (await answered).toString('latin1');
  expect(answer).toMatch(/^HTTP\/1\.1 101 /);
  return socket;
}

export interface FrameOptions {
  opcode?: number;
  rsv?: number;
  masked?: boolean;
  /** A length to announce instead of the payload's own (the payload is then not sent). */
  announcedLength?: bigint;
}

/** One client frame, built by hand (RFC 6455 section 5.2). */
export function frame(payload: Buffer, options: FrameOptions = {}): Buffer {
  const { opcode = 0x1, rsv = 0, masked = true, announcedLength } = options;
  const length = announcedLength ?? BigInt(payload.length);
  const maskBit = masked ? 0x80 : 0;
  let header: Buffer;
  if (length < 126n) {
    header = Buffer.from([0x80 | (rsv << 4) | opcode, maskBit | Number(length)]);
  } else if (length < 65536n) {
    header = Buffer.alloc(4);
    header.writeUInt8(0x80 | (rsv << 4) | opcode, 0);
    header.writeUInt8(maskBit | 126, 1);
    header.writeUInt16BE(Number(length), 2);
  } else {
    header = Buffer.alloc(10);
    header.writeUInt8(0x80 | (rsv << 4) | opcode, 0);
    header.writeUInt8(maskBit | 127, 1);
    header.writeBigUInt64BE(length, 2);
  }
  if (announcedLength !== undefined) return Buffer.concat([header, masked ? randomBytes(4) : Buffer.alloc(0)]);
  if (!masked) return Buffer.concat([header, payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((byte, index) => byte ^ mask[index % 4]!));
  return Buffer.concat([header, mask, body]);
}

/** The close code of the server's first frame when that is a close frame, else undefined (a plain drop). */
export function closeCodeOf(bytes: Buffer): number | undefined {
  if (bytes.length < 4 || (bytes[0]! & 0x0f) !== 0x8) return undefined;
  return bytes.readUInt16BE(2);
}

/** GET / answers with the page, as a browser would ask for it. */
function getPage(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', headers: { host: `127.0.0.1:${port}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A legitimate page's WebSocket (token, own origin) and one invoke through it: the answer to app:info. */
export async function invokeAppInfo(address: WebModeAddress): Promise<WebSocketServerMessage> {
  const ws = new WebSocket(`ws://127.0.0.1:${address.port}/ws?token=${address.token}`, { origin: `http://127.0.0.1:${address.port}` });
  try {
    return await new Promise<WebSocketServerMessage>((resolve, reject) => {
      ws.on('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
      ws.once('open', () => ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'app:info', args: null })));
      ws.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as WebSocketServerMessage;
        if (message.type === 'result' && message.id === 1) resolve(message);
      });
    });
  } finally {
    ws.terminate();
  }
}

/** Web mode still serves its page and still answers a legitimate page's requests. */
export async function expectStillServing(address: WebModeAddress): Promise<void> {
  expect(await getPage(address.port)).toBe(200);
  expect(await invokeAppInfo(address)).toMatchObject({ type: 'result', id: 1, result: { ok: true, value: { transport: 'web' } } });
}
