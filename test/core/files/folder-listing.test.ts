// Web mode's folder chooser lists folders through the core: real temporary folders, hostile ones included (a link
// loop, a folder it cannot read, control characters in a name, thousands of entries, a FIFO and files).
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFolders, makeFolder } from '../../../src-main/core/files/folder-listing';
import { cappedListingText, FOLDER_LISTING_LIMIT } from '../../../src-shared/files/folder-listing';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'folder-listing-'));
  // Readable by the ordinary user the unreadable-folder case runs as.
  await chmod(root, 0o755);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const names = async (folder: string, options: Parameters<typeof listFolders>[1] = {}) =>
  (await listFolders(folder, options)).folders.map((entry) => entry.name);

/** Runs `work` with the rights of an ordinary user when the tests run as root (root reads every folder). */
async function asOrdinaryUser<T>(work: () => Promise<T>): Promise<T> {
  if (process.getuid?.() !== 0) return work();
  process.seteuid!(65534);
  try {
    return await work();
  } finally {
    process.seteuid!(0);
  }
}

describe('listFolders', () => {
  it('lists sub-folders sorted by name, numbers in order, without files, a FIFO or hidden folders', async () => {
    for (const name of ['b', 'A', 'c10', 'c9', '.hidden']) await mkdir(path.join(root, name));
    await writeFile(path.join(root, 'a-file.fts'), 'x');
    execFileSync('mkfifo', [path.join(root, 'a-fifo')]);
    const listing = await listFolders(root);
    expect(listing.folders.map((entry) => entry.name)).toEqual(['A', 'b', 'c9', 'c10']);
    expect(listing.folders[0]).toEqual({ name: 'A', label: 'A', path: path.join(root, 'A') });
    expect(listing).toMatchObject({ path: root, parent: path.dirname(root), total: 4, hidden: 1, problem: null });
    expect(await names(root, { showHidden: true })).toEqual(['.hidden', 'A', 'b', 'c9', 'c10']);
  });

  it('follows a link to a folder and leaves out a link loop and a link to a file', async () => {
    await mkdir(path.join(root, 'real'));
    await writeFile(path.join(root, 'file'), 'x');
    await symlink(path.join(root, 'real'), path.join(root, 'to-real'));
    await symlink(path.join(root, 'file'), path.join(root, 'to-file'));
    await symlink(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
    await symlink(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
    await symlink(path.join(root, 'self'), path.join(root, 'self'));
    expect(await names(root)).toEqual(['real', 'to-real']);
  });

  it('starts at the nearest existing parent of a missing folder, and at home for an empty or relative path', async () => {
    await mkdir(path.join(root, 'here'));
    expect((await listFolders(path.join(root, 'here', 'not', 'yet'))).path).toBe(path.join(root, 'here'));
    // A file in the way: its folder.
    await writeFile(path.join(root, 'here', 'file'), 'x');
    expect((await listFolders(path.join(root, 'here', 'file', 'below'))).path).toBe(path.join(root, 'here'));
    expect((await listFolders('', { home: root })).path).toBe(root);
    expect((await listFolders('relative/path', { home: root })).path).toBe(root);
    expect((await listFolders(undefined, { home: root })).path).toBe(root);
  });

  it('says a folder cannot be read, and still offers its parent', async () => {
    const locked = path.join(root, 'locked');
    await mkdir(path.join(locked, 'inside'), { recursive: true });
    await chmod(locked, 0o000);
    try {
      const listing = await asOrdinaryUser(() => listFolders(locked));
      expect(listing).toMatchObject({ path: locked, parent: root, folders: [], total: 0 });
      expect(listing.problem).toBe('This folder cannot be read (permission denied). Go Up or choose another folder.');
    } finally {
      await chmod(locked, 0o755);
    }
  });

  it('shows a name with control characters escaped and keeps the name itself as data', async () => {
    const name = 'evil\u001b[31m\u202egnp';
    await mkdir(path.join(root, name));
    const [entry] = (await listFolders(root)).folders;
    expect(entry).toEqual({ name, label: 'evil\\u001b[31m\\u202egnp', path: path.join(root, name) });
    expect((await stat(entry!.path)).isDirectory()).toBe(true);
  });

  it('caps thousands of folders and says how many there are', async () => {
    const count = 3_000;
    await Promise.all(Array.from({ length: count }, (_, index) => mkdir(path.join(root, `d${String(index).padStart(4, '0')}`))));
    const listing = await listFolders(root);
    expect(listing.folders).toHaveLength(FOLDER_LISTING_LIMIT);
    expect(listing.folders[0]!.name).toBe('d0000');
    expect(listing.total).toBe(count);
    expect(cappedListingText(listing)).toBe(`Showing the first ${FOLDER_LISTING_LIMIT} of 3,000 folders; type the path to reach the others.`);
  });
});

describe('makeFolder', () => {
  it('makes a folder of a safe name and answers its path', async () => {
    expect(await makeFolder(root, 'eclipse 2024')).toBe(path.join(root, 'eclipse 2024'));
    expect((await stat(path.join(root, 'eclipse 2024'))).isDirectory()).toBe(true);
  });

  it.each([
    ['../escape', 'a path separator'],
    ['..', '"." or ".."'],
    ['.hidden', 'starts with a dot'],
    ['bell\u0007', 'a control character'],
    ['nul', 'reserved by Windows'],
  ])('refuses the name %j as the downloads refuse it', async (name, reason) => {
    await expect(makeFolder(root, name)).rejects.toThrow(reason);
    expect(await names(root, { showHidden: true })).toEqual([]);
  });

  it('refuses a name that exists, and a parent that is not a full path', async () => {
    await mkdir(path.join(root, 'taken'));
    await expect(makeFolder(root, 'taken')).rejects.toThrow('"taken" already exists here. Choose another name.');
    await expect(makeFolder('relative', 'x')).rejects.toThrow('is not a full path');
  });
});
