// A download folder that turns read-only during a run (a drive remounted read-only, permissions taken away):
// its files fail with that reason in plain words and nothing half-written stays; the rest of the queue carries
// on, and once the folder can be written again a retry brings every file.
// The read-only folder is simulated through the engine's file-sink port: the tests may run as root, whom
// chmod does not stop, and mounting a read-only file system needs privileges a test should not take.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileSink, type OpenFileSink } from '../../../src-main/core/downloads/file-sink';
import { listFolder, temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { expectExactFolder, listing, useHarnesses } from './engine-harness';

const emulator = useEmulator({ imageSize: 64 });
const { harness } = useHarnesses(emulator);

/** Opens files as usual, except in `folder` while `refusing()` says so: there the file system refuses with `code`. */
function refusedWhile(refusing: () => boolean, folder: string, code = 'EROFS'): OpenFileSink {
  return async (file) => {
    if (refusing() && path.dirname(file) === folder) {
      throw Object.assign(new Error(`${code}: refused, open '${file}'`), { code, syscall: 'open', path: file });
    }
    return openFileSink(file);
  };
}

describe('a download folder that turns read-only', () => {
  it('fails its files with the reason in plain words, leaves nothing behind, and lets the rest of the queue arrive', async () => {
    const files = await listing(emulator(), { 'start-date': '2025-03-24T19:00:00', 'end-date': '2025-03-24T19:01:00' });
    const others = await listing(emulator(), { 'start-date': '2025-03-24T20:00:00', 'end-date': '2025-03-24T20:01:00' });
    const readOnlyFolder = await temporaryFolder();
    let readOnly = true;
    const h = await harness({ batchId: 'read-only', openSink: refusedWhile(() => readOnly, readOnlyFolder) });

    await h.engine.enqueue(files, readOnlyFolder);
    await h.engine.enqueue(others, h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');

    const failed = h.engine.jobs().filter((job) => job.folder === readOnlyFolder);
    expect(failed.map(({ state, attempts, lastErrorKind, lastError }) => ({ state, attempts, lastErrorKind, lastError }))).toEqual(
      files.map((file) => ({
        state: 'failed',
        // Asking the server again cannot help: not retried.
        attempts: 1,
        lastErrorKind: 'download',
        lastError: `Cannot write ${file.filename} into ${readOnlyFolder} (read-only file system). Choose a folder you can write to.`,
      })),
    );
    expect(await listFolder(readOnlyFolder)).toEqual([]);
    expect(h.engine.overall()).toMatchObject({ queuePaused: false, failed: files.length, done: others.length });
    await expectExactFolder(emulator(), h.folder, others);

    readOnly = false;
    expect(h.engine.retryFailed()).toBe(files.length);
    expect(await h.engine.whenSettled()).toBe('finished');
    await expectExactFolder(emulator(), readOnlyFolder, files);
  });

  // A path over the system's limit (a deep folder on Linux's 4,096 bytes, Windows' 260): asking the server again
  // cannot mend it, so the file fails at once with the reason instead of being retried as a dropped connection.
  it.each([
    ['ENAMETOOLONG', 'the path is too long'],
    ['EISDIR', 'a folder of that name is in the way'],
  ])('a file the system refuses with %s fails at once, in plain words', async (code, words) => {
    const files = await listing(emulator(), { 'start-date': '2025-03-24T19:00:00', 'end-date': '2025-03-24T19:00:30' });
    const refusingFolder = await temporaryFolder();
    const h = await harness({ batchId: `refused-${code}`, openSink: refusedWhile(() => true, refusingFolder, code) });
    await h.engine.enqueue(files, refusingFolder);
    expect(await h.engine.whenSettled()).toBe('finished');
    expect(h.engine.jobs().map(({ state, attempts, lastError }) => ({ state, attempts, lastError }))).toEqual(
      files.map((file) => ({
        state: 'failed',
        attempts: 1,
        lastError: `Cannot write ${file.filename} into ${refusingFolder} (${words}). Choose a folder you can write to.`,
      })),
    );
    expect(await listFolder(refusingFolder)).toEqual([]);
  });
});
