// Web mode: the renderer's build over HTTP and the app contract over a WebSocket, on 127.0.0.1 only.
// It is the desktop app without Electron: useful on a data server through an SSH tunnel, and how the
// real UI is tested here.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ContractHandlers, EventChannel, EventChannels, WebSocketClientMessage, WebSocketServerMessage } from '../../src-shared/contract/contract';
import { invokeHandler } from '../core/app/invoke-handler';
import { contentSecurityPolicy } from '../core/content-security-policy';
import { LoopbackGuard } from './loopback-guard';
import { staticFile } from './static-files';

const WEB_SOCKET_PATH = '/ws';
const LOOPBACK = '127.0.0.1';
/**
 * The largest message a page may send; a larger one closes its connection (1009) and the server serves on. Queueing
 * is by reference (a search's id and ranges of its rows), but campaigns:import carries a whole shared campaign
 * file of up to CAMPAIGN_FILE_MAX_CHARS (192 Mi characters): some 210 MiB once escaped as JSON, which sets the size.
 */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export interface WebServerOptions {
  rendererFolder: string;
  port: number;
  /** Set once the app core exists (the server starts first so the core can send events to it). */
  handlers?: ContractHandlers;
  /** The largest message a page may send: MAX_MESSAGE_BYTES unless a test needs a limit it can reach. */
  maxMessageBytes?: number;
}

export interface RunningWebServer {
  url: string;
  /** The address to open, with the token in the fragment (never sent to the server in requests). */
  openUrl: string;
  port: number;
  /** The address the server is bound to: the loopback interface, never all of them. */
  address: string;
  setHandlers(handlers: ContractHandlers): void;
  /** Sends an event to every connected page. */
  broadcast<E extends EventChannel>(event: E, payload: EventChannels[E]): void;
  close(): Promise<void>;
}

export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const token = randomBytes(24).toString('base64url');
  let handlers = options.handlers;
  const guard = new LoopbackGuard(token);

  const server = createServer((req, res) => {
    serveHttp(req, res).catch(() => failResponse(res));
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes ?? MAX_MESSAGE_BYTES });
  // Anything the server might still wait for on close (keep-alive, refused or half-open sockets).
  const connections = new Set<Socket>();
  server.on('connection', (socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  // Node answers malformed requests itself (400, 431 or 408, unless a response is under way) and listens
  // for errors on every HTTP socket until an upgrade hands it to us. An error of the listening server
  // itself (an accept failing for lack of file handles) is passing: it goes on listening.
  server.on('error', () => undefined);

  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestTarget(req.url);
    if (!url) {
      res.writeHead(400, { 'Content-Type': 'text/plain', Connection: 'close' }).end('Bad request\n');
      return;
    }
    if (!guard.hostAllowed(req.headers.host)) {
      res.writeHead(421, { 'Content-Type': 'text/plain' }).end('Open MLSO Downloader at the address it printed.\n');
      return;
    }
    // Browsers name the page behind a cross-origin request: another site's page gets nothing, not even an opaque answer.
    if (req.headers.origin !== undefined && !guard.originAllowed(req.headers.origin)) {
      res.writeHead(403, { 'Content-Type': 'text/plain' }).end('Open MLSO Downloader at the address it printed.\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const file = await staticFile(options.rendererFolder, url.pathname);
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Length': file.body.length,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy': contentSecurityPolicy(guard.connectSources),
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node hands the socket over without its error listener: before any decision, so that a client
    // resetting the connection (after a refusal, say) cannot end the process.
    socket.on('error', () => socket.destroy());
    const url = requestTarget(req.url);
    if (!url) {
      refuseUpgrade(socket, '400 Bad Request');
      return;
    }
    const allowed =
      url.pathname === WEB_SOCKET_PATH &&
      guard.hostAllowed(req.headers.host) &&
      guard.originAllowed(req.headers.origin) &&
      guard.tokenMatches(url.searchParams.get('token'));
    if (!allowed) {
      refuseUpgrade(socket, '403 Forbidden');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit('connection', ws, req));
  });

  sockets.on('connection', (ws: WebSocket) => {
    // A malformed frame (bad UTF-8, unmasked, reserved opcode or bit, too long) is reported here once
    // `ws` is already closing that connection with the matching code (1002, 1007, 1009).
    ws.on('error', () => undefined);
    ws.on('message', (data) => {
      answer(ws, data.toString()).catch(() => ws.close(1011, 'Internal error'));
    });
  });

  async function answer(ws: WebSocket, text: string): Promise<void> {
    let message: WebSocketClientMessage;
    try {
      message = JSON.parse(text) as WebSocketClientMessage;
    } catch {
      return;
    }
    if (message?.type !== 'invoke' || typeof message.id !== 'number') return;
    const result = handlers
      ? await invokeHandler(handlers, message.channel, message.args)
      : { ok: false as const, error: { kind: 'internal' as const, message: 'MLSO Downloader is still starting; try again in a moment.' } };
    // A file's bytes go as a binary frame after the result, not as JSON (a number per byte).
    const bytes = binaryPart(result);
    let reply: string;
    let bytesFollow = false;
    try {
      const sent = bytes ? { ...result, value: { ...(result as { value: object }).value, bytes: null } } : result;
      reply = JSON.stringify({ type: 'result', id: message.id, result: sent, ...(bytes ? { binary: true as const } : {}) } satisfies WebSocketServerMessage);
      bytesFollow = bytes !== undefined;
    } catch {
      // A value JSON cannot carry (a cycle, a BigInt) must not leave the page waiting forever.
      const failure = {
        ok: false as const,
        error: { kind: 'internal' as const, message: 'MLSO Downloader could not send this answer. Try again; if it keeps failing, restart it.' },
      };
      reply = JSON.stringify({ type: 'result', id: message.id, result: failure } satisfies WebSocketServerMessage);
    }
    if (ws.readyState !== ws.OPEN) return;
    ws.send(reply);
    // Sent at once after its result, so no other message can come between them.
    if (bytesFollow) ws.send(bytes!, { binary: true });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: any other interface would let the network reach the app (the token is the one guard left).
    server.listen(options.port, LOOPBACK, () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  guard.listeningOn(port);
  const url = `http://${LOOPBACK}:${port}`;

  return {
    url,
    openUrl: `${url}/#token=${token}`,
    port,
    address,
    setHandlers: (next) => {
      handlers = next;
    },
    broadcast: (event, payload) => {
      const message: WebSocketServerMessage = { type: 'event', event, payload };
      const text = JSON.stringify(message);
      for (const client of sockets.clients) if (client.readyState === client.OPEN) client.send(text);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.close(() => resolve());
        for (const socket of connections) socket.destroy();
      }),
  };
}

/** The request's target as a URL, or undefined when it is not one (any client can send anything). */
function requestTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://localhost');
  } catch {
    return undefined;
  }
}

/** Answers and closes: a refused client that never closes its side must not hold the socket open. */
function refuseUpgrade(socket: Duplex, status: string): void {
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** An unexpected failure while serving a page: a 500 if nothing was sent yet, else the connection is dropped. */
function failResponse(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { 'Content-Type': 'text/plain' }).end('MLSO Downloader could not serve this page. Reload it; if that fails, restart MLSO Downloader.\n');
}

/** The `bytes` of a successful result's value (a file for quick-look), if it carries one. */
function binaryPart(result: { ok: boolean; value?: unknown }): Uint8Array | undefined {
  if (!result.ok || typeof result.value !== 'object' || result.value === null) return undefined;
  const bytes = (result.value as { bytes?: unknown }).bytes;
  return bytes instanceof Uint8Array ? bytes : undefined;
}
