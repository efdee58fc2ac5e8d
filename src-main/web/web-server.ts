// Web mode: the renderer's build over HTTP and the app contract over a WebSocket, on 127.0.0.1 only.
// It is the desktop app without Electron: useful on a data server through an SSH tunnel, and how the
// real UI is tested here.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ContractHandlers, EventChannel, EventChannels, WebSocketClientMessage, WebSocketServerMessage } from '../../src-shared/contract/contract';
import { invokeHandler } from '../core/app/invoke-handler';
import { LoopbackGuard } from './loopback-guard';
import { staticFile } from './static-files';

export const WEB_SOCKET_PATH = '/ws';
// A "Download all" of a 100,000-file listing is a big message.
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export interface WebServerOptions {
  rendererFolder: string;
  port: number;
  /** Set once the app core exists (the server starts first so the core can send events to it). */
  handlers?: ContractHandlers;
}

export interface RunningWebServer {
  url: string;
  /** The address to open, with the token in the fragment (never sent to the server in requests). */
  openUrl: string;
  port: number;
  setHandlers(handlers: ContractHandlers): void;
  /** Sends an event to every connected page. */
  broadcast<E extends EventChannel>(event: E, payload: EventChannels[E]): void;
  close(): Promise<void>;
}

export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const token = randomBytes(24).toString('base64url');
  let handlers = options.handlers;
  const guard = new LoopbackGuard(token);

  const server = createServer((req, res) => void serveHttp(req, res));
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!guard.hostAllowed(req.headers.host)) {
      res.writeHead(421, { 'Content-Type': 'text/plain' }).end('Open MLSO Downloader at the address it printed.\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const file = await staticFile(options.rendererFolder, new URL(req.url ?? '/', 'http://localhost').pathname);
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
      'Content-Security-Policy': contentSecurityPolicy(guard),
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const allowed =
      url.pathname === WEB_SOCKET_PATH &&
      guard.hostAllowed(req.headers.host) &&
      guard.originAllowed(req.headers.origin) &&
      guard.tokenMatches(url.searchParams.get('token'));
    if (!allowed) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit('connection', ws, req));
  });

  sockets.on('connection', (ws: WebSocket) => {
    ws.on('message', (data) => void answer(ws, data.toString()));
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
    send(ws, { type: 'result', id: message.id, result });
  }

  function send(ws: WebSocket, message: WebSocketServerMessage): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  guard.listeningOn(port);
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openUrl: `${url}/#token=${token}`,
    port,
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
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function contentSecurityPolicy(guard: LoopbackGuard): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `connect-src 'self' ${guard.connectSources}`,
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}
