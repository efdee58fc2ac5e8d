// The built mlso-dl keeps Node's compile cache in the user's cache folder (src-main/cli/launch/): written by a first
// run, private to the user, taken in the next run, used only for the exact bytes of the bundle on disk, never where
// others could change it, and never a change to what the command prints. NODE_DEBUG=mlso-dl-compile-cache makes the
// launcher say what it did, NODE_DEBUG_NATIVE=COMPILE_CACHE makes Node say what it did. Runs on the Node that runs
// the tests: run them on each Node to be covered. Needs the built command line (node scripts/build-main.mjs).
import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator();

interface Run {
  /** The exit status, or the signal's name if a signal ended the process. */
  status: number | string;
  stdout: string;
  /** The launcher's lines about the cache (NODE_DEBUG), without the process id. */
  cache: string[];
  /** Node's own lines about the cache (NODE_DEBUG_NATIVE). */
  node: string[];
}

/**
 * Runs `mlso-dl ARGS | cat` in bash with XDG_CACHE_HOME set: its stdout a real pipe, as in a shell. A run that does
 * not end by itself is killed after a while, so that a hang fails the test instead of outliving it.
 */
function runPiped(cacheHome: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, command = bin): Promise<Run> {
  const script = '"$@" | cat; exit "${PIPESTATUS[0]}"';
  const child = spawn('bash', ['-c', script, 'bash', process.execPath, command, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CACHE_HOME: cacheHome, NODE_DEBUG: 'mlso-dl-compile-cache', NODE_DEBUG_NATIVE: 'COMPILE_CACHE', ...env },
    timeout: 20_000,
    killSignal: 'SIGKILL',
  });
  child.on('error', () => undefined); // the exit status tells the test what went wrong
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      const lines = stderr.split('\n');
      const cache = lines.flatMap((line) => /^MLSO-DL-COMPILE-CACHE \d+: (.*)$/.exec(line)?.[1] ?? []);
      const node = lines.filter((line) => line.startsWith('[compile cache]'));
      resolve({ status: code ?? signal ?? 'unknown', stdout, cache, node });
    }),
  );
}

/**
 * Node's verdict on the bundle's cache in a run: 'accepted', 'rejected' or 'none' (no cache read or none there).
 * Node 24 says "V8 code cache for CommonJS FILE was accepted", Node 22 "cache for FILE was accepted".
 */
function verdictOnBundle(run: Run): string {
  const line = run.node.find((text) => / cache for (?:CommonJS )?\S+mlso-dl\.cjs was /.test(text));
  return /was (accepted|rejected)/.exec(line ?? '')?.[1] ?? 'none';
}

/** The built command line copied into a folder of its own (bin/, dist/cli/, package.json, node_modules linked). */
async function installedCopy(): Promise<{ bin: string; bundle: string }> {
  const copy = await temporaryFolder();
  const project = path.resolve(path.dirname(bin), '..');
  await mkdir(path.join(copy, 'dist'));
  await cp(path.join(project, 'bin'), path.join(copy, 'bin'), { recursive: true });
  await cp(path.join(project, 'dist', 'cli'), path.join(copy, 'dist', 'cli'), { recursive: true });
  await cp(path.join(project, 'package.json'), path.join(copy, 'package.json'));
  await symlink(path.join(project, 'node_modules'), path.join(copy, 'node_modules'));
  return { bin: path.join(copy, 'bin', 'mlso-dl.js'), bundle: path.join(copy, 'dist', 'cli', 'mlso-dl.cjs') };
}

/** The entries Node keeps (one per compiled file) in the cache folder's subfolders (one per Node version). */
async function cacheEntries(cacheHome: string): Promise<string[]> {
  const folder = path.join(cacheHome, 'mlso-dl');
  const entries: string[] = [];
  for (const version of await readdir(folder)) {
    for (const name of await readdir(path.join(folder, version))) entries.push(path.join(version, name));
  }
  return entries;
}

describe("the command line's compile cache", () => {
  it('an edit of the bundle that keeps its length runs the new code', async () => {
    const cacheHome = await temporaryFolder();
    const copy = await installedCopy();
    const first = await runPiped(cacheHome, ['--version'], {}, copy.bin);
    const second = await runPiped(cacheHome, ['--version'], {}, copy.bin);
    expect([first.status, second.status]).toEqual([0, 0]);
    expect(second.stdout).toMatch(/^mlso-dl \d+\.\d+\.\d+\n$/);
    // The cache is there and taken, so the edit below is what it has to notice.
    expect(verdictOnBundle(second)).toBe('accepted');
    const version = /^mlso-dl (\S+)\n$/.exec(second.stdout)![1]!;
    const edited = version.replace(/\d$/, (digit) => String((Number(digit) + 1) % 10));
    const source = await readFile(copy.bundle, 'latin1');
    expect(source.split(JSON.stringify(version))).toHaveLength(2);
    await writeFile(copy.bundle, source.replace(JSON.stringify(version), JSON.stringify(edited)), 'latin1');
    expect((await stat(copy.bundle)).size).toBe(source.length);
    const after = await runPiped(cacheHome, ['--version'], {}, copy.bin);
    expect(after.status).toBe(0);
    expect(after.stdout).toBe(`mlso-dl ${edited}\n`);
  });

  it('XDG_CACHE_HOME under /proc, where no folder can be made: the command ends at once, without a cache', async () => {
    for (const cacheHome of ['/proc', '/proc/self', '/proc/sys/fs']) {
      const run = await runPiped(cacheHome, ['--version']);
      expect(run.status, cacheHome).toBe(0);
      expect(run.stdout).toMatch(/^mlso-dl \d+\.\d+\.\d+\n$/);
      expect(run.cache).toEqual([`${cacheHome}/mlso-dl: unavailable`]);
    }
  });

  it('a first run writes it in a folder private to the user; the next takes it; the output is the same', async () => {
    const cacheHome = path.join(await temporaryFolder(), 'not-there-yet');
    const first = await runPiped(cacheHome, ['--version']);
    expect(first.status).toBe(0);
    expect(first.cache).toEqual([`${cacheHome}/mlso-dl: enabled`]);
    expect(verdictOnBundle(first)).toBe('none');
    for (const folder of [cacheHome, path.join(cacheHome, 'mlso-dl')]) expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect(await cacheEntries(cacheHome)).toHaveLength(1);
    const second = await runPiped(cacheHome, ['--version']);
    expect(second.status).toBe(0);
    expect(verdictOnBundle(second)).toBe('accepted');
    expect(second.stdout).toBe(first.stdout);
  });

  it('a command that asks the server gives the same output through a pipe with the cache as without it', async () => {
    const cacheHome = await temporaryFolder();
    const args = ['--base-url', emulator().url, 'instruments', '--json'];
    const without = await runPiped(cacheHome, args, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(without.status).toBe(0);
    expect(without.cache).toEqual(['off']);
    expect(await readdir(cacheHome)).toEqual([]);
    const first = await runPiped(cacheHome, args);
    const second = await runPiped(cacheHome, args);
    expect([verdictOnBundle(first), verdictOnBundle(second)]).toEqual(['none', 'accepted']);
    expect(JSON.parse(without.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'kcor' })]));
    expect(first.stdout).toBe(without.stdout);
    expect(second.stdout).toBe(without.stdout);
  });

  it('a cache folder that others can write to, or that is a link, is not used', async () => {
    const cacheHome = await temporaryFolder();
    const first = await runPiped(cacheHome, ['--version']);
    const folder = path.join(cacheHome, 'mlso-dl');
    await chmod(folder, 0o777);
    const open = await runPiped(cacheHome, ['--version']);
    expect(open.status).toBe(0);
    expect(open.stdout).toBe(first.stdout);
    expect(open.cache).toEqual([`${folder}: untrusted`]);
    expect(verdictOnBundle(open)).toBe('none');
    expect(open.node.filter((line) => line.includes('reading cache'))).toEqual([]);
    const linked = await temporaryFolder();
    await symlink(folder, path.join(linked, 'mlso-dl'));
    await chmod(folder, 0o700);
    const link = await runPiped(linked, ['--version']);
    expect(link.cache).toEqual([`${path.join(linked, 'mlso-dl')}: untrusted`]);
    expect(verdictOnBundle(link)).toBe('none');
  });

  it('the same build installed elsewhere has its own entry: V8 would name the other file in coverage and stacks', async () => {
    // Two installs of one version (a global one and a project's) build the same bundle. A cache holds the name of the
    // file it was compiled from, and V8 keeps that name when it takes the cache.
    const cacheHome = await temporaryFolder();
    const copy = await installedCopy();
    const elsewhere = await runPiped(cacheHome, ['--version'], {}, copy.bin);
    const here = await runPiped(cacheHome, ['--version']);
    expect([elsewhere.status, here.status]).toEqual([0, 0]);
    expect([verdictOnBundle(elsewhere), verdictOnBundle(here)]).toEqual(['none', 'none']);
    expect(here.stdout).toBe(elsewhere.stdout);
    expect(await cacheEntries(cacheHome)).toHaveLength(2);
  });
});
