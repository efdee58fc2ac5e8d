// Where the command line's compile cache lives, and when that folder may hold code (src-main/cli/launch/).
import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFolder, prepareCacheFolder } from '../../src-main/cli/launch/compile-cache';

const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function temporaryFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'mlso-cache-test-'));
  folders.push(folder);
  return folder;
}

const linux = { platform: 'linux' as const, home: '/home/ann' };
const uid = process.getuid?.();

describe('the compile cache folder', () => {
  it("lives in XDG_CACHE_HOME, else ~/.cache, or the platform's own cache folder", () => {
    expect(cacheFolder({ ...linux, env: { XDG_CACHE_HOME: '/var/cache/ann' } })).toBe('/var/cache/ann/mlso-dl');
    expect(cacheFolder({ ...linux, env: {} })).toBe('/home/ann/.cache/mlso-dl');
    // A relative XDG_CACHE_HOME is invalid (the XDG rule): ignored.
    expect(cacheFolder({ ...linux, env: { XDG_CACHE_HOME: 'cache' } })).toBe('/home/ann/.cache/mlso-dl');
    expect(cacheFolder({ ...linux, platform: 'darwin', env: {} })).toBe('/home/ann/Library/Caches/mlso-dl');
    expect(cacheFolder({ ...linux, platform: 'win32', env: { LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' } })).toMatch(/mlso-dl[\\/]Cache$/);
  });

  it('is made where it is missing, each new level private to the user', async () => {
    const home = await temporaryFolder();
    const folder = path.join(home, 'cache', 'mlso-dl');
    expect(prepareCacheFolder(folder, uid)).toBe('ready');
    for (const level of [path.join(home, 'cache'), folder]) expect((await stat(level)).mode & 0o777).toBe(0o700);
    expect(prepareCacheFolder(folder, uid)).toBe('ready');
  });

  it('is not used where others can write to it, or where it is a link or a file', async () => {
    const home = await temporaryFolder();
    const open = path.join(home, 'open');
    await mkdir(open, { mode: 0o700 });
    await chmod(open, 0o777);
    expect(prepareCacheFolder(open, uid)).toBe('untrusted');
    await chmod(open, 0o770);
    expect(prepareCacheFolder(open, uid)).toBe('untrusted');
    const own = path.join(home, 'own');
    await mkdir(own, { mode: 0o700 });
    await symlink(own, path.join(home, 'link'));
    expect(prepareCacheFolder(path.join(home, 'link'), uid)).toBe('untrusted');
    await writeFile(path.join(home, 'file'), '');
    expect(prepareCacheFolder(path.join(home, 'file'), uid)).toBe('untrusted');
    // Someone else's folder (here: owned by another uid than the one given).
    if (uid !== undefined) expect(prepareCacheFolder(own, uid + 1)).toBe('untrusted');
  });

  it('is unavailable, at once, where no folder can be made (under /proc, below a file)', async () => {
    expect(prepareCacheFolder('/proc/mlso-dl', uid)).toBe('unavailable');
    expect(prepareCacheFolder('/proc/self/cache/mlso-dl', uid)).toBe('unavailable');
    const home = await temporaryFolder();
    await writeFile(path.join(home, 'file'), '');
    expect(prepareCacheFolder(path.join(home, 'file', 'mlso-dl'), uid)).toBe('unavailable');
  });
});
