// A download folder (or state folder) that cannot be created or written is said plainly, naming the
// folder and what to do, before anything is queued.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { invokeHandler } from '../../../src-main/core/app/invoke-handler';
import { prepareDownloadFolder } from '../../../src-main/core/downloads/download-folder';
import { FolderAccessError } from '../../../src-main/core/folder-errors';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { coreHarness, type CoreHarness } from '../../helpers/app-core-harness';
import { listFolder, temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { completedSearch } from '../../helpers/kept-search';
import { listing, openHarness, useHarnesses } from './engine-harness';

const emulator = useEmulator({ imageSize: 64 });
const { harness } = useHarnesses(emulator);
const cores: CoreHarness[] = [];

afterEach(async () => {
  await Promise.all(cores.splice(0).map((h) => h.core.close()));
});

const window = { 'start-date': '2025-03-24T19:00:00', 'end-date': '2025-03-24T19:01:00' };

/** A path whose parent is a regular file: no one, root included, can make a folder there. */
async function folderUnderAFile(): Promise<string> {
  const file = path.join(await temporaryFolder(), 'notes.txt');
  await writeFile(file, 'a file, not a folder');
  return path.join(file, 'fits');
}

function failingMkdir(code: string): (folder: string) => Promise<never> {
  return async (folder) => {
    throw Object.assign(new Error(`${code}: mkdir '${folder}'`), { code, syscall: 'mkdir', path: folder });
  };
}

describe('a download folder that cannot be created', () => {
  it('under a regular file is refused with a message naming it, and nothing is queued', async () => {
    const files = await listing(emulator(), window);
    const folder = await folderUnderAFile();
    const h = await harness({ batchId: 'enotdir' });
    const error = await h.engine.enqueue(files, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolderAccessError);
    expect((error as Error).message).toBe(`Cannot create the download folder ${folder} (a file is in the way on its path). Choose a folder you can write to.`);
    expect(h.ledger.list()).toEqual([]);
    expect(emulator().stats().downloadsStarted).toBe(0);
  });

  const reasons: [code: string, words: string, next: string][] = [
    ['EROFS', 'read-only file system', 'Choose a folder you can write to.'],
    ['ENOENT', 'a folder on its path is missing', 'Choose a folder you can write to.'],
    ['EACCES', 'permission denied', 'Choose a folder you can write to.'],
    ['ENOSPC', 'the disk is full', 'Free some space or choose another folder.'],
  ];
  for (const [code, words, next] of reasons) {
    it(`for ${code} says so in plain words`, async () => {
      const files = await listing(emulator(), window);
      const folder = path.join(await temporaryFolder(), 'fits');
      const h = await harness({ batchId: code, makeFolder: failingMkdir(code) });
      const error = await h.engine.enqueue(files, folder).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FolderAccessError);
      expect((error as Error).message).toBe(`Cannot create the download folder ${folder} (${words}). ${next}`);
      expect(h.ledger.list()).toEqual([]);
    });
  }

  it('reaches the app as data with the same message', async () => {
    const h = await coreHarness(emulator());
    cores.push(h);
    await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    const { searchId } = await completedSearch(h.core.handlers, { instrument: 'kcor', product: 'pb', filters: window });
    const folder = await folderUnderAFile();
    const result = await invokeHandler(h.core.handlers, 'downloads:enqueue', { searchId, folder });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'download', message: `Cannot create the download folder ${folder} (a file is in the way on its path). Choose a folder you can write to.` },
    });
  });
});

describe('a state folder that cannot be created', () => {
  it('is refused with a message naming it', async () => {
    const stateFolder = await folderUnderAFile();
    const error = await openHarness(emulator(), {}, stateFolder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolderAccessError);
    expect((error as Error).message).toBe(
      `Cannot create the state folder ${stateFolder} (a file is in the way on its path). Make it writable, or use another --state-dir.`,
    );
  });
});

describe('preparing a download folder', () => {
  it('checks that the folder can be written once it exists, and says so when it cannot', async () => {
    const folder = path.join(await temporaryFolder(), 'never-made');
    // A file system that says it made the folder but did not: the write check is what notices.
    const error = await prepareDownloadFolder(folder, async () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolderAccessError);
    expect((error as Error).message).toBe(`Cannot write to the download folder ${folder} (a folder on its path is missing). Choose a folder you can write to.`);
  });

  it('makes the folder and its parents', async () => {
    const folder = path.join(await temporaryFolder(), 'a', 'b');
    await prepareDownloadFolder(folder);
    expect(await listFolder(path.dirname(folder))).toEqual(['b']);
  });
});
