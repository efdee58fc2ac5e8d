// The run the status bar speaks of ("3 of 12 files"): which files finished in it and how, counted as they change.
import { describe, expect, it } from 'vitest';
import { RunTally } from '../../../src-main/core/downloads/run-tally';

const NOTHING_PENDING = { queued: 0, active: 0, paused: 0 };

describe('the run tally', () => {
  it('starts with no run and every figure 0', () => {
    expect(new RunTally().figures(NOTHING_PENDING)).toEqual({
      number: 0,
      inProgress: false,
      total: 0,
      queued: 0,
      active: 0,
      paused: 0,
      done: 0,
      failed: 0,
      cancelled: 0,
      bytesReceived: 0,
      bytesWritten: 0,
    });
  });

  it('starts no run when no file joins', () => {
    const tally = new RunTally();
    tally.joined([]);
    expect(tally.figures(NOTHING_PENDING)).toMatchObject({ number: 0, inProgress: false });
  });

  it('counts every pending and finished file of the run in its total', () => {
    const tally = new RunTally();
    tally.joined([1, 2, 3, 4, 5, 6, 7]);
    tally.finishedAs(1, 'done');
    tally.finishedAs(2, 'failed');
    tally.finishedAs(3, 'cancelled');
    expect(tally.figures({ queued: 1, active: 1, paused: 2 })).toMatchObject({ number: 1, inProgress: true, total: 7, done: 1, failed: 1, cancelled: 1 });
  });

  it('moves a finished file to its new state when it changes how it finished, and ignores files of other runs', () => {
    const tally = new RunTally();
    tally.joined([1, 2]);
    tally.finishedAs(1, 'failed');
    tally.restated(1, 'cancelled');
    tally.restated(99, 'cancelled');
    expect(tally.figures({ queued: 0, active: 1, paused: 0 })).toMatchObject({ total: 2, failed: 0, cancelled: 1 });
  });

  it('takes a retried file out of the finished ones, and starts a new run once the last one ended', () => {
    const tally = new RunTally();
    tally.joined([1, 2]);
    tally.finishedAs(1, 'failed');
    tally.joined([1]);
    expect(tally.figures({ queued: 1, active: 1, paused: 0 })).toMatchObject({ number: 1, total: 2, failed: 0 });
    tally.finishedAs(1, 'done');
    tally.finishedAs(2, 'done');
    tally.moved(100, 250);
    tally.idle();
    expect(tally.figures(NOTHING_PENDING)).toMatchObject({ number: 1, inProgress: false, total: 2, done: 2, bytesReceived: 100, bytesWritten: 250 });
    tally.joined([3]);
    expect(tally.figures({ queued: 1, active: 0, paused: 0 })).toMatchObject({ number: 2, inProgress: true, total: 1, done: 0, bytesReceived: 0 });
  });
});
