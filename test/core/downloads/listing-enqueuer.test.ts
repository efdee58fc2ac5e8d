// A listing taken into the queue chunk by chunk, as `files --download` streams it: names seen in an earlier chunk,
// the free-space check over everything taken so far, the progress views of new jobs, and a listing of 100,000.
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { InsufficientSpaceError } from '../../../src-main/core/downloads/disk-space';
import { isTemporaryName } from '../../../src-main/core/downloads/temporary-files';
import type { FileEntry } from '../../../src-shared/api/schemas';
import type { ProgressUpdate } from '../../../src-shared/downloads/progress-types';
import { useEmulator } from '../../helpers/fixtures';
import { listing, useHarnesses } from './engine-harness';
import { waitFor } from '../../helpers/wait-for';

const emulator = useEmulator({ imageSize: 8 });
const { harness } = useHarnesses(emulator);

const hour = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T19:00:00' }; // 240 files at 15 s

/** Listed sizes made known and equal, so a test can say exactly what fits. */
const sized = (files: readonly FileEntry[], filesize: number): FileEntry[] => files.map((file) => ({ ...file, filesize }));

describe('a listing taken in chunk by chunk', () => {
  it('queues each chunk as it comes, and a name already seen in an earlier chunk only once', async () => {
    const files = await listing(emulator(), hour);
    const h = await harness({ batchId: 'chunks' });
    h.engine.pauseAll();
    const enqueuer = await h.engine.openEnqueuer(h.folder);
    await enqueuer.add(files.slice(0, 100));
    expect(h.ledger.counts('chunks').queued).toBe(100);
    // The second chunk repeats ten names of the first (and one of its own).
    await enqueuer.add([...files.slice(90, 200), files[150]!]);
    await enqueuer.add(files.slice(200));

    expect(enqueuer.result.queued).toHaveLength(files.length);
    expect(new Set(enqueuer.result.queued).size).toBe(files.length);
    const jobs = h.ledger.list({ batchId: 'chunks' });
    expect(jobs.map((job) => job.filename).sort()).toEqual(files.map((file) => file.filename).sort());
  });

  it('checks free space over everything taken so far: the chunk that no longer fits is refused whole, nothing partial', async () => {
    const files = sized(await listing(emulator(), hour), 1000);
    // Room for 150 files at 1.5 x their listed size.
    const h = await harness({ batchId: 'space', freeSpace: async () => 150 * 1500 });
    h.engine.pauseAll();
    const enqueuer = await h.engine.openEnqueuer(h.folder);
    await enqueuer.add(files.slice(0, 100));
    await enqueuer.add(files.slice(100, 140));

    const error = await enqueuer.add(files.slice(140, 180)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientSpaceError);
    // The need counts every file taken so far with the refused chunk: 180 x 1500 bytes.
    expect((error as InsufficientSpaceError).neededBytes).toBe(180 * 1500);
    expect(
      h.ledger
        .list({ batchId: 'space' })
        .map((job) => job.filename)
        .sort(),
    ).toEqual(
      files
        .slice(0, 140)
        .map((file) => file.filename)
        .sort(),
    );
    expect(enqueuer.result.queued).toHaveLength(140);
    expect((await readdir(h.folder)).filter(isTemporaryName)).toEqual([]);

    // A smaller chunk that still fits after the refusal is taken: the refused one was not counted.
    await enqueuer.add(files.slice(140, 150));
    expect(h.ledger.counts('space').queued).toBe(150);
  });

  it('takes a batch when the free space is exactly 1.5 times its listed size, and refuses it one byte short', async () => {
    const files = sized((await listing(emulator(), hour)).slice(0, 10), 1000);
    const fits = await harness({ batchId: 'exact', freeSpace: async () => 15_000 });
    fits.engine.pauseAll();
    expect((await fits.engine.enqueue(files, fits.folder)).queued).toHaveLength(10);

    const short = await harness({ batchId: 'short', freeSpace: async () => 14_999 });
    short.engine.pauseAll();
    const error = await short.engine.enqueue(files, short.folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientSpaceError);
    expect(error).toMatchObject({ neededBytes: 15_000, freeBytes: 14_999 });
    expect(short.ledger.list({ batchId: 'short' })).toEqual([]);
  });

  it('describes newly queued jobs in progress updates exactly as the ledger would', async () => {
    const files = (await listing(emulator(), hour)).slice(0, 30);
    const h = await harness({ progressIntervalMs: 10 });
    h.engine.pauseAll();
    const updates: ProgressUpdate[] = [];
    h.engine.on('progress', (update) => updates.push(update));
    const enqueuer = await h.engine.openEnqueuer(h.folder);
    await enqueuer.add(files);
    const announcedJobs = () => new Map(updates.flatMap((update) => update.jobs).map((job) => [job.id, job]));
    await waitFor(() => enqueuer.result.queued.every((id) => announcedJobs().has(id)), 'every queued job to be announced');
    const announced = announcedJobs();
    expect([...announced.keys()].sort((a, b) => a - b)).toEqual([...enqueuer.result.queued].sort((a, b) => a - b));
    for (const job of h.engine.jobs()) expect(announced.get(job.id)).toEqual(job);
  });
});

describe('a listing of 100,000 files', () => {
  const big = useEmulator({ cadenceSeconds: 1, days: 9, imageSize: 8 });
  const { harness: bigHarness } = useHarnesses(big);

  it('is queued whole as it streams in: every entry once, none twice', async () => {
    const h = await bigHarness({ batchId: 'big' });
    h.engine.pauseAll();
    const enqueuer = await h.engine.openEnqueuer(h.folder);
    let chunks = 0;
    const { count } = await h.client.streamFiles({ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-16' } }, async (entries) => {
      chunks += 1;
      await enqueuer.add(entries);
    });

    expect(count).toBeGreaterThanOrEqual(100_000);
    expect(chunks).toBeGreaterThan(10);
    expect(enqueuer.result.queued).toHaveLength(count);
    expect(new Set(enqueuer.result.queued).size).toBe(count);
    expect(h.ledger.counts('big')).toMatchObject({ queued: count, active: 0, done: 0 });
  }, 120_000);
});
