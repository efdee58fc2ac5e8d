// Every paused or interrupted transfer keeps what arrived, whatever its size: a KCor file (1024 x 1024, some 2.7 MB
// as sent) paused part-way resumes from there, with the app's own settings. The server's counters show the resumed
// attempt asked only for the rest, and the paused row's figures are the bytes it resumes from.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../../helpers/fixtures';
import { waitFor } from '../../helpers/wait-for';
import { expectExactFolder, listing, useHarnesses } from './engine-harness';

// At 1 MB/s a KCor body takes some 3 s: long enough to pause it past the half.
const emulator = useEmulator({ imageSize: 1024, bandwidthBytesPerSecond: 1_000_000, bodyForm: 'gzip-body' });
const { harness, closeEarly } = useHarnesses(emulator);
const window = { 'start-date': '2025-03-24T20:00:00', 'end-date': '2025-03-24T20:02:00' };

async function kcorFile() {
  const file = (await listing(emulator(), window)).find((each) => each.filesize > 0);
  if (!file) throw new Error('no file of the window has a listed size');
  expect(file.filesize).toBeGreaterThan(2_400_000);
  return file;
}

describe('a KCor-sized file cut short', () => {
  it('paused at 60 % keeps what arrived and, resumed, asks only for the rest', async () => {
    const file = await kcorFile();
    const h = await harness();
    await h.engine.enqueue([file], h.folder);
    const { id } = h.engine.jobs()[0]!;
    await waitFor(() => h.engine.jobs()[0]!.bytesReceived >= 0.6 * file.filesize, '60 % of the file to arrive');
    h.engine.pause(id);
    await waitFor(() => h.ledger.get(id)!.state === 'paused', 'the file to be paused');

    const paused = h.ledger.get(id)!;
    expect(paused.resume, 'a resume point for the paused file').not.toBeNull();
    const kept = (await stat(path.join(h.folder, paused.resume!.name))).size;
    expect(kept).toBeGreaterThanOrEqual(0.6 * file.filesize);
    expect(kept).toBeLessThan(file.filesize * 1.03);
    expect(h.engine.jobs()[0]).toMatchObject({ state: 'paused', bytesReceived: kept, resumeBytes: kept });

    h.engine.resume(id);
    expect(await h.engine.whenSettled()).toBe('finished');
    expect(emulator().stats().partialStartsByFile[file.filename]).toEqual([kept]);
    await expectExactFolder(emulator(), h.folder, [file]);
  });

  it('interrupted by a shut-down run (Ctrl-C, SIGTERM) is resumed by the next run from what arrived', async () => {
    const file = await kcorFile();
    const first = await harness({ batchId: 'run' });
    await first.engine.enqueue([file], first.folder);
    await waitFor(() => first.engine.jobs()[0]!.bytesReceived >= 0.3 * file.filesize, 'part of the file to arrive');
    await closeEarly(first);

    const second = await harness({ batchId: 'run' }, first.stateFolder);
    const left = second.ledger.list()[0]!;
    expect(left.resume, 'a resume point for the interrupted file').not.toBeNull();
    const kept = (await stat(path.join(first.folder, left.resume!.name))).size;
    expect(kept).toBeGreaterThanOrEqual(0.3 * file.filesize);
    expect(left.resumeBytes).toBe(kept);
    expect(await second.engine.whenSettled()).toBe('finished');
    expect(emulator().stats().partialStartsByFile[file.filename]).toEqual([kept]);
    await expectExactFolder(emulator(), first.folder, [file]);
  });
});
