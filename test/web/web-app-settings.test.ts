// `mlso-dl --base-url URL web`, `-o DIR` and `--demo` hold for that run only: a later plain start opens
// with the saved settings, not with a server that may be long gone.
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../src-shared/settings/settings-types';
import { startWebApp, type RunningWebApp, type WebAppOptions } from '../../src-main/web/web-app';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 32 });
const running: RunningWebApp[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()));
});

async function rendererFolder(): Promise<string> {
  const folder = await temporaryFolder();
  await writeFile(path.join(folder, 'index.html'), '<!doctype html><title>MLSO Downloader</title>');
  return folder;
}

async function start(stateFolder: string, overrides: Pick<WebAppOptions, 'downloadFolder' | 'server'> = {}): Promise<RunningWebApp> {
  const app = await startWebApp({ port: 0, stateFolder, rendererFolder: await rendererFolder(), version: '0.0.0-test', ...overrides });
  running.push(app);
  return app;
}

async function stop(app: RunningWebApp): Promise<void> {
  running.splice(running.indexOf(app), 1);
  await app.close();
}

/** A state folder whose saved settings point at the emulator and a folder of their own. */
async function savedState(): Promise<{ stateFolder: string; saved: Settings }> {
  const stateFolder = await temporaryFolder();
  const app = await start(stateFolder);
  const saved = await app.core.handlers['settings:update']({ baseUrl: emulator().url, downloadFolder: await temporaryFolder(), concurrency: 3 });
  await stop(app);
  return { stateFolder, saved };
}

describe('command-line overrides in web mode', () => {
  it('uses --base-url and --output-dir for the run without saving them, while other changes are saved', async () => {
    const { stateFolder, saved } = await savedState();
    const flagFolder = await temporaryFolder();
    const overridden = await start(stateFolder, { server: { baseUrl: 'http://127.0.0.1:9', useDemoServer: false }, downloadFolder: flagFolder });
    expect(await overridden.core.handlers['app:info']()).toMatchObject({ serverUrl: 'http://127.0.0.1:9' });
    expect(await overridden.core.handlers['settings:get']()).toMatchObject({ baseUrl: 'http://127.0.0.1:9', downloadFolder: flagFolder });
    await overridden.core.handlers['settings:update']({ concurrency: 7 });
    await stop(overridden);

    const plain = await start(stateFolder);
    expect(await plain.core.handlers['settings:get']()).toEqual({ ...saved, concurrency: 7 });
    expect(await plain.core.handlers['app:info']()).toMatchObject({ serverUrl: emulator().url });
  });

  it('saves the overridden field when the user changes it during the run', async () => {
    const { stateFolder, saved } = await savedState();
    const chosenFolder = await temporaryFolder();
    const overridden = await start(stateFolder, { server: { baseUrl: 'http://127.0.0.1:9' }, downloadFolder: await temporaryFolder() });
    await overridden.core.handlers['settings:update']({ downloadFolder: chosenFolder });
    await stop(overridden);

    const plain = await start(stateFolder);
    expect(await plain.core.handlers['settings:get']()).toEqual({ ...saved, downloadFolder: chosenFolder });
  });

  it('does not make the first run’s --output-dir the saved download folder', async () => {
    const stateFolder = await temporaryFolder();
    const flagFolder = await temporaryFolder();
    await stop(await start(stateFolder, { downloadFolder: flagFolder }));
    const plain = await start(stateFolder);
    expect((await plain.core.handlers['settings:get']()).downloadFolder).not.toBe(flagFolder);
  });

  it('starts a new installation on MLSO in the Downloads folder, wherever it was launched from', async () => {
    const app = await start(await temporaryFolder());
    expect((await app.core.handlers['settings:get']()).downloadFolder).toBe(path.join(homedir(), 'Downloads', 'MLSO'));
  });

  it('uses --demo for the run only', async () => {
    const { stateFolder, saved } = await savedState();
    const demo = await start(stateFolder, { server: { useDemoServer: true } });
    expect(await demo.core.handlers['app:info']()).toMatchObject({ serverKind: 'demo' });
    await stop(demo);
    const plain = await start(stateFolder);
    expect(await plain.core.handlers['app:info']()).toMatchObject({ serverKind: 'custom', serverUrl: emulator().url });
    expect(await plain.core.handlers['settings:get']()).toEqual(saved);
  });

  it('refuses an override that is not a valid setting, and the saved settings stay as they were', async () => {
    const { stateFolder, saved } = await savedState();
    await expect(start(stateFolder, { server: { baseUrl: 'ftp://example.org' } })).rejects.toThrow(/not an http or https address/);
    const plain = await start(stateFolder);
    expect(await plain.core.handlers['settings:get']()).toEqual(saved);
  });
});
