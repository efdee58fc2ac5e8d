// Where the command line's code cache lives, what names it, and when it is written again (src-main/cli/launch/).
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cacheFileName,
  cacheFolder,
  decodeCachedCode,
  encodeCachedCode,
  shouldRewrite,
  writeCachedCode,
  type CompilerIdentity,
} from '../../src-main/cli/launch/compile-cache';

const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function temporaryFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'mlso-cache-test-'));
  folders.push(folder);
  return folder;
}

const linux = { platform: 'linux' as const, home: '/home/ann', uid: 1000 };
const identity: CompilerIdentity = { bundleHash: 'ab'.repeat(32), bundlePath: '/opt/mlso-dl/dist/cli/mlso-dl.cjs', nodeVersion: 'v20.19.0', arch: 'x64' };

describe('the compile cache', () => {
  it("lives in XDG_CACHE_HOME, else ~/.cache, or the platform's own cache folder", () => {
    expect(cacheFolder({ ...linux, env: { XDG_CACHE_HOME: '/var/cache/ann' } })).toBe('/var/cache/ann/mlso-dl');
    expect(cacheFolder({ ...linux, env: {} })).toBe('/home/ann/.cache/mlso-dl');
    // A relative XDG_CACHE_HOME is invalid (the XDG rule): ignored.
    expect(cacheFolder({ ...linux, env: { XDG_CACHE_HOME: 'cache' } })).toBe('/home/ann/.cache/mlso-dl');
    expect(cacheFolder({ ...linux, platform: 'darwin', env: {} })).toBe('/home/ann/Library/Caches/mlso-dl');
  });

  it('is named by the bundle, where it is, the Node version and the architecture', () => {
    const name = cacheFileName(identity);
    expect(name).toMatch(new RegExp(`^cli-${'ab'.repeat(8)}-[0-9a-f]{8}-node20\\.19\\.0-x64\\.v8cache$`));
    expect(cacheFileName({ ...identity, bundlePath: '/home/ann/project/node_modules/mlso-downloader/dist/cli/mlso-dl.cjs' })).not.toBe(name);
    expect(cacheFileName({ ...identity, bundleHash: 'cd'.repeat(32) })).not.toBe(name);
    expect(cacheFileName({ ...identity, nodeVersion: 'v20.20.0' })).not.toBe(name);
    expect(cacheFileName({ ...identity, arch: 'arm64' })).not.toBe(name);
  });

  it("keeps the newest few caches, and removes other builds' older ones and temporary files left behind", async () => {
    const folder = path.join(await temporaryFolder(), 'mlso-dl');

    const code = { data: Buffer.from('bytecode'), writerBytecodeBytes: 1 };
    const names = ['11', '22', '33', '44', '55'].map((hash) => cacheFileName({ ...identity, bundleHash: hash.repeat(32) }));
    const now = Date.now();
    for (const [index, name] of names.entries()) {
      expect(writeCachedCode(folder, name, code, process.getuid?.())).toBe(true);
      // Written a minute apart, the first the oldest.
      await utimes(path.join(folder, name), new Date(now - (10 - index) * 60_000), new Date(now - (10 - index) * 60_000));
    }
    await writeFile(path.join(folder, `.${names[0]}.123.456.tmp`), 'torn');
    await utimes(path.join(folder, `.${names[0]}.123.456.tmp`), new Date(now - 3_600_000), new Date(now - 3_600_000));
    const newest = cacheFileName({ ...identity, bundleHash: '66'.repeat(32) });
    expect(writeCachedCode(folder, newest, code, process.getuid?.())).toBe(true);
    expect((await readdir(folder)).sort()).toEqual([names[2], names[3], names[4], newest].sort());
  });

  it('reads back what it wrote, and nothing from damaged bytes', () => {
    const code = { data: Buffer.from('bytecode of the bundle'), writerBytecodeBytes: 1_234_567 };
    const bytes = encodeCachedCode(code);
    expect(decodeCachedCode(bytes)).toEqual(code);
    for (let index = 0; index < bytes.length; index++) {
      const damaged = Buffer.from(bytes);
      damaged[index]! ^= 0x01;
      // Bit flips in the size the writer compiled still decode, to a number; nowhere else.
      if (index >= 8 && index < 16) continue;
      expect(decodeCachedCode(damaged)).toBeUndefined();
    }
    expect(decodeCachedCode(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
    expect(decodeCachedCode(Buffer.alloc(0))).toBeUndefined();
  });

  it('is written when there is none V8 took, or when a run compiled a quarter more than the one that wrote it', () => {
    const found = { state: 'found' as const, code: { data: Buffer.alloc(1), writerBytecodeBytes: 1_000_000 } };
    expect(shouldRewrite({ state: 'missing' }, undefined, 10)).toBe(true);
    expect(shouldRewrite({ state: 'damaged' }, undefined, 10)).toBe(true);
    expect(shouldRewrite(found, true, 10)).toBe(true);
    expect(shouldRewrite(found, false, 1_200_000)).toBe(false);
    expect(shouldRewrite(found, false, 1_300_000)).toBe(true);
    // Never where someone else could change it.
    expect(shouldRewrite({ state: 'untrusted' }, undefined, 10_000_000)).toBe(false);
  });
});
