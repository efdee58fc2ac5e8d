// The renderer's one door to the outside world. In the desktop app the preload has put a RawBridge on
// `window.mlsoBridge`; in web mode (`mlso-dl web`) the same contract travels as JSON over a WebSocket to the
// page's own host. Everything else in the renderer sees only a typed ContractClient and a connection status.
import {
  BRIDGE_GLOBAL,
  type ArgsOf,
  type ContractClient,
  type EventChannel,
  type EventChannels,
  type InvokeChannel,
  type RawBridge,
  type Result,
  type ResultOf,
  type WebSocketClientMessage,
  type WebSocketServerMessage,
} from '../../src-shared/contract/contract';
import type { ErrorData } from '../../src-shared/errors';

/** `connecting`: the first attempt; `open`: calls go through; `reconnecting`: the link dropped or never came up. */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting';

export interface ApiClient extends ContractClient {
  readonly transport: 'bridge' | 'websocket';
  connectionStatus(): ConnectionStatus;
  onConnectionChange(listener: (status: ConnectionStatus) => void): () => void;
  /** Stops reconnecting and fails what is pending (used by tests and on page unload). */
  close(): void;
}

/** A RawBridge that also reports whether it is connected. */
interface StatusBridge extends RawBridge {
  status(): ConnectionStatus;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  close(): void;
}

const TOKEN_KEY = 'mlso-downloader.web-token';
const NOT_CONNECTED = 'Connection to MLSO Downloader lost; the request was not completed. Try again once it is back.';

/** Waits between reconnection attempts, in milliseconds: quick at first, then every few seconds. */
const RECONNECT_DELAYS_MS = [250, 500, 1000, 2000, 4000] as const;

function networkError(message: string): ErrorData {
  return { kind: 'network', message };
}

function isResult(value: unknown): value is Result<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  const candidate = value as { ok: unknown; error?: unknown };
  if (candidate.ok === true) return 'value' in candidate;
  return candidate.ok === false && typeof candidate.error === 'object' && candidate.error !== null;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Adds the contract's types to a raw bridge; the casts are the one place where the types are asserted. */
function typedClient(raw: StatusBridge, transport: ApiClient['transport']): ApiClient {
  return {
    transport,
    invoke<C extends InvokeChannel>(channel: C, ...args: ArgsOf<C> extends void ? [] : [ArgsOf<C>]) {
      return raw.invoke(channel, args[0]) as Promise<Result<ResultOf<C>>>;
    },
    on<E extends EventChannel>(event: E, listener: (payload: EventChannels[E]) => void) {
      return raw.on(event, listener as (payload: unknown) => void);
    },
    connectionStatus: () => raw.status(),
    onConnectionChange: (listener) => raw.onStatus(listener),
    close: () => raw.close(),
  };
}

/** The preload's bridge, guarded so that a throw or a malformed answer still arrives as a Result. */
function preloadBridge(bridge: RawBridge): StatusBridge {
  return {
    async invoke(channel, args) {
      try {
        const result: unknown = await bridge.invoke(channel, args);
        if (isResult(result)) return result;
        return { ok: false, error: { kind: 'internal', message: `The app answered "${channel}" in an unexpected shape.` } };
      } catch (error) {
        return { ok: false, error: { kind: 'internal', message: `The app could not handle "${channel}": ${errorText(error)}` } };
      }
    },
    on: (event, listener) => bridge.on(event, listener),
    status: () => 'open',
    onStatus: () => () => {},
    close: () => {},
  };
}

interface WebSocketBridgeOptions {
  url: string;
  /** Injected by tests; the browser's WebSocket otherwise. */
  WebSocketImpl?: typeof WebSocket;
  delaysMs?: readonly number[];
}

interface PendingInvoke {
  message: WebSocketClientMessage;
  sent: boolean;
  resolve: (result: Result<unknown>) => void;
}

/**
 * The contract over a WebSocket. Calls made while the socket is (re)connecting wait for it; when the socket
 * closes, every call still waiting fails as a network error (the server may or may not have acted on it, so
 * nothing is replayed), and the bridge reconnects with backoff.
 */
class WebSocketBridge implements StatusBridge {
  private socket: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, PendingInvoke>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly statusListeners = new Set<(status: ConnectionStatus) => void>();
  private current: ConnectionStatus = 'connecting';
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private readonly WebSocketImpl: typeof WebSocket;
  private readonly delays: readonly number[];
  /** A result whose file bytes come in the next (binary) frame; its call is answered when they arrive. */
  private awaitingBytes: { entry: PendingInvoke | undefined; result: Result<unknown> } | null = null;

  constructor(private readonly options: WebSocketBridgeOptions) {
    this.WebSocketImpl = options.WebSocketImpl ?? WebSocket;
    this.delays = options.delaysMs ?? RECONNECT_DELAYS_MS;
    this.connect();
  }

  invoke(channel: string, args: unknown): Promise<Result<unknown>> {
    if (this.closed) return Promise.resolve({ ok: false, error: networkError(NOT_CONNECTED) });
    return new Promise((resolve) => {
      const id = this.nextId++;
      const entry: PendingInvoke = { message: { type: 'invoke', id, channel, args }, sent: false, resolve };
      this.pending.set(id, entry);
      if (this.current === 'open') this.send(entry);
    });
  }

  on(event: string, listener: (payload: unknown) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  status(): ConnectionStatus {
    return this.current;
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.failPending('MLSO Downloader closed the connection.');
    this.socket?.close();
    this.socket = null;
  }

  private connect(): void {
    this.retryTimer = null;
    let socket: WebSocket;
    try {
      socket = new this.WebSocketImpl(this.options.url);
    } catch (error) {
      console.warn(`Could not open the connection to MLSO Downloader: ${errorText(error)}`);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.binaryType = 'arraybuffer';
    this.awaitingBytes = null;
    socket.onopen = () => {
      this.failures = 0;
      this.setStatus('open');
      for (const entry of this.pending.values()) if (!entry.sent) this.send(entry);
    };
    socket.onmessage = (event: MessageEvent) => this.receive(event.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.failPending(NOT_CONNECTED);
      if (!this.closed) this.scheduleReconnect();
    };
    // An error is always followed by close, which does the work.
    socket.onerror = () => {};
  }

  private scheduleReconnect(): void {
    this.setStatus('reconnecting');
    const delay = this.delays[Math.min(this.failures, this.delays.length - 1)] ?? 1000;
    this.failures += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private send(entry: PendingInvoke): void {
    try {
      this.socket?.send(JSON.stringify(entry.message));
      entry.sent = true;
    } catch (error) {
      this.pending.delete(entry.message.id);
      entry.resolve({ ok: false, error: networkError(`Could not send "${entry.message.channel}": ${errorText(error)}`) });
    }
  }

  private receive(data: unknown): void {
    if (data instanceof ArrayBuffer) {
      this.receiveBytes(new Uint8Array(data));
      return;
    }
    let message: WebSocketServerMessage;
    try {
      message = JSON.parse(String(data)) as WebSocketServerMessage;
    } catch {
      console.warn('Ignored a message from MLSO Downloader that is not JSON.');
      return;
    }
    if (message?.type === 'result') {
      const entry = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.binary === true && isResult(message.result) && message.result.ok) {
        // Its bytes are the next frame (even for a call no longer waited for: that frame must be taken off too).
        this.awaitingBytes = { entry, result: message.result };
        return;
      }
      if (!entry) return;
      entry.resolve(
        isResult(message.result)
          ? message.result
          : { ok: false, error: { kind: 'internal', message: `The app answered "${entry.message.channel}" in an unexpected shape.` } },
      );
    } else if (message?.type === 'event') {
      for (const listener of this.listeners.get(message.event) ?? []) listener(message.payload);
    }
  }

  private receiveBytes(bytes: Uint8Array): void {
    const awaiting = this.awaitingBytes;
    this.awaitingBytes = null;
    if (!awaiting?.entry || !awaiting.result.ok) return;
    const value = awaiting.result.value as Record<string, unknown>;
    awaiting.entry.resolve({ ok: true, value: { ...value, bytes } });
  }

  private failPending(message: string): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) entry.resolve({ ok: false, error: networkError(message) });
  }

  private setStatus(status: ConnectionStatus): void {
    if (status === this.current) return;
    this.current = status;
    for (const listener of this.statusListeners) listener(status);
  }
}

/**
 * The web mode's access token: it arrives once in the page address (`#token=…`), is moved to sessionStorage so a
 * reload still works, and is removed from the address so it stays out of the history and of copied links.
 */
export function takeWebToken(location: Location, history: History, storage: Storage): string | null {
  const match = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (match?.[1]) {
    const token = decodeURIComponent(match[1]);
    try {
      storage.setItem(TOKEN_KEY, token);
    } catch {
      // Storage can be disabled; the token still works for this page's lifetime.
    }
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    return token;
  }
  try {
    return storage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function webSocketUrl(location: Location, token: string | null): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${scheme}://${location.host}/ws${query}`;
}

function findBridge(host: Window): RawBridge | null {
  const candidate = (host as unknown as Record<string, unknown>)[BRIDGE_GLOBAL] as Partial<RawBridge> | undefined;
  if (candidate && typeof candidate.invoke === 'function' && typeof candidate.on === 'function') return candidate as RawBridge;
  return null;
}

export interface ApiClientOptions {
  host?: Window;
  WebSocketImpl?: typeof WebSocket;
  delaysMs?: readonly number[];
}

/** The client for this page: the preload's bridge when there is one, else the web mode's WebSocket. */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const host = options.host ?? window;
  const bridge = findBridge(host);
  if (bridge) return typedClient(preloadBridge(bridge), 'bridge');
  const token = takeWebToken(host.location, host.history, host.sessionStorage);
  const socket = new WebSocketBridge({
    url: webSocketUrl(host.location, token),
    ...(options.WebSocketImpl ? { WebSocketImpl: options.WebSocketImpl } : {}),
    ...(options.delaysMs ? { delaysMs: options.delaysMs } : {}),
  });
  return typedClient(socket, 'websocket');
}

/** Wraps an already typed ContractClient (a test fake) so it looks like a connected ApiClient. */
export function apiClientFrom(client: ContractClient): ApiClient {
  return {
    transport: 'bridge',
    invoke: client.invoke.bind(client),
    on: client.on.bind(client),
    connectionStatus: () => 'open',
    onConnectionChange: () => () => {},
    close: () => {},
  };
}
