// The built mlso-dl keeps V8's code cache of its bundle in the user's cache folder (src-main/cli/launch/): written by
// a first run, private to the user, taken by V8 in the next run, ignored when damaged or when others could change it,
// and never a change to what the command prints. NODE_DEBUG=mlso-dl-compile-cache makes the launcher say what it did.
// Needs the built command line (node scripts/build-main.mjs).
import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator();

interface Run {
  status: number | null;
  stdout: string;
  /** The launcher's lines about the cache (NODE_DEBUG), without the process id. */
  cache: string[];
}

/** Runs `mlso-dl ARGS | cat` in bash with XDG_CACHE_HOME set: its stdout a real pipe, as in a shell. */
function runPiped(cacheHome: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, command = bin): Promise<Run> {
  const script = '"$@" | cat; exit "${PIPESTATUS[0]}"';
  const child = spawn('bash', ['-c', script, 'bash', process.execPath, command, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CACHE_HOME: cacheHome, NODE_DEBUG: 'mlso-dl-compile-cache', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (status) => {
      const cache = stderr.split('\n').flatMap((line) => /^MLSO-DL-COMPILE-CACHE \d+: (.*)$/.exec(line)?.[1] ?? []);
      resolve({ status, stdout, cache });
    }),
  );
}

async function cacheFiles(cacheHome: string): Promise<string[]> {
  return (await readdir(path.join(cacheHome, 'mlso-dl'))).map((name) => path.join(cacheHome, 'mlso-dl', name));
}

describe("the command line's compile cache", () => {
  it('a first run writes it, private to the user; the next takes it (V8 accepts it); the output is the same', async () => {
    const cacheHome = await temporaryFolder();
    const first = await runPiped(cacheHome, ['--version']);
    expect(first.status).toBe(0);
    expect(first.cache).toEqual([expect.stringMatching(/mlso-dl\/cli-[0-9a-f]{16}-[0-9a-f]{8}-node[\d.]+-\w+\.v8cache: missing$/), 'written']);
    const [file, ...others] = await cacheFiles(cacheHome);
    expect(others).toEqual([]);
    expect((await stat(path.join(cacheHome, 'mlso-dl'))).mode & 0o777).toBe(0o700);
    expect((await stat(file!)).mode & 0o777).toBe(0o600);

    const second = await runPiped(cacheHome, ['--version']);
    expect(second.status).toBe(0);
    expect(second.cache).toEqual([expect.stringMatching(/: accepted$/)]);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stdout).toMatch(/^mlso-dl \d+\.\d+\.\d+\n$/);
  });

  it('a command that asks the server gives the same output through a pipe with the cache as without it', async () => {
    const cacheHome = await temporaryFolder();
    const args = ['--base-url', emulator().url, 'instruments', '--json'];
    const without = await runPiped(cacheHome, args, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(without.status).toBe(0);
    expect(without.cache).toEqual([expect.stringMatching(/: off$/)]);
    await expect(readdir(cacheHome)).resolves.toEqual([]);
    const first = await runPiped(cacheHome, args);
    const second = await runPiped(cacheHome, args);
    expect(first.cache).toEqual([expect.stringMatching(/: missing$/), 'written']);
    expect(second.cache).toEqual([expect.stringMatching(/: accepted$/)]);
    expect(JSON.parse(without.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'kcor' })]));
    expect(first.stdout).toBe(without.stdout);
    expect(second.stdout).toBe(without.stdout);
  });

  it('a damaged cache is ignored and written again', async () => {
    const cacheHome = await temporaryFolder();
    const first = await runPiped(cacheHome, ['--version']);
    const [file] = await cacheFiles(cacheHome);
    const bytes = await readFile(file!);
    // One byte of V8's data changed: the length and V8's own header still look right.
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    await writeFile(file!, bytes);
    const damaged = await runPiped(cacheHome, ['--version']);
    expect(damaged.status).toBe(0);
    expect(damaged.stdout).toBe(first.stdout);
    expect(damaged.cache).toEqual([expect.stringMatching(/: damaged$/), 'written']);
    await writeFile(file!, bytes.subarray(0, 100));
    const truncated = await runPiped(cacheHome, ['--version']);
    expect(truncated.cache).toEqual([expect.stringMatching(/: damaged$/), 'written']);
    const after = await runPiped(cacheHome, ['--version']);
    expect(after.cache).toEqual([expect.stringMatching(/: accepted$/)]);
  });

  it('a cache folder that others can write to is neither read nor written', async () => {
    const cacheHome = await temporaryFolder();
    const first = await runPiped(cacheHome, ['--version']);
    const [file] = await cacheFiles(cacheHome);
    const before = await readFile(file!);
    await chmod(path.join(cacheHome, 'mlso-dl'), 0o777);
    const open = await runPiped(cacheHome, ['--version']);
    expect(open.status).toBe(0);
    expect(open.stdout).toBe(first.stdout);
    expect(open.cache).toEqual([expect.stringMatching(/: untrusted$/)]);
    // A cache file others can write to, in a private folder: the same.
    await chmod(path.join(cacheHome, 'mlso-dl'), 0o700);
    await chmod(file!, 0o666);
    const writable = await runPiped(cacheHome, ['--version']);
    expect(writable.cache).toEqual([expect.stringMatching(/: untrusted$/)]);
    expect(await readFile(file!)).toEqual(before);
  });

  it("is not taken by the same build installed elsewhere: V8 would name the other install's file in coverage and stacks", async () => {
    // Two installs of one version (a global one and a project's) build the same bundle. A cache holds the name of the
    // file it was compiled from, and V8 keeps that name when it takes the cache: V8's coverage, and a stack trace,
    // named the other install's file (found by the start-up test in CI, whose cache a run in another checkout wrote).
    const cacheHome = await temporaryFolder();
    const copy = await temporaryFolder();
    const project = path.resolve(path.dirname(bin), '..');
    await mkdir(path.join(copy, 'dist'));
    await cp(path.join(project, 'bin'), path.join(copy, 'bin'), { recursive: true });
    await cp(path.join(project, 'dist', 'cli'), path.join(copy, 'dist', 'cli'), { recursive: true });
    await cp(path.join(project, 'package.json'), path.join(copy, 'package.json'));
    await symlink(path.join(project, 'node_modules'), path.join(copy, 'node_modules'));
    const elsewhere = await runPiped(cacheHome, ['--version'], {}, path.join(copy, 'bin', 'mlso-dl.js'));
    expect(elsewhere.cache).toEqual([expect.stringMatching(/: missing$/), 'written']);
    const here = await runPiped(cacheHome, ['--version']);
    expect(here.status).toBe(0);
    expect(here.cache).toEqual([expect.stringMatching(/: missing$/), 'written']);
    expect(here.stdout).toBe(elsewhere.stdout);
    expect(await cacheFiles(cacheHome)).toHaveLength(2);
  });
});
