// The current run's figures: what the status bar shows is the work queued since the queue was last idle, not every
// file the ledger ever held; once idle, the last run's result stays until new work arrives.
import { describe, expect, it, vi } from 'vitest';
import type { RunProgress } from '../../../src-shared/downloads/progress-types';
import { useEmulator } from '../../helpers/fixtures';
import { listing, useHarnesses } from './engine-harness';

const emulator = useEmulator({ imageSize: 64 });
const { harness, closeEarly } = useHarnesses(emulator);

const morning = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:05:00' }; // 20 files at 15 s

const ended = (figures: Partial<RunProgress>): Partial<RunProgress> => ({ queued: 0, active: 0, paused: 0, inProgress: false, ...figures });

describe('the current run', () => {
  it('counts only the files of the run in progress, not those finished in earlier runs', async () => {
    const files = await listing(emulator(), morning);
    const h = await harness({ concurrency: 2 });
    await h.engine.enqueue(files.slice(0, 5), h.folder);
    await h.engine.whenSettled();
    expect(h.engine.overall().run).toMatchObject(ended({ number: 1, total: 5, done: 5, failed: 0, cancelled: 0 }));

    emulator().setOptions({ bandwidthBytesPerSecond: 20_000 });
    await h.engine.enqueue(files.slice(5, 8), h.folder);
    const running = h.engine.overall();
    // The ledger still holds the five earlier files; the run is the three new ones.
    expect(running.total).toBe(8);
    expect(running.run).toMatchObject({ number: 2, total: 3, done: 0, inProgress: true });
    expect(running.run.queued + running.run.active).toBe(3);

    emulator().setOptions({ bandwidthBytesPerSecond: 0 });
    await h.engine.whenSettled();
    expect(h.engine.overall().run).toMatchObject(ended({ number: 2, total: 3, done: 3 }));
  });

  it('keeps the last result while idle, and starts a new run of just the retried file', async () => {
    // The engine's clock is fake (its timers and Date; the emulator's use timers/promises): an idle minute passes at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      const files = (await listing(emulator(), morning)).slice(0, 4);
      emulator().injectFault(files[1]!.filename, 'status-404');
      const h = await harness({ concurrency: 2 });
      await h.engine.enqueue(files, h.folder);
      await h.engine.whenSettled();
      expect(h.engine.overall().run).toMatchObject(ended({ number: 1, total: 4, done: 3, failed: 1 }));
      // Nothing happens meanwhile: the result stays as it was.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(h.engine.overall().run).toMatchObject(ended({ number: 1, total: 4, done: 3, failed: 1 }));

      expect(h.engine.retryFailed()).toBe(1);
      expect(h.engine.overall().run).toMatchObject({ number: 2, total: 1, done: 0, failed: 0, inProgress: true });
      await h.engine.whenSettled();
      expect(h.engine.overall().run).toMatchObject(ended({ number: 2, total: 1, done: 1, failed: 0 }));
      await closeEarly(h);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts a file retried within the run once, and a cancelled one out of what is left', async () => {
    const files = (await listing(emulator(), morning)).slice(0, 4);
    const h = await harness({ concurrency: 1 });
    h.engine.pauseAll();
    const { queued } = await h.engine.enqueue(files, h.folder);
    h.engine.cancel(queued[3]!);
    expect(h.engine.overall().run).toMatchObject({ number: 1, total: 4, queued: 3, cancelled: 1, inProgress: true });
    h.engine.retry(queued[3]!);
    h.engine.resumeAll();
    await h.engine.whenSettled();
    expect(h.engine.overall().run).toMatchObject(ended({ number: 1, total: 4, done: 4, cancelled: 0 }));
  });

  it('reports the bytes of the run, not of the engine’s whole life', async () => {
    const files = (await listing(emulator(), morning)).slice(0, 6);
    const h = await harness({ concurrency: 2 });
    await h.engine.enqueue(files.slice(0, 3), h.folder);
    await h.engine.whenSettled();
    const first = h.engine.overall();
    expect(first.run.bytesReceived).toBe(first.bytesReceived);
    await h.engine.enqueue(files.slice(3), h.folder);
    await h.engine.whenSettled();
    const second = h.engine.overall();
    expect(second.run.bytesReceived).toBeGreaterThan(0);
    expect(second.run.bytesReceived).toBe(second.bytesReceived - first.bytesReceived);
    expect(second.run.bytesWritten).toBe(second.bytesWritten - first.bytesWritten);
  });

  it('takes up the files left queued by an earlier session as a run of their own', async () => {
    const files = (await listing(emulator(), morning)).slice(0, 3);
    const first = await harness({ concurrency: 1 });
    await first.engine.enqueue(files.slice(0, 1), first.folder);
    await first.engine.whenSettled();
    first.engine.pauseAll();
    await first.engine.enqueue(files.slice(1), first.folder);
    await closeEarly(first);

    const second = await harness({ concurrency: 1 }, first.stateFolder);
    expect(second.engine.overall().run).toMatchObject({ number: 1, total: 2, queued: 2, done: 0, inProgress: true });
    second.engine.resumeAll();
    await second.engine.whenSettled();
    expect(second.engine.overall().run).toMatchObject(ended({ number: 1, total: 2, done: 2 }));
  });
});
