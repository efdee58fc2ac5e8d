// The desktop app's proxy setting "system", with Electron mocked and everything else real: the app asks its
// session (session.resolveProxy, the system's settings or PAC script) for each address and sends the request
// through the proxy named, a real tinyproxy in front of the emulator.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { runDesktopApp, type DesktopApp } from '../../src-main/electron/desktop-app';
import { startForwardProxy, stopForwardProxies } from '../helpers/forward-proxy';
import { DESKTOP_LOCATIONS, invokeFromPage, useDesktopProfile } from './desktop-session';
import { fake } from './fake-electron';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);
vi.mock('electron-store', async () => ({ default: (await import('./conf-backed-store')).ConfBackedStore }));

let emulator: RunningEmulator;
let profile: string;
let desktop: DesktopApp | undefined;
const profileFolder = useDesktopProfile('mlso-electron-proxy-', () => desktop);

beforeAll(async () => {
  emulator = await createEmulator({ imageSize: 32 });
});
afterAll(async () => {
  await emulator.close();
});

beforeEach(() => {
  profile = profileFolder.folder();
});

afterEach(() => {
  stopForwardProxies();
});

describe('the desktop app with the proxy setting "system"', () => {
  it("asks its session for each address's proxy and goes through the one named", async () => {
    const proxy = await startForwardProxy();
    fake.resolveProxy.mockImplementation(async () => `PROXY 127.0.0.1:${proxy.port}; DIRECT`);
    await writeFile(path.join(profile, 'settings.json'), JSON.stringify({ baseUrl: emulator.url, proxy: 'system' }));
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    await expect(invokeFromPage('catalog:instruments')).resolves.toMatchObject({ ok: true });
    expect(fake.resolveProxy).toHaveBeenCalledWith(`${emulator.url}/v1/instruments`);
    expect(await proxy.requests()).toContain(`GET ${emulator.url}/v1/instruments HTTP/1.1`);
  });

  it('follows the system by default, as the browser beside it does', async () => {
    const proxy = await startForwardProxy();
    fake.resolveProxy.mockImplementation(async () => `PROXY 127.0.0.1:${proxy.port}`);
    await writeFile(path.join(profile, 'settings.json'), JSON.stringify({ baseUrl: emulator.url }));
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    await expect(invokeFromPage('settings:get')).resolves.toMatchObject({ ok: true, value: { proxy: 'system' } });
    await expect(invokeFromPage('catalog:instruments')).resolves.toMatchObject({ ok: true });
    expect(await proxy.requests()).toContain(`GET ${emulator.url}/v1/instruments HTTP/1.1`);
  });

  it('connects directly when the session answers DIRECT', async () => {
    const proxy = await startForwardProxy();
    await writeFile(path.join(profile, 'settings.json'), JSON.stringify({ baseUrl: emulator.url, proxy: 'system' }));
    desktop = await runDesktopApp(DESKTOP_LOCATIONS);
    await expect(invokeFromPage('catalog:instruments')).resolves.toMatchObject({ ok: true });
    expect(fake.resolveProxy).toHaveBeenCalled();
    expect(await proxy.requests()).toEqual([]);
  });
});
