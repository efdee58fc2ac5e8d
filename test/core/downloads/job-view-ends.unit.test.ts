// A job's view says when it ended, so the Downloads list can put finished files newest first: the ledger's own
// stamp for a file done or failed, the moment of the cancel for a cancelled one, nothing for work still to do.
import { describe, expect, it } from 'vitest';
import { jobView } from '../../../src-main/core/downloads/job-views';
import { openLedgerFile } from '../state/state-file';
import { newJob } from './ledger-jobs';

describe('when a job ended, in its view', () => {
  it('is the ledger’s stamp for a done or failed job, the cancel for a cancelled one, and null before the end', () => {
    const ledger = openLedgerFile(':memory:');
    const done = ledger.insert(newJob('a.fts'));
    const failed = ledger.insert(newJob('b.fts'));
    const cancelled = ledger.insert(newJob('c.fts'));
    const queued = ledger.insert(newJob('d.fts'));
    expect(jobView(ledger.get(queued.id)!, undefined).finishedAt).toBeNull();

    ledger.markDone(done.id, { sha256: 'f'.repeat(64), bytesReceived: 10, bytesWritten: 20 });
    ledger.markFailed(failed.id, 'http-404', 'The server answered 404.');
    ledger.setState(cancelled.id, 'cancelled');
    for (const id of [done.id, failed.id]) {
      const job = ledger.get(id)!;
      expect(job.finishedAt).not.toBeNull();
      expect(jobView(job, undefined).finishedAt).toBe(job.finishedAt);
    }
    const cancelledJob = ledger.get(cancelled.id)!;
    expect(jobView(cancelledJob, undefined).finishedAt).toBe(cancelledJob.updatedAt);

    // A failed file retried is work to do again.
    ledger.resetForRetry(failed.id);
    expect(jobView(ledger.get(failed.id)!, undefined).finishedAt).toBeNull();
  });
});
