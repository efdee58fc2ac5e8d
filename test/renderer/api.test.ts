// The adapter: the preload's bridge when present, else the web mode's WebSocket with its token, reconnection
// and failure of pending calls.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import App from '../../src-renderer/shell/App.svelte';
import { createApiClient, takeWebToken, type ApiClient } from '../../src-renderer/lib/api';
import { BRIDGE_GLOBAL, type RawBridge, type WebSocketClientMessage, type WebSocketServerMessage } from '../../src-shared/contract/contract';
import { FakeContract, rawBridgeOf } from './fake-contract';

/** Stands in for the browser's WebSocket: records what is sent and lets the test open, answer and drop it. */
class FakeSocket {
  static instances: FakeSocket[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: string | ArrayBuffer }) => void) | null = null;
  binaryType = 'blob';
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly sent: WebSocketClientMessage[] = [];

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data) as WebSocketClientMessage);
  }

  close(): void {
    this.onclose?.({});
  }

  open(): void {
    this.onopen?.({});
  }

  reply(message: WebSocketServerMessage): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }

  replyBytes(bytes: Uint8Array): void {
    this.onmessage?.({ data: bytes.slice().buffer });
  }

  drop(): void {
    this.onerror?.({});
    this.onclose?.({});
  }

  static latest(): FakeSocket {
    const socket = FakeSocket.instances.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }
}

const SocketImpl = FakeSocket as unknown as typeof WebSocket;

function webClient(delaysMs: number[] = [100, 200, 400]): ApiClient {
  return createApiClient({ host: window, WebSocketImpl: SocketImpl, delaysMs });
}

const hostRecord = window as unknown as Record<string, unknown>;

beforeEach(() => {
  FakeSocket.instances = [];
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

afterEach(() => {
  delete hostRecord[BRIDGE_GLOBAL];
  vi.useRealTimers();
});

describe('bridge detection', () => {
  it('uses window.mlsoBridge when the preload put one there', async () => {
    const fake = new FakeContract();
    hostRecord[BRIDGE_GLOBAL] = rawBridgeOf(fake);
    const client = createApiClient({ host: window, WebSocketImpl: SocketImpl });
    expect(client.transport).toBe('bridge');
    expect(FakeSocket.instances).toHaveLength(0);
    const result = await client.invoke('catalog:products', { instrument: 'kcor' });
    expect(result.ok && result.value.map((product) => product.id)).toEqual(['pb', 'nrgf', 'pbavg', 'all']);
    expect(fake.callsTo('catalog:products')).toEqual([{ instrument: 'kcor' }]);
  });

  it('turns a throwing bridge into an error result instead of a rejection', async () => {
    const broken: RawBridge = {
      invoke: () => Promise.reject(new Error('Error invoking remote method')),
      on: () => () => {},
    };
    hostRecord[BRIDGE_GLOBAL] = broken;
    const result = await createApiClient({ host: window }).invoke('app:info');
    expect(result).toEqual({ ok: false, error: { kind: 'internal', message: expect.stringContaining('Error invoking remote method') } });
  });

  it('passes events from the bridge to listeners and lets them unsubscribe', () => {
    const fake = new FakeContract();
    hostRecord[BRIDGE_GLOBAL] = rawBridgeOf(fake);
    const client = createApiClient({ host: window });
    const seen: unknown[] = [];
    const off = client.on('downloads:queue-paused', (reason) => seen.push(reason));
    fake.emit('downloads:queue-paused', { kind: 'disk-full', message: 'No space left.' });
    off();
    fake.emit('downloads:queue-paused', null);
    expect(seen).toEqual([{ kind: 'disk-full', message: 'No space left.' }]);
  });

  it('falls back to the WebSocket when window.mlsoBridge is not a bridge', () => {
    hostRecord[BRIDGE_GLOBAL] = { invoke: 'nope' };
    expect(webClient().transport).toBe('websocket');
  });
});

describe('web token', () => {
  it('reads the token from the address once, removes it from the address and keeps it for reloads', () => {
    window.history.replaceState(null, '', '/index.html?x=1#token=s3cr%2Fet');
    const client = webClient();
    expect(FakeSocket.latest().url).toBe(`ws://${window.location.host}/ws?token=s3cr%2Fet`);
    expect(window.location.hash).toBe('');
    expect(window.location.search).toBe('?x=1');
    expect(sessionStorage.getItem('mlso-downloader.web-token')).toBe('s3cr/et');
    client.close();
    // A reload has no hash any more but still finds the token.
    expect(takeWebToken(window.location, window.history, sessionStorage)).toBe('s3cr/et');
  });

  it('connects without a token when there is none', () => {
    webClient();
    expect(FakeSocket.latest().url).toBe(`ws://${window.location.host}/ws`);
  });
});

describe('WebSocket transport', () => {
  it('sends invokes once open and resolves them with the matching result', async () => {
    const client = webClient();
    const socket = FakeSocket.latest();
    expect(client.connectionStatus()).toBe('connecting');
    const answer = client.invoke('catalog:products', { instrument: 'ucomp' });
    expect(socket.sent).toHaveLength(0);
    socket.open();
    expect(client.connectionStatus()).toBe('open');
    expect(socket.sent).toEqual([{ type: 'invoke', id: 1, channel: 'catalog:products', args: { instrument: 'ucomp' } }]);
    socket.reply({ type: 'result', id: 1, result: { ok: true, value: [{ id: 'l2', title: 'Level 2', description: '' }] } });
    await expect(answer).resolves.toEqual({ ok: true, value: [{ id: 'l2', title: 'Level 2', description: '' }] });
  });

  it('takes the bytes of a file from the binary frame that follows its result', async () => {
    const client = webClient();
    const socket = FakeSocket.latest();
    socket.open();
    expect(socket.binaryType).toBe('arraybuffer');
    const first = client.invoke('files:read', { id: 7 });
    const second = client.invoke('files:read', { id: 8 });
    socket.reply({ type: 'result', id: 1, result: { ok: true, value: { name: 'a.fts', bytes: null } }, binary: true });
    socket.replyBytes(new Uint8Array([1, 2, 3]));
    // A frame with no result waiting for it is dropped, and does not answer the next call.
    socket.replyBytes(new Uint8Array([9]));
    socket.reply({ type: 'result', id: 2, result: { ok: true, value: { name: 'b.fts', bytes: null } }, binary: true });
    socket.replyBytes(new Uint8Array([4, 5]));
    await expect(first).resolves.toEqual({ ok: true, value: { name: 'a.fts', bytes: new Uint8Array([1, 2, 3]) } });
    await expect(second).resolves.toEqual({ ok: true, value: { name: 'b.fts', bytes: new Uint8Array([4, 5]) } });
  });

  it('delivers server errors as data', async () => {
    const client = webClient();
    const socket = FakeSocket.latest();
    socket.open();
    const answer = client.invoke('session:sign-in', { email: 'x@y.z' });
    socket.reply({ type: 'result', id: 1, result: { ok: false, error: { kind: 'unknown-user', message: 'username x@y.z not found' } } });
    await expect(answer).resolves.toEqual({ ok: false, error: { kind: 'unknown-user', message: 'username x@y.z not found' } });
  });

  it('dispatches events to their listeners only', () => {
    const client = webClient();
    const socket = FakeSocket.latest();
    socket.open();
    const progress = vi.fn();
    const session = vi.fn();
    client.on('downloads:progress', progress);
    client.on('session:changed', session);
    socket.reply({ type: 'event', event: 'session:changed', payload: { signedIn: true, email: 'a@b.c', expiresAt: null } });
    expect(session).toHaveBeenCalledWith({ signedIn: true, email: 'a@b.c', expiresAt: null });
    expect(progress).not.toHaveBeenCalled();
  });

  it('fails pending invokes as network errors when the connection drops, then reconnects with backoff', async () => {
    vi.useFakeTimers();
    const client = webClient([100, 200, 400]);
    const statuses: string[] = [];
    client.onConnectionChange((status) => statuses.push(status));
    const first = FakeSocket.latest();
    first.open();
    const pending = client.invoke('downloads:snapshot');
    first.drop();
    await expect(pending).resolves.toEqual({ ok: false, error: { kind: 'network', message: expect.stringContaining('Connection to MLSO Downloader lost') } });
    expect(client.connectionStatus()).toBe('reconnecting');

    // First retry after 100 ms; it fails too, so the next waits 200 ms.
    vi.advanceTimersByTime(99);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.latest().drop();
    vi.advanceTimersByTime(199);
    expect(FakeSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(3);

    // Calls made while reconnecting wait for the socket and go out when it opens.
    const later = client.invoke('app:info');
    const third = FakeSocket.latest();
    third.open();
    expect(third.sent.map((message) => message.channel)).toEqual(['app:info']);
    third.reply({ type: 'result', id: third.sent[0]!.id, result: { ok: true, value: { version: '1' } } });
    await expect(later).resolves.toEqual({ ok: true, value: { version: '1' } });
    expect(statuses).toEqual(['open', 'reconnecting', 'open']);
  });

  it('ignores malformed messages and answers for unknown calls', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = webClient();
    const socket = FakeSocket.latest();
    socket.open();
    const answer = client.invoke('app:info');
    socket.onmessage?.({ data: 'not json' });
    socket.reply({ type: 'result', id: 99, result: { ok: true, value: 1 } });
    socket.reply({ type: 'result', id: 1, result: { ok: true, value: 'info' } });
    await expect(answer).resolves.toEqual({ ok: true, value: 'info' });
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('shows the reconnecting banner while the connection is down', async () => {
    const client = webClient([50]);
    render(App, { props: { client } });
    const socket = FakeSocket.latest();
    socket.open();
    expect(screen.queryByText('Connection to MLSO Downloader lost, reconnecting…')).toBeNull();
    socket.drop();
    await screen.findByText('Connection to MLSO Downloader lost, reconnecting…');
    await waitFor(() => expect(FakeSocket.instances).toHaveLength(2));
    FakeSocket.latest().open();
    await waitFor(() => expect(screen.queryByText('Connection to MLSO Downloader lost, reconnecting…')).toBeNull());
    // After reconnecting, the window asks for its state afresh.
    expect(FakeSocket.latest().sent.map((message) => message.channel)).toContain('downloads:page');
    client.close();
  });
});
