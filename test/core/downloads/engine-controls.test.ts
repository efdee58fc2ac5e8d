// The engine's less-travelled paths (found by the mutation pass: the engine tests drove them only along the happy
// path): settings and their bounds, the events a front end follows, controls that do nothing to a job in the wrong
// state, an engine limited to one batch, the current run's figures, waiting without polling, controls during a
// transfer, and the worker count following the concurrency setting.
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { DownloadEngine } from '../../../src-main/core/downloads/download-engine';
import { openLedgerFile } from '../state/state-file';
import { LEDGER_FILE } from '../../../src-main/core/state/open-state-folder';
import { InvalidInputError } from '../../../src-main/core/errors';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { waitFor } from '../../helpers/wait-for';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { expectExactFolder, listing, useHarnesses } from './engine-harness';
import { newJob } from './ledger-jobs';
import { sha256Hex } from '../../helpers/sha256';

const emulator = useEmulator({ imageSize: 32 });
const { harness, closeEarly } = useHarnesses(emulator);
const window = { 'start-date': '2025-03-24T19:00:00', 'end-date': '2025-03-24T19:01:00' };

describe('the download engine’s controls', () => {
  it('keeps its settings within bounds and says which they are', async () => {
    const h = await harness({ batchId: 'settings' });
    h.engine.setConcurrency(3.4);
    h.engine.setMaxAttempts(0.2);
    h.engine.setExistingFilePolicy('keep-both');
    expect(h.engine.settings).toEqual({ concurrency: 3, maxAttempts: 1, existingFiles: 'keep-both' });
    h.engine.setMaxAttempts(7.6);
    expect(h.engine.settings.maxAttempts).toBe(8);
    expect(() => h.engine.setConcurrency(Number.NaN)).toThrow(InvalidInputError);
    expect(() => h.engine.setConcurrency(Number.NaN)).toThrow(/^Concurrency must be a whole number from \d+ to \d+\.$/);
    expect(h.engine.settings.concurrency).toBe(3);
  });

  it('tells its listeners when the queue is paused and resumed, and a waiter that it settled paused', async () => {
    const h = await harness({ batchId: 'events' });
    const events: string[] = [];
    h.engine.on('queue-paused', (reason: unknown) => events.push(`paused:${reason === null ? 'by hand' : 'with a reason'}`));
    h.engine.on('queue-resumed', () => events.push('resumed'));
    h.engine.on('settled', () => events.push('settled'));
    h.engine.pauseAll();
    await h.engine.enqueue(await listing(emulator(), window), h.folder);
    expect(await h.engine.whenSettled()).toBe('paused');
    h.engine.resumeAll();
    expect(await h.engine.whenSettled()).toBe('finished');
    expect(events).toEqual(['paused:by hand', 'resumed', 'settled']);
  });

  it('does nothing to a job in a state the control is not for', async () => {
    const h = await harness({ batchId: 'states' });
    h.engine.pauseAll();
    await h.engine.enqueue((await listing(emulator(), window)).slice(0, 3), h.folder);
    const [first, second, third] = h.engine.jobs();
    const done = h.ledger.insert(newJob('done.fts', { folder: h.folder, batchId: 'states', state: 'done' }));
    const stateOf = (id: number) => h.ledger.get(id)!.state;

    // Queued, waiting for its next attempt after a failed one: retrying must not skip the wait or the count.
    h.ledger.claimNext(Date.now(), 'states');
    const later = Date.now() + 60_000;
    h.ledger.scheduleRetry(first!.id, later, 'network', 'The connection dropped.');
    h.engine.retry(first!.id);
    expect(h.ledger.get(first!.id)).toMatchObject({ state: 'queued', attempts: 1, nextAttemptAt: later });
    h.engine.resume(first!.id); // not paused on its own
    h.engine.moveToFront(done.id); // finished: no place in the queue
    h.engine.cancel(done.id);
    h.engine.pause(done.id);
    expect([stateOf(first!.id), stateOf(done.id)]).toEqual(['queued', 'done']);
    expect(h.engine.overall().run).toMatchObject({ cancelled: 0, queued: 3 });
    expect(h.engine.jobs().map((job) => job.id)).toEqual([first!.id, second!.id, third!.id, done.id]);

    h.engine.moveToFront(third!.id);
    h.engine.pause(second!.id);
    h.engine.moveToFront(second!.id); // paused jobs can move too
    expect(h.engine.jobs().map((job) => job.id)).toEqual([second!.id, third!.id, first!.id, done.id]);
    h.engine.cancel(second!.id);
    h.engine.retry(second!.id);
    expect(stateOf(second!.id)).toBe('queued');
  });

  it('counts the bytes written once each, and the files queued in the current run', async () => {
    const h = await harness({ batchId: 'bytes' });
    h.engine.pauseAll();
    const files = await listing(emulator(), window);
    await h.engine.enqueue(files, h.folder);
    expect(h.engine.overall().run).toMatchObject({ inProgress: true, total: files.length, queued: files.length });
    h.engine.resumeAll();
    expect(await h.engine.whenSettled()).toBe('finished');
    const written = (await Promise.all(files.map((file) => stat(path.join(h.folder, file.filename))))).reduce((sum, info) => sum + info.size, 0);
    expect(h.engine.overall()).toMatchObject({ bytesWritten: written });
    expect(h.engine.overall().run).toMatchObject({ bytesWritten: written, done: files.length });
  });

  it('sends updates only when there is news, and one when finished files are cleared', async () => {
    // The progress timer runs on a fake clock: its intervals pass when the test says, and exactly.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const h = await harness({ batchId: 'cleared', progressIntervalMs: 20 });
      const updates: unknown[] = [];
      h.engine.on('progress', (update: unknown) => updates.push(update));
      await h.engine.enqueue((await listing(emulator(), window)).slice(0, 1), h.folder);
      expect(await h.engine.whenSettled()).toBe('finished');
      // The news of the finished file goes out at the next interval; then ten intervals with nothing new.
      vi.advanceTimersByTime(20);
      expect(updates.length).toBeGreaterThan(0);
      const before = updates.length;
      vi.advanceTimersByTime(200);
      expect(updates).toHaveLength(before);
      // Clearing changes nothing the board counts, but the list a front end shows must lose the file now.
      expect(h.engine.clearFinished()).toBe(1);
      expect(updates).toHaveLength(before + 1);
      await closeEarly(h);
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancelling a failed file: one that failed in this run is counted as cancelled instead; an older one, or a finished one, does not join the run', async () => {
    const h = await harness({ batchId: 'cancel-failed', maxAttempts: 1 });
    const [file] = await listing(emulator(), window);
    emulator().injectFault(file!.filename, 'status-404');
    await h.engine.enqueue([file!], h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');
    const { id } = h.engine.jobs()[0]!;
    expect(h.engine.overall().run).toMatchObject({ total: 1, failed: 1, cancelled: 0 });
    h.engine.cancel(id);
    expect(h.engine.overall().run).toMatchObject({ total: 1, failed: 0, cancelled: 1 });

    const older = h.ledger.insert(newJob('older.fts', { folder: h.folder, batchId: 'cancel-failed' }));
    h.ledger.markFailed(older.id, 'network', 'The connection dropped.');
    const done = h.ledger.insert(newJob('done.fts', { folder: h.folder, batchId: 'cancel-failed', state: 'done' }));
    h.engine.cancel(older.id);
    h.engine.cancel(done.id);
    expect(h.ledger.get(older.id)!.state).toBe('cancelled');
    expect(h.ledger.get(done.id)!.state).toBe('done');
    expect(h.engine.overall().run).toMatchObject({ total: 1, failed: 0, cancelled: 1 });
  });

  it('does not start work before it is started, whatever its concurrency is set to', async () => {
    const stateFolder = await temporaryFolder();
    const ledger = openLedgerFile(path.join(stateFolder, LEDGER_FILE));
    const engine = new DownloadEngine({ client: new MlsoClient({ baseUrl: emulator().url }), ledger, username: () => DEMO_EMAIL, batchId: 'unstarted' });
    try {
      engine.setConcurrency(2);
      const files = (await listing(emulator(), window)).slice(0, 2);
      const claims = vi.spyOn(ledger, 'claimNext');
      await engine.enqueue(files, await temporaryFolder());
      // Enqueueing wakes the workers, if there are any: a worker asks the ledger for a file at once.
      expect(claims).not.toHaveBeenCalled();
      expect(ledger.counts('unstarted')).toMatchObject({ queued: 2, active: 0 });
      expect(emulator().stats().downloadsStarted).toBe(0);
      await engine.start();
      expect(await engine.whenSettled()).toBe('finished');
      expect(emulator().stats().downloadsStarted).toBe(2);
    } finally {
      await engine.close();
      ledger.close();
    }
  });

  it('sleeps while idle or waiting for a retry instead of asking the ledger again and again, and the run goes on while it waits', async () => {
    // The engine's clock is fake (its timers and Date; the emulator's throttle and waitFor use timers/promises),
    // so a minute of idleness and the retry's wait pass at once, and exactly.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      const h = await harness({ batchId: 'napping', concurrency: 2, backoff: { baseMs: 1_200, maxMs: 1_200 }, random: () => 1 });
      // Counts the claims that found nothing due once the first attempt had failed: the worker then naps.
      let emptyClaimsAfterFailure = 0;
      const claimNext = h.ledger.claimNext.bind(h.ledger);
      const claims = vi.spyOn(h.ledger, 'claimNext').mockImplementation((now, batchId) => {
        const claimed = claimNext(now, batchId);
        const job = h.ledger.list()[0];
        if (!claimed && job?.state === 'queued' && job.attempts === 1) emptyClaimsAfterFailure += 1;
        return claimed;
      });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(claims).not.toHaveBeenCalled();

      const [file] = await listing(emulator(), window);
      emulator().injectFault(file!.filename, 'status-503');
      await h.engine.enqueue([file!], h.folder);
      await waitFor(() => emptyClaimsAfterFailure > 0, 'the first attempt to fail and its worker to nap');
      claims.mockClear();
      await vi.advanceTimersByTimeAsync(1_199);
      // A moment before the wait is over: still the run's, and nobody has asked for the next file since.
      expect(h.engine.overall().run).toMatchObject({ inProgress: true, queued: 1 });
      expect(claims).not.toHaveBeenCalled();
      expect(emulator().stats().downloadsByFile[file!.filename]).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await h.engine.whenSettled()).toBe('finished');
      expect(claims.mock.calls.length).toBeGreaterThan(0);
      expect(claims.mock.calls.length).toBeLessThan(10);
      expect(h.ledger.list()[0]).toMatchObject({ state: 'done', attempts: 2 });
      await waitFor(() => !h.engine.overall().run.inProgress, 'the run to end');
      await closeEarly(h);
    } finally {
      vi.useRealTimers();
    }
  });

  it('records the checksum of a checked file before it takes its real name', async () => {
    const h = await harness({ batchId: 'verified' });
    const [file] = await listing(emulator(), window);
    const recorded: { sha256: string; atRealName: boolean }[] = [];
    const recordVerified = h.ledger.recordVerified.bind(h.ledger);
    vi.spyOn(h.ledger, 'recordVerified').mockImplementation((id, sha256, bytesWritten) => {
      recorded.push({ sha256, atRealName: existsSync(path.join(h.folder, file!.filename)) });
      recordVerified(id, sha256, bytesWritten);
    });
    await h.engine.enqueue([file!], h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');
    const bytes = await readFile(path.join(h.folder, file!.filename));
    expect(recorded).toEqual([{ sha256: sha256Hex(bytes), atRealName: false }]);
  });

  it('starts a new run when a file paused on its own is resumed after the others finished', async () => {
    const h = await harness({ batchId: 'resumed-later' });
    h.engine.pauseAll();
    await h.engine.enqueue((await listing(emulator(), window)).slice(0, 2), h.folder);
    const [kept, other] = h.engine.jobs();
    h.engine.pause(kept!.id);
    h.engine.resumeAll(); // resumes every paused file too: pause the one again
    h.engine.pause(kept!.id);
    await waitFor(() => h.ledger.get(other!.id)!.state === 'done' && !h.engine.overall().run.inProgress, 'the first run to end');
    const first = h.engine.overall().run;
    expect(first).toMatchObject({ done: 1, paused: 1 });
    h.engine.resume(kept!.id);
    expect(h.engine.overall().run).toMatchObject({ number: first.number + 1, inProgress: true, total: 1, queued: 1, done: 0 });
    expect(await h.engine.whenSettled()).toBe('finished');
    expect(h.engine.overall().run).toMatchObject({ number: first.number + 1, total: 1, done: 1 });
  });

  it('limited to one batch, retries and lists only that batch’s jobs', async () => {
    const h = await harness({ batchId: 'mine' });
    h.engine.pauseAll();
    const other = h.ledger.insert(newJob('other.fts', { folder: path.join(h.folder, 'x'), batchId: 'theirs' }));
    h.ledger.markFailed(other.id, 'network', 'The connection dropped.');
    const ours = h.ledger.insert(newJob('ours.fts', { folder: h.folder, batchId: 'mine' }));
    h.ledger.markFailed(ours.id, 'network', 'The connection dropped.');
    expect(h.engine.jobs().map((job) => job.filename)).toEqual(['ours.fts']);
    expect(h.engine.retryFailed()).toBe(1);
    expect(h.ledger.get(ours.id)!.state).toBe('queued');
    expect(h.ledger.get(other.id)!.state).toBe('failed');
    h.ledger.setState(ours.id, 'paused');
    h.ledger.setState(other.id, 'paused');
    h.engine.resumeAll();
    expect(h.ledger.get(ours.id)!.state).toBe('queued');
    expect(h.ledger.get(other.id)!.state).toBe('paused');
  });
});

describe('the download engine’s controls during a transfer', () => {
  const slow = useEmulator({ imageSize: 128, bandwidthBytesPerSecond: 20_000 });
  const { harness: slowHarness } = useHarnesses(slow);

  const until = (condition: () => boolean): Promise<void> => waitFor(condition, 'the transfer to reach that point', 10_000);

  it('shows a transfer stopped by pausing the queue as paused, as one paused by itself, and one cancelled as cancelled', async () => {
    const h = await slowHarness({ batchId: 'mid' });
    const [file] = await listing(slow(), window);
    await h.engine.enqueue([file!], h.folder);
    const { id } = h.engine.jobs()[0]!;
    const transferring = () => h.engine.jobs()[0]!.state === 'active' && h.engine.jobs()[0]!.bytesReceived > 0;
    await until(transferring);

    h.engine.pauseAll();
    expect(await h.engine.whenSettled()).toBe('paused');
    expect(h.ledger.get(id)).toMatchObject({ state: 'paused', attempts: 0 });
    expect(h.engine.overall().run).toMatchObject({ total: 1, queued: 0, paused: 1, cancelled: 0 });
    expect(h.engine.overall()).toMatchObject({ paused: 1, queued: 0 });

    h.engine.resumeAll();
    await until(transferring);
    h.engine.pause(id);
    await until(() => h.ledger.get(id)!.state === 'paused');
    expect(h.ledger.get(id)!.attempts).toBe(0);
    expect(h.engine.overall().run).toMatchObject({ total: 1, paused: 1, cancelled: 0 });

    h.engine.resume(id);
    await until(transferring);
    h.engine.cancel(id);
    expect(await h.engine.whenSettled()).toBe('finished');
    expect(h.ledger.get(id)).toMatchObject({ state: 'cancelled', attempts: 0 });
    expect(h.engine.overall().run).toMatchObject({ total: 1, cancelled: 1, done: 0 });
  });

  it('records the temporary file of a transfer, and leaves a transfer alone when its file is queued again', async () => {
    const h = await slowHarness({ batchId: 'again' });
    const [file] = await listing(slow(), window);
    await h.engine.enqueue([file!], h.folder);
    await until(() => h.engine.jobs()[0]!.bytesReceived > 0);
    const { id } = h.engine.jobs()[0]!;
    expect(h.ledger.get(id)!.tempName).toMatch(/^\..+\.[0-9a-f]{8}\.part$/);
    await h.engine.enqueue([file!], h.folder);
    expect(h.engine.jobs().map((job) => [job.id, job.state])).toEqual([[id, 'active']]);
    expect(await h.engine.whenSettled()).toBe('finished');
    expect(slow().stats().downloadsByFile[file!.filename]).toBe(1);
    expect(h.ledger.get(id)).toMatchObject({ state: 'done', attempts: 1 });
    // Reported in many pieces, each counted once.
    expect(h.engine.overall().bytesWritten).toBe((await stat(path.join(h.folder, file!.filename))).size);
  });

  it('pauses the queue with the reason when signing in again is refused mid-run', async () => {
    // The e-mail was taken back between the first sign-in and the renewal the revoked session calls for.
    const emails = [DEMO_EMAIL];
    const h = await slowHarness({ batchId: 'renewal', concurrency: 1, username: () => emails.shift() ?? 'stranger@example.org' });
    const files = (await listing(slow(), window)).slice(0, 2);
    await h.engine.enqueue(files, h.folder);
    await until(() => h.engine.jobs()[0]!.bytesReceived > 0);
    slow().expireSessions();
    expect(await h.engine.whenSettled()).toBe('paused');
    expect(h.engine.overall()).toMatchObject({ queuePaused: true, pauseReason: { kind: 'unknown-user' } });
    expect(h.ledger.get(h.engine.jobs()[1]!.id)).toMatchObject({ state: 'queued', attempts: 0 });
  });

  it('started a second time during a transfer, leaves the transfer alone (no second recovery of its file)', async () => {
    const h = await slowHarness({ batchId: 'twice' });
    const [file] = await listing(slow(), window);
    await h.engine.enqueue([file!], h.folder);
    await until(() => h.engine.jobs()[0]!.bytesReceived > 0);
    await h.engine.start();
    expect(await h.engine.whenSettled()).toBe('finished');
    expect(slow().stats().downloadsByFile[file!.filename]).toBe(1);
    expect(h.ledger.list()[0]).toMatchObject({ state: 'done', attempts: 1 });
    await expectExactFolder(slow(), h.folder, [file!]);
  });

  it('counts the run in progress while a transfer goes on and the other worker has nothing to do, and a file that failed in it and is queued again as queued, not failed', async () => {
    const h = await slowHarness({ batchId: 'run-figures', concurrency: 2, maxAttempts: 1 });
    const [long, failing] = await listing(slow(), window);
    slow().injectFault(failing!.filename, 'status-404');
    const failingJob = () => h.engine.jobs().find((job) => job.filename === failing!.filename);
    // The worker whose file failed asks for another, finds none while the other transfer goes on, and naps.
    let foundNothingAfterTheFailure = false;
    const claimNext = h.ledger.claimNext.bind(h.ledger);
    vi.spyOn(h.ledger, 'claimNext').mockImplementation((now, batchId) => {
      const claimed = claimNext(now, batchId);
      if (!claimed && failingJob()?.state === 'failed') foundNothingAfterTheFailure = true;
      return claimed;
    });
    await h.engine.enqueue([long!, failing!], h.folder);
    await until(() => foundNothingAfterTheFailure && h.engine.jobs()[0]!.bytesReceived > 0);
    expect(h.engine.overall().run).toMatchObject({ inProgress: true, total: 2, active: 1, failed: 1 });

    await h.engine.enqueue([failing!], h.folder);
    expect(h.engine.overall().run).toMatchObject({ inProgress: true, total: 2, failed: 0 });
    expect(await h.engine.whenSettled()).toBe('finished');
    expect(h.engine.overall().run).toMatchObject({ inProgress: false, total: 2, done: 2, failed: 0 });
  });

  it('answers a waiter with "paused" when it closes during a transfer', async () => {
    const h = await slowHarness({ batchId: 'closing' });
    const [file] = await listing(slow(), window);
    await h.engine.enqueue([file!], h.folder);
    await until(() => h.engine.jobs()[0]!.bytesReceived > 0);
    const settled = h.engine.whenSettled();
    await h.engine.close();
    expect(await settled).toBe('paused');
    expect(h.ledger.list()[0]).toMatchObject({ state: 'queued', attempts: 0 });
  });
});

describe('the download engine’s worker count', () => {
  const paced = useEmulator({ imageSize: 128, bandwidthBytesPerSecond: 80_000 });
  const { harness: pacedHarness } = useHarnesses(paced);

  it('follows the concurrency setting down and back up while files download', async () => {
    const h = await pacedHarness({ batchId: 'workers', concurrency: 2 });
    const files = (await listing(paced(), { 'start-date': '2025-03-24T19:00:00', 'end-date': '2025-03-24T19:02:00' })).slice(0, 6);
    expect(files).toHaveLength(6);
    const done = () => h.engine.jobs().filter((job) => job.state === 'done').length;
    let peakWhileOne = 0;
    let phase: 'two' | 'lowering' | 'one' | 'raised' = 'two';
    const sampler = setInterval(() => {
      if (phase === 'one') peakWhileOne = Math.max(peakWhileOne, paced().stats().activeDownloads);
    }, 5);
    try {
      await h.engine.enqueue(files, h.folder);
      await waitFor(() => paced().stats().activeDownloads === 2, 'two downloads at once', 10_000);
      phase = 'lowering';
      h.engine.setConcurrency(1);
      // The two transfers in flight finish; from then on one at a time.
      await waitFor(() => done() >= 2, 'the two transfers in flight to finish', 10_000);
      phase = 'one';
      await waitFor(() => done() >= 4, 'two more files, one at a time', 10_000);
      phase = 'raised';
      h.engine.setConcurrency(2);
      await waitFor(() => paced().stats().activeDownloads === 2, 'two downloads at once again', 10_000);
      expect(await h.engine.whenSettled()).toBe('finished');
    } finally {
      clearInterval(sampler);
    }
    expect(peakWhileOne).toBe(1);
    await expectExactFolder(paced(), h.folder, files);
  });
});
