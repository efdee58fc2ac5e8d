// The progress board on its own: which jobs an update carries, when there is news, and how the overall figures
// (counts, speed, time left) are read within their budget, over a real ledger in memory.
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import { openLedgerFile } from '../state/state-file';
import { MAX_NEW_VIEWS, ProgressBoard, type TransferCounters } from '../../../src-main/core/downloads/progress-board';
import { RunTally } from '../../../src-main/core/downloads/run-tally';
import { SpeedMeter } from '../../../src-main/core/downloads/speed-meter';
import { spendCpu } from '../../helpers/cpu-time';
import { newJob } from './ledger-jobs';

const ledgers: DownloadLedger[] = [];

afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

interface Setup {
  board: ProgressBoard;
  ledger: DownloadLedger;
  running: Map<number, TransferCounters>;
}

/** A board over a ledger in memory; `costly` makes the ledger's counts or pending sizes take 20 ms each (so a second reading within 400 ms is an earlier one). */
function setUp(costly: { counts?: boolean; pendingSizes?: boolean } = {}): Setup {
  const ledger = openLedgerFile(':memory:');
  ledgers.push(ledger);
  const running = new Map<number, TransferCounters>();
  const source = {
    ledger: Object.assign(Object.create(ledger) as DownloadLedger, {
      counts: (batchId?: string) => {
        if (costly.counts) spendCpu(20);
        return ledger.counts(batchId);
      },
      pendingSizes: (batchId?: string) => {
        if (costly.pendingSizes) spendCpu(20);
        return ledger.pendingSizes(batchId);
      },
      getMany: (ids: readonly number[]) => ledger.getMany(ids),
    }),
    batchId: undefined,
    running,
    currentRun: new RunTally(),
    pause: () => ({ queuePaused: false, pauseReason: null }),
  };
  return { board: new ProgressBoard(source), ledger, running };
}

function queuedJob(ledger: DownloadLedger, filename: string) {
  const job = ledger.insert(newJob(filename));
  return {
    id: job.id,
    filename,
    folder: job.folder,
    targetPath: job.targetPath,
    instrument: job.instrument,
    product: job.product,
    dateObs: job.dateObs,
    expectedSize: job.expectedSize,
  };
}

describe('the progress board', () => {
  it('has news when a job changed, was queued or is transferring, and none once an update or a discard took it', () => {
    const { board, ledger, running } = setUp();
    expect(board.hasNews()).toBe(false);
    const job = queuedJob(ledger, 'a.fts');
    board.touched(job.id);
    expect(board.hasNews()).toBe(true);
    board.update(false);
    expect(board.hasNews()).toBe(false);
    board.queued([job]);
    expect(board.hasNews()).toBe(true);
    board.discard();
    expect(board.hasNews()).toBe(false);
    running.set(job.id, { bytesReceived: 0, bytesWritten: 0, speed: new SpeedMeter() });
    expect(board.hasNews()).toBe(true);
  });

  it('carries each changed or newly queued job once: changed ones as the ledger has them, the others as queued', () => {
    const { board, ledger } = setUp();
    const a = queuedJob(ledger, 'a.fts');
    const b = queuedJob(ledger, 'b.fts');
    ledger.claimNext(Date.now()); // a is active now
    board.queued([a, b]);
    board.touched(a.id);
    const { jobs } = board.update(false);
    expect(jobs.map((view) => [view.filename, view.state])).toEqual([
      ['a.fts', 'active'],
      ['b.fts', 'queued'],
    ]);
    expect(board.update(false).jobs).toEqual([]);
  });

  it('carries a transfer in flight in every update, with its live figures', () => {
    const { board, ledger, running } = setUp();
    const a = queuedJob(ledger, 'a.fts');
    ledger.claimNext(Date.now());
    running.set(a.id, { bytesReceived: 300, bytesWritten: 900, speed: new SpeedMeter() });
    for (let update = 0; update < 2; update += 1) {
      expect(board.update(false).jobs).toMatchObject([{ id: a.id, state: 'active', bytesReceived: 300, bytesWritten: 900 }]);
    }
  });

  it('gives no time left before any byte moved, then the bytes still to come, less those in flight, over the speed', () => {
    const { board, ledger, running } = setUp();
    expect(board.overall().etaSeconds).toBeNull();
    const a = queuedJob(ledger, 'a.fts');
    queuedJob(ledger, 'b.fts');
    expect(board.overall().etaSeconds).toBeNull();
    ledger.claimNext(Date.now());
    running.set(a.id, { bytesReceived: 400, bytesWritten: 800, speed: new SpeedMeter() });
    board.moved(400, 800);
    const overall = board.overall();
    expect(overall).toMatchObject({ total: 2, queued: 1, active: 1, bytesReceived: 400, bytesWritten: 800 });
    expect(overall.speed).toBeGreaterThan(0);
    // 2,000 bytes listed, 400 of them in flight.
    expect(overall.etaSeconds).toBeCloseTo(1_600 / overall.speed, 6);
  });

  it('owes a fresh update after one with an earlier reading of the counts, until a forced one or a discard', () => {
    const { board, ledger } = setUp({ counts: true });
    const a = queuedJob(ledger, 'a.fts');
    board.touched(a.id);
    expect(board.update(false).overall.queued).toBe(1);
    queuedJob(ledger, 'b.fts');
    // Read again within its budget: the earlier counts, and another update owed.
    expect(board.update(false).overall.queued).toBe(1);
    expect(board.hasNews()).toBe(true);
    // A forced update reads afresh, whatever it costs: nothing is owed after it.
    expect(board.update(true).overall.queued).toBe(2);
    expect(board.hasNews()).toBe(false);
    board.update(false);
    expect(board.hasNews()).toBe(true);
    board.discard();
    expect(board.hasNews()).toBe(false);
  });

  it('carries at most MAX_NEW_VIEWS newly queued jobs an update, the rest in later ones, each job once and as the ledger has it', () => {
    const { board, ledger } = setUp();
    const ids = ledger.insertMany(Array.from({ length: 10_000 }, (_, i) => newJob(`f${i}.fts`)));
    const jobs = ledger.getMany(ids).map(({ id, filename, folder, targetPath, instrument, product, dateObs, expectedSize }) => ({
      id,
      filename,
      folder,
      targetPath,
      instrument,
      product,
      dateObs,
      expectedSize,
    }));
    // Queued in two chunks, as the enqueuer hands them over between two updates; one of them started meanwhile.
    board.queued(jobs.slice(0, 4_000));
    board.queued(jobs.slice(4_000));
    ledger.setState(ids[9_000]!, 'active');
    const seen = new Map<number, string>();
    let updates = 0;
    while (board.hasNews()) {
      const update = board.update(false);
      if (update.jobs.length > 0) updates += 1;
      expect(update.jobs.length).toBeLessThanOrEqual(MAX_NEW_VIEWS);
      for (const view of update.jobs) {
        expect(seen.has(view.id), `job ${view.id} carried twice`).toBe(false);
        seen.set(view.id, view.state);
      }
    }
    // Updates owed for fresh counts carry no job; the others are full.
    expect(updates).toBe(Math.ceil(10_000 / MAX_NEW_VIEWS));
    expect([...seen.keys()].sort((x, y) => x - y)).toEqual(ids);
    expect(seen.get(ids[9_000]!)).toBe('active');
  });

  it('owes a fresh update when only the pending sizes were an earlier reading', () => {
    const { board, ledger } = setUp({ pendingSizes: true });
    queuedJob(ledger, 'a.fts');
    board.moved(100, 100);
    board.update(false);
    expect(board.hasNews()).toBe(false);
    board.update(false);
    expect(board.hasNews()).toBe(true);
  });
});
