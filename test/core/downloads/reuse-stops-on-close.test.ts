// Closing the engine (the app quitting, Ctrl-C on the command line) stops the reuse finder's hashing of an old copy
// at once: the enqueue under way fails with the close, and nothing is queued after it. An old copy can be gigabytes.
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { waitFor } from '../../helpers/wait-for';
import { listing, useHarnesses } from './engine-harness';

const emulator = useEmulator({ imageSize: 16 });
const { harness } = useHarnesses(emulator);
const window = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' };

/** Bytes this process has read so far (rchar of /proc/self/io). */
async function bytesRead(): Promise<number> {
  return Number(/^rchar: (\d+)$/m.exec(await readFile('/proc/self/io', 'utf8'))?.[1] ?? 0);
}

describe('reuse when the engine closes', () => {
  it('stops hashing an 8 GiB old copy within a second, and the enqueue fails with the close', { timeout: 60_000 }, async () => {
    const h = await harness();
    const [file] = await listing(emulator(), window);
    const old = await temporaryFolder();
    // A finished copy of the listed file in another folder, as the ledger has it: 8 GiB (sparse), to be hashed first.
    const targetPath = path.join(old, file!.filename);
    const size = 8 * 1024 ** 3;
    const handle = await open(targetPath, 'w');
    await handle.truncate(size);
    await handle.close();
    const [id] = h.ledger.insertMany([
      {
        url: file!.url,
        instrument: 'kcor',
        product: 'pb',
        dateObs: file!['date-obs'],
        filename: file!.filename,
        folder: old,
        targetPath,
        expectedSize: file!.filesize,
        batchId: null,
        state: 'active',
      },
    ]);
    h.ledger.markDone(id!, { sha256: 'ab'.repeat(32), bytesReceived: size, bytesWritten: size });

    const folder = await temporaryFolder();
    const before = await bytesRead();
    const enqueued = h.engine.enqueue([file!], folder);
    enqueued.catch(() => undefined);
    await waitFor(async () => (await bytesRead()) - before >= 256 * 1024 ** 2, 'the hashing of the old copy under way', 30_000);
    const closedAt = performance.now();
    await h.engine.close();
    await expect(enqueued).rejects.toThrow();
    const tookMs = performance.now() - closedAt;
    console.log(`enqueue ended ${Math.round(tookMs)} ms after the close`);
    expect(tookMs).toBeLessThan(1000);
    expect(h.ledger.list({ includeCleared: true }).filter((job) => job.folder === folder)).toEqual([]);
  });
});
