import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { InsufficientSpaceError } from '../../../src-main/core/downloads/disk-space';
import { isTemporaryName } from '../../../src-main/core/downloads/temporary-files';
import type { ProgressUpdate } from '../../../src-shared/downloads/progress-types';
import { listFolder, useEmulator } from '../../helpers/fixtures';
import { diskThatFills } from '../../helpers/full-disk';
import { expectExactFolder, listing, useHarnesses } from './engine-harness';
import { sha256Hex } from '../../helpers/sha256';
import { waitFor } from '../../helpers/wait-for';

const emulator = useEmulator({ imageSize: 128 });
const { harness, closeEarly } = useHarnesses(emulator);

const morning = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:05:00' }; // 20 files at 15 s

describe('queue', () => {
  it('downloads every file, records its SHA-256, and never runs more than the concurrency limit', async () => {
    emulator().setOptions({ bandwidthBytesPerSecond: 400_000 });
    const files = await listing(emulator(), morning);
    expect(files.length).toBeGreaterThanOrEqual(18);
    const h = await harness({ concurrency: 3 });
    const result = await h.engine.enqueue(files, h.folder);
    expect(result.queued).toHaveLength(files.length);
    expect(await h.engine.whenSettled()).toBe('finished');
    await expectExactFolder(emulator(), h.folder, files);
    expect(emulator().stats().peakActiveDownloads).toBe(3);
    for (const job of h.ledger.list()) {
      expect(job.state).toBe('done');
      const bytes = await readFile(job.targetPath);
      expect(job.sha256).toBe(sha256Hex(bytes));
      expect(job.bytesWritten).toBe(bytes.length);
      expect(job.attempts).toBe(1);
    }
    expect(h.engine.overall()).toMatchObject({ total: files.length, done: files.length, failed: 0, queued: 0, active: 0 });
  });

  it('follows a change of concurrency while running', async () => {
    emulator().setOptions({ bandwidthBytesPerSecond: 300_000 });
    const files = await listing(emulator(), morning);
    const h = await harness({ concurrency: 1 });
    await h.engine.enqueue(files, h.folder);
    await waitFor(() => emulator().stats().downloadsStarted >= 1, 'the first download to start');
    expect(emulator().stats().peakActiveDownloads).toBe(1);
    h.engine.setConcurrency(5);
    await h.engine.whenSettled();
    expect(emulator().stats().peakActiveDownloads).toBe(5);
    await expectExactFolder(emulator(), h.folder, files);
  });

  it('moves a job to the front', async () => {
    emulator().setOptions({ bandwidthBytesPerSecond: 200_000 });
    const files = (await listing(emulator(), morning)).slice(0, 6);
    const h = await harness({ concurrency: 1 });
    h.engine.pauseAll();
    const { queued } = await h.engine.enqueue(files, h.folder);
    h.engine.moveToFront(queued.at(-1)!);
    h.engine.resumeAll();
    await h.engine.whenSettled();
    const order = h.ledger.list({ includeCleared: true }).sort((a, b) => a.startedAt!.localeCompare(b.startedAt!));
    expect(order[0]!.id).toBe(queued.at(-1));
  });

  it('emits progress at most ten times a second, with per-file bytes and overall figures', async () => {
    emulator().setOptions({ bandwidthBytesPerSecond: 250_000 });
    const files = await listing(emulator(), morning);
    const h = await harness({ concurrency: 4 });
    const updates: { at: number; update: ProgressUpdate }[] = [];
    h.engine.on('progress', (update) => updates.push({ at: performance.now(), update }));
    await h.engine.enqueue(files, h.folder);
    await h.engine.whenSettled();
    await waitFor(() => updates.at(-1)?.update.overall.done === files.length, 'the news of the last file');
    expect(updates.length).toBeGreaterThan(3);
    for (let i = 1; i < updates.length; i += 1) expect(updates[i]!.at - updates[i - 1]!.at).toBeGreaterThanOrEqual(90);
    const active = updates.flatMap((u) => u.update.jobs).filter((job) => job.state === 'active' && job.bytesReceived > 0);
    expect(active.length).toBeGreaterThan(0);
    expect(active.some((job) => job.bytesWritten > job.bytesReceived)).toBe(true);
    expect(updates.some((u) => u.update.overall.speed > 0 && u.update.overall.etaSeconds !== null)).toBe(true);
    const last = updates.at(-1)!.update.overall;
    expect(last).toMatchObject({ done: files.length, total: files.length });
    expect(last.bytesWritten).toBeGreaterThan(last.bytesReceived);
  });
});

describe('pause, resume, cancel, retry', () => {
  it('pauses and resumes everything', async () => {
    // The engine's clock is fake (its timers and Date; the emulator's throttle uses timers/promises), so a minute
    // of being paused passes at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      emulator().setOptions({ bandwidthBytesPerSecond: 150_000 });
      const files = await listing(emulator(), morning);
      const h = await harness({ concurrency: 4 });
      await h.engine.enqueue(files, h.folder);
      await waitFor(() => emulator().stats().downloadsStarted >= 4, 'four downloads to start');
      h.engine.pauseAll();
      expect(await h.engine.whenSettled()).toBe('paused');
      const paused = h.engine.overall();
      expect(paused.active).toBe(0);
      expect(paused.queuePaused).toBe(true);
      expect(paused.done).toBeLessThan(files.length);
      // Nothing partial is left while paused: no temporary file; what arrived is kept to resume from, each body recorded.
      const names = await listFolder(h.folder);
      expect(names.filter(isTemporaryName)).toEqual([]);
      const kept = h.ledger.list({ states: ['paused'] }).flatMap((job) => (job.resume ? [job.resume.name] : []));
      expect(names.filter((name) => name.startsWith('.'))).toEqual(kept.sort());
      // A minute paused: no worker asks for a file, none reaches the server.
      await waitFor(() => emulator().stats().activeDownloads === 0, 'the server to see the stopped transfers end');
      const started = emulator().stats().downloadsStarted;
      const claims = vi.spyOn(h.ledger, 'claimNext');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(claims).not.toHaveBeenCalled();
      expect(emulator().stats()).toMatchObject({ downloadsStarted: started, activeDownloads: 0 });
      h.engine.resumeAll();
      expect(await h.engine.whenSettled()).toBe('finished');
      await expectExactFolder(emulator(), h.folder, files);
      await closeEarly(h);
    } finally {
      vi.useRealTimers();
    }
  });

  it('pauses, resumes and cancels single files', async () => {
    emulator().setOptions({ bandwidthBytesPerSecond: 150_000 });
    const files = (await listing(emulator(), morning)).slice(0, 8);
    const h = await harness({ concurrency: 2 });
    const { queued } = await h.engine.enqueue(files, h.folder);
    const [first, , third, fourth] = queued;
    await waitFor(() => h.ledger.get(first!)!.state === 'active', 'the first file to start');
    h.engine.pause(first!); // active now
    h.engine.pause(third!); // still queued
    h.engine.cancel(fourth!);
    expect(h.ledger.get(third!)!.state).toBe('paused');
    expect(await h.engine.whenSettled()).toBe('finished');
    expect(h.ledger.get(first!)!.state).toBe('paused');
    expect(h.ledger.get(fourth!)!.state).toBe('cancelled');
    expect(await listFolder(h.folder)).not.toContain(files[3]!.filename);
    h.engine.resume(first!);
    h.engine.resume(third!);
    await h.engine.whenSettled();
    expect(h.ledger.get(first!)!.state).toBe('done');
    expect(h.ledger.get(third!)!.state).toBe('done');
    h.engine.retry(fourth!);
    await h.engine.whenSettled();
    await expectExactFolder(emulator(), h.folder, files);
    expect(h.engine.clearFinished()).toBe(files.length);
    expect(h.engine.jobs()).toEqual([]);
  });

  it('does not retry a 404, and retries failed files on request', async () => {
    const files = (await listing(emulator(), morning)).slice(0, 4);
    emulator().injectFault(files[1]!.filename, 'status-404');
    const h = await harness({ concurrency: 2 });
    await h.engine.enqueue(files, h.folder);
    await h.engine.whenSettled();
    const failed = h.ledger.list({ states: ['failed'] });
    expect(failed.map((job) => job.filename)).toEqual([files[1]!.filename]);
    expect(failed[0]!.attempts).toBe(1);
    expect(failed[0]!.lastError).toContain('404');
    expect(h.engine.retryFailed()).toBe(1);
    await h.engine.whenSettled();
    await expectExactFolder(emulator(), h.folder, files);
  });
});

describe('faults', () => {
  it('gets every file intact through 30% failures and mid-body resets', async () => {
    emulator().setOptions({ failureRate: 0.3, resetRate: 0.3, seed: 7 });
    const files = await listing(emulator(), { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:10:00' });
    const h = await harness({ concurrency: 6, maxAttempts: 12 });
    await h.engine.enqueue(files, h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');
    await expectExactFolder(emulator(), h.folder, files);
    const stats = emulator().stats();
    expect(stats.downloadsStarted).toBeGreaterThan(files.length);
    expect(stats.downloadsAborted).toBeGreaterThan(0);
    expect(h.ledger.list().some((job) => job.attempts > 1)).toBe(true);
  });

  it('retries truncated gzip streams and stalled reads', async () => {
    const files = (await listing(emulator(), morning)).slice(0, 3);
    emulator().injectFault(files[0]!.filename, 'truncate');
    emulator().injectFault(files[1]!.filename, 'stall');
    const h = await harness({ stallTimeoutMs: 200 });
    await h.engine.enqueue(files, h.folder);
    await h.engine.whenSettled();
    await expectExactFolder(emulator(), h.folder, files);
    expect(h.ledger.findByTarget(path.join(h.folder, files[0]!.filename))!.attempts).toBe(2);
    expect(h.ledger.findByTarget(path.join(h.folder, files[1]!.filename))!.attempts).toBe(2);
  });

  it("waits at least the server's Retry-After", async () => {
    const files = (await listing(emulator(), morning)).slice(0, 1);
    emulator().injectFault(files[0]!.filename, 'status-429');
    const h = await harness();
    const started = Date.now();
    await h.engine.enqueue(files, h.folder);
    await h.engine.whenSettled();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await expectExactFolder(emulator(), h.folder, files);
  });

  it('gives up after the configured number of attempts', async () => {
    const files = (await listing(emulator(), morning)).slice(0, 1);
    emulator().injectFault(files[0]!.filename, 'status-503', 10);
    const h = await harness({ maxAttempts: 3 });
    await h.engine.enqueue(files, h.folder);
    await h.engine.whenSettled();
    const [job] = h.ledger.list();
    expect(job).toMatchObject({ state: 'failed', attempts: 3 });
    expect(job!.lastError).toMatch(/503.*gave up after 3 attempts/);
    expect(await listFolder(h.folder)).toEqual([]);
  });
});

describe('session', () => {
  it('renews an expired session once for all workers and carries on', async () => {
    emulator().setOptions({ bandwidthBytesPerSecond: 200_000 });
    const files = await listing(emulator(), morning);
    const h = await harness({ concurrency: 6 });
    await h.engine.signIn();
    await h.engine.enqueue(files, h.folder);
    await waitFor(() => emulator().stats().downloadsStarted >= 6, 'every worker to start a download');
    emulator().expireSessions();
    expect(await h.engine.whenSettled()).toBe('finished');
    await expectExactFolder(emulator(), h.folder, files);
    // One sign-in at the start and one renewal, however many workers were refused at once.
    expect(emulator().stats().authentications).toBe(2);
  });

  it("honours the cookie's Expires and signs in again before it", async () => {
    emulator().setOptions({ sessionLifetimeSeconds: 1, bandwidthBytesPerSecond: 150_000 });
    const files = (await listing(emulator(), morning)).slice(0, 10);
    const h = await harness({ concurrency: 2 });
    await h.engine.enqueue(files, h.folder);
    await h.engine.whenSettled();
    await expectExactFolder(emulator(), h.folder, files);
    const stats = emulator().stats();
    expect(stats.authentications).toBeGreaterThan(1);
    emulator().setOptions({ sessionLifetimeSeconds: 86_400 });
  });

  it('pauses the queue when signing in is refused', async () => {
    const files = (await listing(emulator(), morning)).slice(0, 2);
    const h = await harness({ username: () => 'stranger@example.org' });
    await h.engine.enqueue(files, h.folder);
    expect(await h.engine.whenSettled()).toBe('paused');
    expect(h.engine.overall().pauseReason).toMatchObject({ kind: 'unknown-user' });
    // The file whose sign-in was refused waits in the queue; one stopped in flight by the pause shows as paused.
    expect(h.ledger.list({ states: ['queued', 'paused'] })).toHaveLength(2);
    expect(h.ledger.list({ states: ['queued'] }).length).toBeGreaterThanOrEqual(1);
  });
});

describe('disk', () => {
  it('pauses the whole queue on ENOSPC, leaves nothing partial, and resumes once there is room', async () => {
    const files = (await listing(emulator(), morning)).slice(0, 6);
    let full = true;
    const h = await harness({
      concurrency: 2,
      openSink: diskThatFills(() => full),
    });
    await h.engine.enqueue(files, h.folder);
    expect(await h.engine.whenSettled()).toBe('paused');
    const overall = h.engine.overall();
    expect(overall.pauseReason).toMatchObject({ kind: 'disk-full' });
    expect(overall.pauseReason!.message).toMatch(/is full/);
    expect(overall.failed).toBe(0);
    expect(await listFolder(h.folder)).toEqual([]);
    full = false;
    h.engine.resumeAll();
    expect(await h.engine.whenSettled()).toBe('finished');
    await expectExactFolder(emulator(), h.folder, files);
  });

  it('refuses a batch that will not fit before starting it', async () => {
    const files = await listing(emulator(), morning);
    const h = await harness({ freeSpace: async () => 10_000 });
    const error = await h.engine.enqueue(files, h.folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientSpaceError);
    expect((error as Error).message).toMatch(/need about .* but only 9\.8 KB is free/);
    expect(h.ledger.list()).toEqual([]);
  });
});

describe('files already there', () => {
  it('skips, overwrites or keeps both', async () => {
    const files = (await listing(emulator(), morning)).slice(0, 2);
    const first = await harness();
    await first.engine.enqueue(files, first.folder);
    await first.engine.whenSettled();
    const original = await readFile(path.join(first.folder, files[0]!.filename));

    // A fresh ledger sees complete files it did not write.
    const skip = await harness({ existingFiles: 'skip' });
    const skipped = await skip.engine.enqueue(files, first.folder);
    expect(skipped.skipped.map((s) => s.reason)).toEqual(['already in the folder', 'already in the folder']);

    const both = await harness({ existingFiles: 'keep-both' });
    await both.engine.enqueue(files, first.folder);
    await both.engine.whenSettled();
    const stem = files[0]!.filename.replace(/\.fts$/, '');
    expect(await listFolder(first.folder)).toContain(`${stem} (1).fts`);
    expect((await readFile(path.join(first.folder, `${stem} (1).fts`))).equals(original)).toBe(true);

    await writeFile(path.join(first.folder, files[1]!.filename), original.subarray(0, 5000)); // broken copy
    const over = await harness({ existingFiles: 'overwrite' });
    const overwritten = await over.engine.enqueue(files, first.folder);
    expect(overwritten.queued).toHaveLength(2);
    await over.engine.whenSettled();
    expect((await readFile(path.join(first.folder, files[1]!.filename))).equals(await emulator().fileBytes('kcor', files[1]!.filename))).toBe(true);
  });

  it('never fetches a finished file again, and re-queues one deleted from the folder', async () => {
    const files = (await listing(emulator(), morning)).slice(0, 3);
    const h = await harness();
    await h.engine.enqueue(files, h.folder);
    await h.engine.whenSettled();
    emulator().resetStats();
    const again = await h.engine.enqueue(files, h.folder);
    expect(again.skipped.map((s) => s.reason)).toEqual(['already downloaded', 'already downloaded', 'already downloaded']);
    const { unlink } = await import('node:fs/promises');
    await unlink(path.join(h.folder, files[2]!.filename));
    const third = await h.engine.enqueue(files, h.folder);
    expect(third.queued).toHaveLength(1);
    await h.engine.whenSettled();
    expect(emulator().stats().downloadsStarted).toBe(1);
    await expectExactFolder(emulator(), h.folder, files);
  });
});
