// Updates as electron-updater fetches them, run in plain Node (Electron mocked, Node's HTTP in place of Electron's net)
// against a local feed serving latest-linux.yml and a stand-in .deb: an update found and fetched with its SHA-512
// checked, a file whose hash is not the feed's refused, no feed reachable said once, and the install on quit held back
// while downloads run.
import { createHash } from 'node:crypto';
import { request, type IncomingMessage, type RequestOptions } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UpdateKeeper } from '../../src-main/core/app/update-keeper';
import { oddServer } from '../helpers/fixtures';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);

const { DebUpdater } = await import('electron-updater');
// electron-updater's own downloader (which checks the SHA-512), sending its requests with Node's http in place of
// Electron's net, which needs the Electron binary.
const executorModule = 'electron-updater/out/electronHttpExecutor.js';
const { ElectronHttpExecutor } = (await import(executorModule)) as { ElectronHttpExecutor: new () => object };
class NodeNetExecutor extends ElectronHttpExecutor {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void) {
    return request(options, callback);
  }
}

const INSTALLER = Buffer.from('a stand-in for mlso-downloader_9.9.9_amd64.deb\n'.repeat(1000));
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

let folder: string;
let feed: Awaited<ReturnType<typeof oddServer>> | undefined;
let feedHash: string;
const requests: string[] = [];

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'mlso-updates-'));
  feedHash = sha512(INSTALLER);
  requests.length = 0;
  feed = await oddServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url?.startsWith('/latest-linux.yml')) {
      const file = 'mlso-downloader_9.9.9_amd64.deb';
      return res.end(
        `version: 9.9.9\nfiles:\n  - url: ${file}\n    sha512: ${feedHash}\n    size: ${INSTALLER.length}\npath: ${file}\nsha512: ${feedHash}\nreleaseDate: '2026-12-01T00:00:00.000Z'\n`,
      );
    }
    if (req.url === '/mlso-downloader_9.9.9_amd64.deb') return res.end(INSTALLER);
    res.writeHead(404).end();
  });
});

afterEach(async () => {
  await feed?.close();
  await rm(folder, { recursive: true, force: true });
});

/** electron-updater's Debian updater for an installed 1.0.0 whose app-update.yml names the local feed. */
async function debUpdater(feedUrl: string) {
  const config = path.join(folder, 'app-update.yml');
  await writeFile(config, `provider: generic\nurl: ${feedUrl}\nupdaterCacheDirName: mlso-downloader-updater\n`);
  const quitHandlers: ((exitCode: number) => void)[] = [];
  const updater = new DebUpdater(null, {
    version: '1.0.0',
    name: 'MLSO Downloader',
    isPackaged: true,
    appUpdateConfigPath: config,
    userDataPath: path.join(folder, 'profile'),
    baseCachePath: path.join(folder, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: (handler) => void quitHandlers.push(handler),
  });
  (updater as unknown as { httpExecutor: unknown }).httpExecutor = new NodeNetExecutor();
  updater.logger = null;
  const installs: string[] = [];
  // The install itself (pkexec dpkg -i) is the one step not run here.
  vi.spyOn(updater as unknown as { install: () => boolean }, 'install').mockImplementation(() => {
    installs.push('install');
    return true;
  });
  return { updater, quit: () => quitHandlers.forEach((handler) => handler(0)), installs };
}

function keeper(updater: ConstructorParameters<typeof UpdateKeeper>[0], state: { on: boolean; active: number }, warnings: string[]) {
  return new UpdateKeeper(updater, { updatesOn: () => state.on, activeDownloads: () => state.active, warn: (message) => warnings.push(message) });
}

describe('updates from the feed', () => {
  it('finds a newer version, fetches it with its SHA-512 checked, and installs it on quit when nothing downloads', async () => {
    const { updater, quit, installs } = await debUpdater(feed!.url);
    const warnings: string[] = [];
    const state = { on: true, active: 0 };
    const kept = keeper(updater, state, warnings);
    await kept.check();
    expect(warnings).toEqual([]);
    expect(kept.waitingVersion).toBe('9.9.9');
    expect(requests).toEqual(expect.arrayContaining([expect.stringMatching(/^\/latest-linux\.yml/), '/mlso-downloader_9.9.9_amd64.deb']));
    kept.beforeQuit();
    quit();
    expect(installs).toEqual(['install']);
  });

  it('holds the install back while downloads run, and checks nothing while the switch is off', async () => {
    const { updater, quit, installs } = await debUpdater(feed!.url);
    const state = { on: true, active: 0 };
    const kept = keeper(updater, state, []);
    await kept.check();
    state.active = 3;
    kept.beforeQuit();
    quit();
    expect(installs).toEqual([]);
    requests.length = 0;
    state.on = false;
    await kept.check();
    expect(requests).toEqual([]);
  });

  it('refuses an installer whose SHA-512 is not the one the feed names', async () => {
    feedHash = sha512(Buffer.from('another file'));
    const { updater, quit, installs } = await debUpdater(feed!.url);
    const warnings: string[] = [];
    const kept = keeper(updater, { on: true, active: 0 }, warnings);
    await kept.check();
    expect(kept.waitingVersion).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Could not update MLSO Downloader: sha512 checksum mismatch/);
    quit();
    expect(installs).toEqual([]);
  });

  it('says once that no feed can be reached, however many checks fail', async () => {
    const url = feed!.url;
    await feed!.close();
    feed = undefined;
    const { updater } = await debUpdater(url);
    const warnings: string[] = [];
    const kept = keeper(updater, { on: true, active: 0 }, warnings);
    await kept.check();
    await kept.check();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Could not update MLSO Downloader: .*ECONNREFUSED/);
    expect(warnings[0]).not.toContain('\n');
  });

  it('checks nothing in an unpackaged app (a development run has no feed)', async () => {
    const { startAppUpdates } = await import('../../src-main/electron/app-updates');
    expect(startAppUpdates({ updatesOn: () => true, activeDownloads: () => 0 })).toBeNull();
  });
});
