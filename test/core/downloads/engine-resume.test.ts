// The engine resumes a transfer where it stopped (a pause, a dropped connection, a shut-down run picked up by the next)
// when the server serves byte ranges: the server's counters show the next attempt asked only for the rest, and the
// file is whole. What a cancelled or finally failed file kept goes, and a start removes what no job records.
import { readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isResumeFileName } from '../../../src-main/core/downloads/resume-file';
import { listFolder, useEmulator } from '../../helpers/fixtures';
import { waitFor } from '../../helpers/wait-for';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { expectExactFolder, listing, useHarnesses, type Harness } from './engine-harness';

const window = { 'start-date': '2025-03-24T20:00:00', 'end-date': '2025-03-24T20:01:00' };
// About 260 KB a file at 100 KB/s: a transfer lasts long enough to be stopped half-way.
const slow = useEmulator({ imageSize: 256, bandwidthBytesPerSecond: 100_000, bodyForm: 'gzip-body' });
const { harness, closeEarly } = useHarnesses(slow);

const keptIn = async (folder: string): Promise<string[]> => (await readdir(folder)).filter(isResumeFileName);

/** Queues one file of the window and waits until 40 KB of it have arrived; with `pause`, pauses it there. */
async function underWay(h: Harness, pause: boolean): Promise<{ file: FileEntry; id: number }> {
  const [file] = await listing(slow(), window);
  await h.engine.enqueue([file!], h.folder);
  const { id } = h.engine.jobs()[0]!;
  await waitFor(() => h.engine.jobs()[0]!.bytesReceived > 40_000, 'the transfer to be under way');
  if (pause) {
    h.engine.pause(id);
    await waitFor(() => h.ledger.get(id)!.state === 'paused', 'the file to be paused');
  }
  return { file: file!, id };
}

describe('resuming in the engine', () => {
  it('a file paused mid-transfer is paused, keeps what it received, and asks only for the rest when resumed', async () => {
    const h = await harness({ batchId: 'pause' });
    const { file, id } = await underWay(h, true);
    const paused = h.ledger.get(id)!;
    expect(paused.resume).not.toBeNull();
    const kept = (await stat(path.join(h.folder, paused.resume!.name))).size;
    expect(kept).toBeGreaterThan(40_000);
    expect(paused.resumeBytes).toBe(kept);
    expect(h.engine.jobs()[0]).toMatchObject({ state: 'paused', resumeBytes: kept });

    h.engine.resume(id);
    expect(await h.engine.whenSettled()).toBe('finished');
    expect(slow().stats().partialStartsByFile[file!.filename]).toEqual([kept]);
    await expectExactFolder(slow(), h.folder, [file!]);
    expect(h.ledger.get(id)).toMatchObject({ state: 'done', resume: null, resumeBytes: 0 });
  });

  it('a file paused on a server without byte ranges keeps nothing, and its view says what it had received', async () => {
    slow().setOptions({ byteRanges: false });
    const h = await harness({ batchId: 'no-ranges' });
    await underWay(h, true);
    const view = h.engine.jobs()[0]!;
    expect(view.resumeBytes).toBe(0);
    expect(view.bytesReceived).toBeGreaterThan(40_000);
    expect(await keptIn(h.folder)).toEqual([]);
  });

  it('a connection reset mid-body is retried from where it stopped', async () => {
    const h = await harness({ batchId: 'reset' });
    const [file] = await listing(slow(), window);
    slow().injectFault(file!.filename, 'reset');
    await h.engine.enqueue([file!], h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');
    const stats = slow().stats();
    expect(stats.downloadsByFile[file!.filename]).toBe(2);
    expect(stats.partialStartsByFile[file!.filename]).toEqual([expect.any(Number)]);
    expect(stats.partialStartsByFile[file!.filename]![0]).toBeGreaterThan(0);
    await expectExactFolder(slow(), h.folder, [file!]);
  });

  it('a run shut down mid-transfer (Ctrl-C) is resumed by the next run on the same state folder', async () => {
    const first = await harness({ batchId: 'run' });
    const { file } = await underWay(first, false);
    await closeEarly(first);
    const [keptName] = await keptIn(first.folder);
    expect(keptName).toBeDefined();
    const kept = (await stat(path.join(first.folder, keptName!))).size;

    const second = await harness({ batchId: 'run' }, first.stateFolder);
    expect(await second.engine.whenSettled()).toBe('finished');
    expect(slow().stats().partialStartsByFile[file!.filename]).toEqual([kept]);
    await expectExactFolder(slow(), first.folder, [file!]);
  });

  it('a file cancelled mid-transfer leaves nothing kept', async () => {
    const h = await harness({ batchId: 'cancel' });
    const { id } = await underWay(h, true);
    expect(await keptIn(h.folder)).toHaveLength(1);
    h.engine.cancel(id);
    await waitFor(async () => (await listFolder(h.folder)).length === 0, 'the resume file to go');
    expect(h.ledger.get(id)).toMatchObject({ state: 'cancelled', resume: null });
  });

  it('a start removes resume files no job records (older than ten minutes), and keeps recorded ones', async () => {
    const first = await harness({ batchId: 'litter' });
    const { id } = await underWay(first, true);
    const recorded = first.ledger.get(id)!.resume!.name;
    const orphan = '.lost.fts.0123abcd.resume';
    const young = '.young.fts.0123abcd.resume';
    await writeFile(path.join(first.folder, orphan), 'x');
    await writeFile(path.join(first.folder, young), 'x');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(path.join(first.folder, orphan), anHourAgo, anHourAgo);
    await utimes(path.join(first.folder, recorded), anHourAgo, anHourAgo);
    await closeEarly(first);

    await harness({ batchId: 'litter' }, first.stateFolder);
    expect((await keptIn(first.folder)).sort()).toEqual([recorded, young].sort());
  });
});
