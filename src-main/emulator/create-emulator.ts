// Starts the emulator: a real HTTP server imitating the MLSO data API, plus the knobs tests and the benchmark turn.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { BodyCache } from './body-cache';
import { Catalog } from './catalog';
import { FaultPlan, isDownloadFault } from './faults';
import { EmulatorSessions } from './sessions';
import { StatsRecorder } from './stats';
import { CATALOG_SHAPING_KEYS, resolveOptions, validateOptionsPatch, type EmulatorOptions } from './options';
import { matchRoute } from './routes';
import { requestOrigin, sendError, sendJson } from './http-replies';
import { handleAbout, handleAuthenticate, handleFiles, handleInstrument, handleInstruments, handleProduct, handleProducts } from './catalogue-handlers';
import { handleDownload } from './download-handler';
import { handleControl } from './control-handlers';
import { fitsBytes } from './synthetic-fits';
import { ServerAddressRule } from '../core/server-address-rule';
import type { EmulatorContext } from './emulator-context';
import type { RunningEmulator } from './running-emulator';

const BODY_CACHE_BYTES = 512 * 1024 * 1024;

/** Serves https with this certificate and key (PEM) instead of plain http (throwaway-tls.ts makes a pair). */
export interface EmulatorTls {
  cert: Buffer | string;
  key: Buffer | string;
}

export async function createEmulator(partial: Partial<EmulatorOptions> = {}, tls?: EmulatorTls): Promise<RunningEmulator> {
  let options = resolveOptions(partial);
  let catalog: Catalog | undefined;
  let address = '';
  const sockets = new Set<Socket>();
  const stats = new StatsRecorder();
  const faults = new FaultPlan(options.seed);
  const sessions = new EmulatorSessions();
  const bodies = new BodyCache(BODY_CACHE_BYTES);

  const ctx: EmulatorContext = {
    options: () => options,
    catalog: () => (catalog ??= new Catalog(options)),
    listenAddress: () => address,
    transformListing: () => emulator.transformListing,
    sessions,
    faults,
    stats,
    bodies,
  };

  // Replaced once the port is known (port 0 asks the system for one).
  let controlRule = new ServerAddressRule(options.host, options.port);
  const handler = (req: IncomingMessage, res: ServerResponse): void => void handleRequest(ctx, emulator, controlRule, req, res);
  const server = tls ? createTlsServer({ cert: tls.cert, key: tls.key }, handler) : createServer(handler);
  // A client that does not trust the certificate hangs up during the handshake: its problem, not the server's.
  server.on('tlsClientError', () => undefined);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    stats.connectionOpened();
    socket.once('close', () => {
      sockets.delete(socket);
      stats.connectionClosed();
    });
  });
  // Malformed requests and sockets torn down mid-request must never take the server down.
  server.on('clientError', (_error, socket: Socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address();
  const port = typeof bound === 'object' && bound ? bound.port : options.port;
  const boundAddress = typeof bound === 'object' && bound ? bound.address : options.host;
  options = { ...options, port };
  address = `${hostForUrl(options.host)}:${port}`;
  controlRule = new ServerAddressRule(options.host, port);

  let closing: Promise<void> | undefined;
  const emulator: RunningEmulator = {
    url: `${tls ? 'https' : 'http'}://${address}`,
    port,
    boundAddress,
    get options() {
      return Object.freeze({ ...options, registeredEmails: [...options.registeredEmails] });
    },
    setOptions(patchIn) {
      const patch = validateOptionsPatch({ ...patchIn });
      if (patch.host !== undefined && patch.host !== options.host) throw new Error('host cannot change while the emulator runs');
      if (patch.port !== undefined && patch.port !== 0 && patch.port !== port) throw new Error('port cannot change while the emulator runs');
      const next: EmulatorOptions = { ...options, ...patch, host: options.host, port };
      if ('publicBaseUrl' in patch && patch.publicBaseUrl === undefined) delete next.publicBaseUrl;
      next.registeredEmails = [...next.registeredEmails];
      if (CATALOG_SHAPING_KEYS.some((key) => next[key] !== options[key])) catalog = undefined;
      if (next.seed !== options.seed) faults.reseed(next.seed);
      options = next;
    },
    injectFault(filename, fault, times = 1) {
      if (!isDownloadFault(fault)) throw new Error(`unknown download fault "${String(fault)}"`);
      if (!Number.isInteger(times) || times < 1) throw new Error('times must be a positive integer');
      faults.inject(withoutGz(filename), fault, times);
    },
    injectFaults(filename, sequence) {
      const unknown = sequence.find((fault) => !isDownloadFault(fault));
      if (unknown !== undefined) throw new Error(`unknown download fault "${String(unknown)}"`);
      faults.injectSequence(withoutGz(filename), sequence);
    },
    clearFaults: () => faults.clearInjected(),
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    expireSessions: () => sessions.expireAll(),
    async fileBytes(instrument, filename) {
      const record = ctx.catalog().find(instrument, withoutGz(filename));
      if (!record) throw new Error(`the emulator has no ${instrument} file named ${filename}`);
      return fitsBytes(record, options);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        bodies.clear();
      });
      return closing;
    },
  };
  return emulator;
}

const withoutGz = (filename: string): string => (filename.endsWith('.gz') ? filename.slice(0, -3) : filename);

/** Wildcard listen addresses are not reachable as such; IPv6 literals need brackets in URLs. */
function hostForUrl(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

async function handleRequest(
  ctx: EmulatorContext,
  emulator: RunningEmulator,
  controlRule: ServerAddressRule,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  res.on('error', () => undefined); // writes racing a client that left must not surface as unhandled errors
  let closed = false;
  res.once('close', () => (closed = true));
  // Keep the target as sent (absolute-form only loses its scheme and authority): ids and queries stay untouched.
  const target = (req.url ?? '/').replace(/^https?:\/\/[^/]*/i, '') || '/';
  const queryAt = target.indexOf('?');
  const rawPath = queryAt < 0 ? target : target.slice(0, queryAt);
  const rawQuery = queryAt < 0 ? '' : target.slice(queryAt + 1);
  try {
    if (rawPath.startsWith('/__emulator/')) return await handleControl(emulator, controlRule, req, res, rawPath);
    ctx.stats.request();
    const { latencyMs } = ctx.options();
    if (latencyMs > 0) await sleep(latencyMs);
    if (closed) return;

    const route = matchRoute(rawPath);
    if (route.kind === 'not-found') return sendError(res, 404, route.message);
    if (req.method !== 'GET') return sendError(res, 405, `method ${req.method} not allowed; the API answers GET only`, { Allow: 'GET' });
    const query = new URLSearchParams(rawQuery);
    switch (route.kind) {
      case 'add-slash': {
        const location = `${requestOrigin(req, ctx.listenAddress())}${rawPath}/${rawQuery ? `?${rawQuery}` : ''}`;
        return sendJson(res, ctx.options().redirectStatus, { message: `moved to ${location}` }, { Location: location });
      }
      case 'about':
        return handleAbout(res);
      case 'instruments':
        return handleInstruments(res);
      case 'instrument':
        return handleInstrument(ctx, res, route.instrument);
      case 'products':
        return handleProducts(res, route.instrument);
      case 'product':
        return handleProduct(res, route.instrument, route.product);
      case 'files':
        return await handleFiles(ctx, req, res, query, route.instrument, route.product);
      case 'authenticate':
        return handleAuthenticate(ctx, res, query);
      case 'download':
        return await handleDownload(ctx, req, res, query);
    }
  } catch (error) {
    if (!res.headersSent) sendError(res, 500, `emulator error: ${(error as Error).message}`);
    else res.destroy();
  }
}
