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

/** Opens files as usual, except in `folder` while `readOnly()` says so: there the file system refuses, as a read-only one does. */
function readOnlyWhile(readOnly: () => boolean, folder: string): OpenFileSink {
  return async (file) => {
    if (readOnly() && path.dirname(file) === folder) {
      throw Object.assign(new Error(`EROFS: read-only file system, open '${file}'`), { code: 'EROFS', errno: -30, syscall: 'open', path: file });
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
    const h = await harness({ batchId: 'read-only', openSink: readOnlyWhile(() => readOnly, readOnlyFolder) });

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
});
