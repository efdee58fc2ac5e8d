// The desktop app's proxy setting "system", with Electron mocked and everything else real: the app asks its
// session (session.resolveProxy, the system's settings or PAC script) for each address and sends the request
// through the proxy named, a real tinyproxy in front of the emulator.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Result } from '../../src-shared/contract/contract';
import { createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { runDesktopApp, type DesktopApp } from '../../src-main/electron/desktop-app';
import { startForwardProxy, stopForwardProxies } from '../helpers/forward-proxy';
import { fake, FakeBrowserWindow, resetFakeElectron } from './fake-electron';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);
vi.mock('electron-store', async () => ({ default: (await import('./conf-backed-store')).ConfBackedStore }));

const locations = {
  preload: path.resolve('/opt/mlso/dist/electron/preload.cjs'),
  rendererIndex: path.resolve('/opt/mlso/dist/renderer/index.html'),
};

let emulator: RunningEmulator;
let profile: string;
let desktop: DesktopApp | undefined;
let signalListeners: { SIGINT: Set<unknown>; SIGTERM: Set<unknown> };

beforeAll(async () => {
  emulator = await createEmulator({ imageSize: 32 });
});
afterAll(async () => {
  await emulator.close();
});

beforeEach(async () => {
  resetFakeElectron();
  profile = await mkdtemp(path.join(tmpdir(), 'mlso-electron-proxy-'));
  fake.app.setPath('userData', profile);
  fake.app.setPath('downloads', path.join(profile, 'Downloads'));
  signalListeners = { SIGINT: new Set(process.listeners('SIGINT')), SIGTERM: new Set(process.listeners('SIGTERM')) };
});

afterEach(async () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) if (!signalListeners[signal].has(listener)) process.off(signal, listener);
  }
  if (desktop && !desktop.quitGuard.mayQuit) await desktop.quitGuard.requestQuit({ ask: false });
  desktop = undefined;
  stopForwardProxies();
  await rm(profile, { recursive: true, force: true });
});

async function invoke(channel: string, args?: unknown): Promise<Result<unknown>> {
  const handler = fake.ipcMain.handlers.get(channel) as ((event: unknown, args: unknown) => Promise<Result<unknown>>) | undefined;
  if (!handler) throw new Error(`no handler for ${channel}`);
  const sender = FakeBrowserWindow.instances[0]!.webContents;
  return handler({ sender, senderFrame: { url: pathToFileURL(locations.rendererIndex).href, parent: null } }, args);
}

describe('the desktop app with the proxy setting "system"', () => {
  it("asks its session for each address's proxy and goes through the one named", async () => {
    const proxy = await startForwardProxy();
    fake.resolveProxy.mockImplementation(async () => `PROXY 127.0.0.1:${proxy.port}; DIRECT`);
    await writeFile(path.join(profile, 'settings.json'), JSON.stringify({ baseUrl: emulator.url, proxy: 'system' }));
    desktop = await runDesktopApp(locations);
    await expect(invoke('catalog:instruments')).resolves.toMatchObject({ ok: true });
    expect(fake.resolveProxy).toHaveBeenCalledWith(`${emulator.url}/v1/instruments`);
    expect(await proxy.requests()).toContain(`GET ${emulator.url}/v1/instruments HTTP/1.1`);
  });

  it('follows the system by default, as the browser beside it does', async () => {
    const proxy = await startForwardProxy();
    fake.resolveProxy.mockImplementation(async () => `PROXY 127.0.0.1:${proxy.port}`);
    await writeFile(path.join(profile, 'settings.json'), JSON.stringify({ baseUrl: emulator.url }));
    desktop = await runDesktopApp(locations);
    await expect(invoke('settings:get')).resolves.toMatchObject({ ok: true, value: { proxy: 'system' } });
    await expect(invoke('catalog:instruments')).resolves.toMatchObject({ ok: true });
    expect(await proxy.requests()).toContain(`GET ${emulator.url}/v1/instruments HTTP/1.1`);
  });

  it('connects directly when the session answers DIRECT', async () => {
    const proxy = await startForwardProxy();
    await writeFile(path.join(profile, 'settings.json'), JSON.stringify({ baseUrl: emulator.url, proxy: 'system' }));
    desktop = await runDesktopApp(locations);
    await expect(invoke('catalog:instruments')).resolves.toMatchObject({ ok: true });
    expect(fake.resolveProxy).toHaveBeenCalled();
    expect(await proxy.requests()).toEqual([]);
  });
});
