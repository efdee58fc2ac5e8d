// The contract over Electron: every invoke channel has an ipcMain handler and a preload function, the
// handlers answer only the app's own page, and the preload passes nothing else through.
// The compiler already holds the contract's channel list to its interfaces (INVOKE_CHANNEL_SET) and the core's
// handler map to the list's every channel (ContractHandlers); the ipcMain handlers and the preload functions are
// made by looping over that list. So the sides are compared with the core's map, which is written channel by
// channel: a side that skips or adds a channel at run time, or a handler the core keeps for a channel the
// contract no longer names (a spread the compiler lets through), fails here.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_GLOBAL, EVENT_CHANNELS, INVOKE_CHANNELS, type InvokeChannel, type RawBridge, type Result } from '../../src-shared/contract/contract';
import { registerContractHandlers, type TrustedPage } from '../../src-main/electron/contract-ipc';
import { createChannelInvokers, createRawBridge } from '../../src-main/electron/preload-bridge';
import { coreHarness } from '../helpers/app-core-harness';
import { useEmulator } from '../helpers/fixtures';
import { fake, FakeWebContents, resetFakeElectron } from './fake-electron';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);

const rendererIndex = path.resolve('/opt/mlso/dist/renderer/index.html');
const appPage = `${pathToFileURL(rendererIndex).href}#/search`;

type Handler = (event: unknown, args: unknown) => Promise<Result<unknown>>;

/** The main window's web contents (the one sender trusted), made anew for each test. */
let mainContents: FakeWebContents;
beforeEach(() => {
  mainContents = new FakeWebContents();
});

function senderEvent(url: string, parent: unknown = null, sender: unknown = mainContents) {
  return { sender, senderFrame: { url, parent } };
}

function registeredHandlers(
  invoke = vi.fn(async (channel: InvokeChannel, args: unknown) => ({ ok: true as const, value: { channel, args } })),
  contents: () => FakeWebContents | null = () => mainContents,
) {
  registerContractHandlers(fake.ipcMain, invoke, { rendererIndex, contents: contents as unknown as TrustedPage['contents'] });
  return { invoke, handler: (channel: string) => fake.ipcMain.handlers.get(channel) as Handler | undefined };
}

/** What an untrusted sender gets: a refusal as data, saying who may use the app. */
const REFUSED = { ok: false, error: { kind: 'unsupported', message: 'Only the MLSO Downloader window may use the app.' } };

beforeEach(() => resetFakeElectron());

describe('every side has the channels of the core, each side made on its own', () => {
  const emulator = useEmulator({ imageSize: 8 });

  it("the contract's list, the ipcMain handlers and the preload functions name the core's handlers, no more, no fewer", async () => {
    const { core } = await coreHarness(emulator());
    try {
      const coreChannels = Object.keys(core.handlers).sort();
      expect(coreChannels.length).toBeGreaterThan(30);
      expect([...INVOKE_CHANNELS].sort(), 'the contract').toEqual(coreChannels);
      registeredHandlers();
      expect([...fake.ipcMain.handlers.keys()].sort(), 'ipcMain').toEqual(coreChannels);
      expect(Object.keys(createChannelInvokers(fake.ipcRenderer)).sort(), 'the preload').toEqual(coreChannels);
    } finally {
      await core.close();
    }
  });
});

describe('main process handlers', () => {
  it.each(INVOKE_CHANNELS)('%s reaches the core with its arguments', async (channel) => {
    const { handler } = registeredHandlers();
    await expect(handler(channel)?.(senderEvent(appPage), { probe: 1 })).resolves.toEqual({ ok: true, value: { channel, args: { probe: 1 } } });
  });

  it('refuse other pages, other files, frames inside the page and destroyed frames', async () => {
    const { invoke, handler } = registeredHandlers();
    const appInfo = handler('app:info');
    for (const event of [
      senderEvent('https://evil.example/'),
      senderEvent(pathToFileURL(path.resolve('/tmp/index.html')).href),
      senderEvent('file:///opt/mlso/dist/renderer/other.html'),
      senderEvent(appPage, { url: appPage }),
      { sender: mainContents, senderFrame: null },
    ]) {
      await expect(appInfo?.(event, undefined)).resolves.toEqual(REFUSED);
    }
    expect(invoke).not.toHaveBeenCalled();
  });

  it("refuse the app's page in any web contents but the main window's, and before the window exists", async () => {
    let current: FakeWebContents | null = null;
    const { invoke, handler } = registeredHandlers(undefined, () => current);
    const appInfo = handler('app:info');
    await expect(appInfo?.(senderEvent(appPage), undefined)).resolves.toEqual(REFUSED);
    current = mainContents;
    await expect(appInfo?.(senderEvent(appPage, null, new FakeWebContents()), undefined)).resolves.toEqual(REFUSED);
    expect(invoke).not.toHaveBeenCalled();
    await expect(appInfo?.(senderEvent(appPage), undefined)).resolves.toMatchObject({ ok: true });
    expect(invoke).toHaveBeenCalledOnce();
  });
});

describe('preload bridge', () => {
  it('has a function for every contract channel, each invoking its own channel', async () => {
    const invokers = createChannelInvokers(fake.ipcRenderer);
    for (const channel of INVOKE_CHANNELS) {
      fake.ipcRenderer.invoke.mockClear();
      await invokers[channel]({ probe: channel });
      expect(fake.ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith(channel, { probe: channel });
    }
  });

  it('forwards invokes and returns the main process result', async () => {
    fake.ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, value: { version: '1' } });
    const bridge = createRawBridge(fake.ipcRenderer);
    await expect(bridge.invoke('app:info', undefined)).resolves.toEqual({ ok: true, value: { version: '1' } });
  });

  it('refuses unknown channels without touching IPC', async () => {
    const bridge = createRawBridge(fake.ipcRenderer);
    for (const channel of ['evil:channel', 'electron-store-get-data', '__proto__', 'constructor', 'toString']) {
      const result = await bridge.invoke(channel, {});
      expect(result.ok).toBe(false);
    }
    expect(fake.ipcRenderer.invoke).not.toHaveBeenCalled();
  });

  it('turns an IPC failure into an error result instead of a rejection', async () => {
    fake.ipcRenderer.invoke.mockRejectedValueOnce(new Error("No handler registered for 'app:info'"));
    const result = await createRawBridge(fake.ipcRenderer).invoke('app:info', undefined);
    expect(result).toMatchObject({ ok: false, error: { kind: 'internal' } });
  });

  it('subscribes to contract events only, hands over the payload alone, and unsubscribes', () => {
    const bridge = createRawBridge(fake.ipcRenderer);
    const listener = vi.fn();
    for (const event of EVENT_CHANNELS) {
      fake.ipcRenderer.on.mockClear();
      const unsubscribe = bridge.on(event, listener);
      expect(fake.ipcRenderer.on).toHaveBeenCalledOnce();
      const [channel, forward] = fake.ipcRenderer.on.mock.calls[0] as [string, (event: unknown, payload: unknown) => void];
      expect(channel).toBe(event);
      forward({ sender: 'ipcRenderer itself' }, { payload: event });
      expect(listener).toHaveBeenLastCalledWith({ payload: event });
      expect(listener.mock.lastCall).toHaveLength(1);
      unsubscribe();
      expect(fake.ipcRenderer.removeListener).toHaveBeenLastCalledWith(event, forward);
    }
  });

  it('ignores subscriptions to anything else', () => {
    const bridge = createRawBridge(fake.ipcRenderer);
    const unsubscribe = bridge.on('electron-store-get-data', vi.fn());
    expect(fake.ipcRenderer.on).not.toHaveBeenCalled();
    expect(() => unsubscribe()).not.toThrow();
  });

  it('is what the preload exposes under the bridge name, and only that', async () => {
    await import('../../src-main/electron/preload');
    expect([...fake.exposed.keys()]).toEqual([BRIDGE_GLOBAL]);
    const exposed = fake.exposed.get(BRIDGE_GLOBAL) as RawBridge;
    expect(Object.keys(exposed).sort()).toEqual(['invoke', 'on']);
    expect(Object.isFrozen(exposed)).toBe(true);
    await exposed.invoke('settings:get', undefined);
    expect(fake.ipcRenderer.invoke).toHaveBeenCalledWith('settings:get', undefined);
  });
});
