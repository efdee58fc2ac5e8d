// Reuse with --link from a folder whose files are relative symbolic links to the real ones (git-annex, DataLad): the
// real file whose bytes were checked is hard-linked, never the link (which would point nowhere from its new folder),
// so verify finds every file intact and the next sync has nothing to reuse again. A hard link that cannot be made
// (the folders on two file systems) becomes a copy, and the summary says so. The built mlso-dl, through a pipe.
import { lstat, mkdir, rename, rm, stat, symlink } from 'node:fs/promises';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { downloadArgs } from '../core/downloads/cli-process';
import { expectExactFolder, listing } from '../core/downloads/engine-harness';
import { runBuiltCli, runPiped } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 16 });
const window = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' };

/**
 * Turns a folder of downloaded files into a git-annex working tree: each file moved under .git/annex/objects and
 * replaced by a relative link to it. Returns the real files, by name.
 */
async function annexStyle(folder: string, names: readonly string[]): Promise<Map<string, string>> {
  const objects = new Map<string, string>();
  for (const name of names) {
    const objectFolder = path.join(folder, '.git', 'annex', 'objects', 'Xx', name);
    await mkdir(objectFolder, { recursive: true });
    const object = path.join(objectFolder, name);
    await rename(path.join(folder, name), object);
    await symlink(path.relative(folder, object), path.join(folder, name));
    objects.set(name, object);
  }
  return objects;
}

/** Each file of the folder is a regular file (not a link) with the inode of the real file of the same name. */
async function expectLinkedToRealFiles(folder: string, objects: ReadonlyMap<string, string>): Promise<void> {
  for (const [name, object] of objects) {
    const [placed, real] = await Promise.all([lstat(path.join(folder, name)), stat(object)]);
    expect(placed.isSymbolicLink(), `${name} is a symbolic link`).toBe(false);
    expect(placed.ino, name).toBe(real.ino);
  }
}

describe('--link from a folder of relative symbolic links (git-annex, DataLad)', () => {
  it('files --download --link hard-links the real files, whose bytes are the listed ones', async () => {
    const files = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const annex = await temporaryFolder();
    expect((await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder: annex, stateFolder }))).status).toBe(0);
    const objects = await annexStyle(
      annex,
      files.map((file) => file.filename),
    );
    emulator().resetStats();

    const second = await temporaryFolder();
    const run = await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder: second, stateFolder }, '--link'));
    expect(run.status, run.stderr).toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain(`${files.length} reused from ${annex};`);
    expect(emulator().stats().downloadsStarted).toBe(0);
    await expectLinkedToRealFiles(second, objects);
    await expectExactFolder(emulator(), second, files);
  });

  it('campaign sync --link: verify finds every file intact, and the next sync reuses nothing again', async () => {
    const files = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const annex = await temporaryFolder();
    expect((await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder: annex, stateFolder }))).status).toBe(0);
    const objects = await annexStyle(
      annex,
      files.map((file) => file.filename),
    );
    emulator().resetStats();

    const folder = path.join(await temporaryFolder(), 'mirror');
    const cli = (...args: string[]) => ['--base-url', emulator().url, 'campaign', ...args, '--state-dir', stateFolder];
    const range = ['-s', window['start-date'], '-e', window['end-date']];
    expect((await runBuiltCli(cli('create', 'mirror', '-i', 'kcor', '-p', 'pb', ...range, '--output-dir', folder))).status).toBe(0);
    const sync = await runPiped(cli('sync', 'mirror', '-u', DEMO_EMAIL, '--link', '--json'), 'cat');
    expect(sync.statuses, sync.stderr).toEqual([0, 0]);
    expect((JSON.parse(sync.output.toString()) as { reused: unknown }).reused).toEqual({ count: files.length, from: [annex] });
    await expectLinkedToRealFiles(folder, objects);

    const verify = await runBuiltCli(cli('verify', 'mirror', '--json'));
    expect(verify.status, verify.stdout).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ onDisk: files.length, missing: 0, changed: 0, problems: [] });
    const again = await runPiped(cli('sync', 'mirror', '-u', DEMO_EMAIL, '--link', '--json'), 'cat');
    expect(again.statuses).toEqual([0, 0]);
    expect((JSON.parse(again.output.toString()) as { reused: unknown }).reused).toEqual({ count: 0, from: [] });
    expect(emulator().stats().downloadsStarted).toBe(0);
  });
});

/** A folder on another file system than the temporary folders (/dev/shm is a tmpfs on Linux), if there is one. */
const otherFileSystem = ((): string | undefined => {
  try {
    return statSync('/dev/shm').dev === statSync(tmpdir()).dev ? undefined : mkdtempSync('/dev/shm/mlso-test-');
  } catch {
    return undefined;
  }
})();
afterAll(async () => {
  if (otherFileSystem) await rm(otherFileSystem, { recursive: true, force: true });
});

describe('--link across file systems', () => {
  it.skipIf(otherFileSystem === undefined)('copies the files instead of fetching them, and says they are copies and why', async () => {
    const files = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const first = await temporaryFolder();
    expect((await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder: first, stateFolder }))).status).toBe(0);
    emulator().resetStats();

    const second = path.join(otherFileSystem!, 'second');
    const text = await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder: second, stateFolder }, '--link'));
    expect(text.status, text.stderr).toBe(0);
    expect(`${text.stdout}${text.stderr}`).toContain(
      `${files.length} reused from ${first} (${files.length} copied, not linked: the folders are on different file systems);`,
    );
    expect(emulator().stats().downloadsStarted).toBe(0);
    await expectExactFolder(emulator(), second, files);
    const third = path.join(otherFileSystem!, 'third');
    const json = await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder: third, stateFolder }, '--link', '--json'));
    expect(json.status, json.stderr).toBe(0);
    // Linked where a link can be made: the second folder is on the third's file system.
    const { reused } = JSON.parse(json.stdout) as { reused: unknown };
    expect(reused).toEqual({ count: files.length, from: [second] });
    for (const { filename } of files) expect((await stat(path.join(third, filename))).ino).toBe((await stat(path.join(second, filename))).ino);
    await expectExactFolder(emulator(), third, files);
  });
});
