// The set-up every test of the whole desktop app shares (electron mocked by the test file itself): where the app's
// files would be, a fresh fake Electron and profile folder for each test, and the way out afterwards.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
import type { Result } from '../../src-shared/contract/contract';
import type { DesktopApp } from '../../src-main/electron/desktop-app';
import { fake, FakeBrowserWindow, resetFakeElectron } from './fake-electron';

export const DESKTOP_LOCATIONS = {
  preload: path.resolve('/opt/mlso/dist/electron/preload.cjs'),
  rendererIndex: path.resolve('/opt/mlso/dist/renderer/index.html'),
};
const appPageUrl = pathToFileURL(DESKTOP_LOCATIONS.rendererIndex).href;

/**
 * Registers the hooks: before each test a reset fake Electron whose userData is a new profile folder (its
 * `folder()`), after it the app `runningApp` gives quit, the SIGINT/SIGTERM listeners it added removed (the test
 * process must not keep them) and the profile deleted. Register it before the file's own hooks.
 */
export function useDesktopProfile(prefix: string, runningApp: () => DesktopApp | undefined): { folder: () => string } {
  let profile = '';
  let signalListeners: { SIGINT: Set<unknown>; SIGTERM: Set<unknown> };
  beforeEach(async () => {
    resetFakeElectron();
    profile = await mkdtemp(path.join(tmpdir(), prefix));
    fake.app.setPath('userData', profile);
    fake.app.setPath('downloads', path.join(profile, 'Downloads'));
    signalListeners = { SIGINT: new Set(process.listeners('SIGINT')), SIGTERM: new Set(process.listeners('SIGTERM')) };
  });
  afterEach(async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const listener of process.listeners(signal)) if (!signalListeners[signal].has(listener)) process.off(signal, listener);
    }
    const desktop = runningApp();
    if (desktop && !desktop.quitGuard.mayQuit) await desktop.quitGuard.requestQuit({ ask: false });
    await rm(profile, { recursive: true, force: true });
  });
  return { folder: () => profile };
}

/** An invoke as the app's page in the main window sends it (or as `sender`, any other web contents, would). */
export async function invokeFromPage(channel: string, args?: unknown, sender?: unknown): Promise<Result<unknown>> {
  const handler = fake.ipcMain.handlers.get(channel) as ((event: unknown, args: unknown) => Promise<Result<unknown>>) | undefined;
  if (!handler) throw new Error(`no handler for ${channel}`);
  const from = sender ?? FakeBrowserWindow.instances[0]?.webContents;
  if (from === undefined) throw new Error('no window');
  return handler({ sender: from, senderFrame: { url: appPageUrl, parent: null } }, args);
}
