// The ledger's queries on their own, over a ledger in memory or in a temporary folder: filters, bulk moves,
// ordering, figures of an empty queue, and the read-only look for damage.
import { copyFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STATE_DOMAINS } from '../../../src-main/core/app/open-engine';
import { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import { StateDatabase } from '../../../src-main/core/state/state-database';
import { temporaryFolder } from '../../helpers/fixtures';
import { openLedgerFile, openStateFile } from '../state/state-file';
import { newJob } from './ledger-jobs';

const ledgers: DownloadLedger[] = [];

afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

function memoryLedger(): DownloadLedger {
  const ledger = openLedgerFile(':memory:');
  ledgers.push(ledger);
  return ledger;
}

const names = (jobs: { filename: string }[]): string[] => jobs.map((job) => job.filename);

describe('the download ledger', () => {
  it('lists by several states and by batch, and hides cleared jobs unless asked for them', () => {
    const ledger = memoryLedger();
    const a = ledger.insert(newJob('a.fts', { batchId: 'one' }));
    ledger.insert(newJob('b.fts', { batchId: 'two' }));
    const c = ledger.insert(newJob('c.fts', { batchId: 'one' }));
    ledger.insert(newJob('d.fts', { batchId: 'one' }));
    ledger.markDone(a.id, { sha256: 'x', bytesReceived: 1, bytesWritten: 1 });
    ledger.claimNext(Date.now()); // b.fts
    ledger.setState(c.id, 'paused');
    expect(names(ledger.list({ states: ['queued', 'active'] }))).toEqual(['b.fts', 'd.fts']);
    expect(names(ledger.list({ batchId: 'one' }))).toEqual(['a.fts', 'c.fts', 'd.fts']);
    expect(names(ledger.list({ states: ['queued', 'paused'], batchId: 'one' }))).toEqual(['c.fts', 'd.fts']);

    expect(ledger.clearFinished()).toBe(1);
    expect(names(ledger.list())).toEqual(['b.fts', 'c.fts', 'd.fts']);
    expect(ledger.list({ includeCleared: true }).map((job) => [job.filename, job.cleared])).toEqual([
      ['a.fts', true],
      ['b.fts', false],
      ['c.fts', false],
      ['d.fts', false],
    ]);
  });

  it('moves states in bulk, in one batch or all, and says which jobs moved', () => {
    const ledger = memoryLedger();
    const a = ledger.insert(newJob('a.fts', { batchId: 'one' }));
    const b = ledger.insert(newJob('b.fts', { batchId: 'two' }));
    const c = ledger.insert(newJob('c.fts', { batchId: 'one' }));
    expect(ledger.moveStates(['queued'], 'paused', 'one')).toEqual([a.id, c.id]);
    expect(ledger.get(b.id)?.state).toBe('queued');
    expect(ledger.moveStates(['queued', 'paused'], 'cancelled')).toEqual([a.id, b.id, c.id]);
    expect(names(ledger.list({ states: ['cancelled'] }))).toEqual(['a.fts', 'b.fts', 'c.fts']);
  });

  it('adopts a job into another batch, where a cleared one shows again', () => {
    const ledger = memoryLedger();
    const a = ledger.insert(newJob('a.fts', { batchId: 'one' }));
    ledger.markDone(a.id, { sha256: 'x', bytesReceived: 1, bytesWritten: 1 });
    ledger.clearFinished();
    const b = ledger.insert(newJob('b.fts', { batchId: 'one' }));
    ledger.markDone(b.id, { sha256: 'y', bytesReceived: 1, bytesWritten: 1 });
    const shownBefore = ledger.get(b.id)!.updatedAt;
    // A minute later, so that a new stamp would differ.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60_000);
    try {
      ledger.adoptIntoBatch([a.id, b.id], 'two');
    } finally {
      vi.useRealTimers();
    }
    expect(ledger.list({ batchId: 'two' }).map((job) => [job.filename, job.state, job.cleared])).toEqual([
      ['a.fts', 'done', false],
      ['b.fts', 'done', false],
    ]);
    // A job that was showing keeps its place in the Downloads order.
    expect(ledger.get(b.id)!.updatedAt).toBe(shownBefore);
    ledger.adoptIntoBatch([a.id], null);
    expect(ledger.get(a.id)!.batchId).toBeNull();
  });

  it("reads a batch's finished and failed jobs row by row, cleared ones too, in queue order, nothing of another batch or still to do", () => {
    const ledger = memoryLedger();
    const [a, b, c, d, e] = ['a.fts', 'b.fts', 'c.fts', 'd.fts', 'e.fts'].map((name) =>
      ledger.insert(newJob(name, { batchId: name === 'e.fts' ? 'other' : 'one' })),
    );
    ledger.markDone(a!.id, { sha256: 'aa', bytesReceived: 5, bytesWritten: 9 });
    ledger.markFailed(b!.id, 'http', 'The server said 404.');
    ledger.markDone(d!.id, { sha256: 'dd', bytesReceived: 1, bytesWritten: 2 });
    ledger.markDone(e!.id, { sha256: 'ee', bytesReceived: 1, bytesWritten: 2 });
    ledger.clearFinished();
    ledger.moveToFront(d!.id);
    expect([...ledger.endedInBatch('one')]).toEqual([
      { id: d!.id, filename: 'd.fts', targetPath: d!.targetPath, state: 'done', bytesWritten: 2, sha256: 'dd', lastError: null },
      { id: a!.id, filename: 'a.fts', targetPath: a!.targetPath, state: 'done', bytesWritten: 9, sha256: 'aa', lastError: null },
      { id: b!.id, filename: 'b.fts', targetPath: b!.targetPath, state: 'failed', bytesWritten: 0, sha256: null, lastError: 'The server said 404.' },
    ]);
    expect(c!.state).toBe('queued');
  });

  it('puts the job moved to the front last before all others, also before one moved there earlier', () => {
    const ledger = memoryLedger();
    ledger.insert(newJob('a.fts'));
    const b = ledger.insert(newJob('b.fts'));
    const c = ledger.insert(newJob('c.fts'));
    ledger.moveToFront(b.id);
    ledger.moveToFront(c.id);
    expect(names(ledger.list())).toEqual(['c.fts', 'b.fts', 'a.fts']);
    expect(ledger.claimNext(Date.now())?.filename).toBe('c.fts');
  });

  it('gives figures of 0, never null, for an empty queue', () => {
    const ledger = memoryLedger();
    expect(ledger.pendingSizes()).toEqual({ count: 0, knownCount: 0, knownBytes: 0 });
    ledger.insert(newJob('a.fts', { expectedSize: 0 }));
    ledger.insert(newJob('b.fts', { expectedSize: 300 }));
    expect(ledger.pendingSizes()).toEqual({ count: 2, knownCount: 1, knownBytes: 300 });
  });

  it('opens a ledger in a folder not made yet, and knows whether it held a ledger before', async () => {
    const file = path.join(await temporaryFolder(), 'state', 'deeper', 'downloads.sqlite');
    const first = openStateFile(file);
    expect(first.state.startedEmpty).toBe(true);
    first.ledger.insert(newJob('a.fts'));
    first.ledger.close();
    const again = openStateFile(file);
    ledgers.push(again.ledger);
    expect(again.state.startedEmpty).toBe(false);
    expect(names(again.ledger.list())).toEqual(['a.fts']);
  });

  it('looks for damage read-only: a ledger’s -wal is left as it was, not folded into the file', async () => {
    const folder = await temporaryFolder();
    const live = openLedgerFile(path.join(folder, 'live.sqlite'));
    ledgers.push(live);
    live.insert(newJob('a.fts'));
    // A copy of the file and its -wal as a crash leaves them (the live connection keeps its -wal until it closes).
    const copy = path.join(folder, 'copy.sqlite');
    await copyFile(path.join(folder, 'live.sqlite'), copy);
    await copyFile(path.join(folder, 'live.sqlite-wal'), `${copy}-wal`);
    const walBytes = (await stat(`${copy}-wal`)).size;
    expect(walBytes).toBeGreaterThan(0);
    expect(StateDatabase.findDamage(copy, STATE_DOMAINS)).toBeUndefined();
    expect((await stat(`${copy}-wal`)).size).toBe(walBytes);
  });
});
