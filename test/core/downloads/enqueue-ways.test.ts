// The million-entry benchmark's three ways (scripts/bench/enqueue-million-benchmark.ts) on some 11,000 entries, for
// correctness: `files --download`'s enqueuer with and without a progress display, and the app's core queueing a query
// (downloads:enqueue). Every entry is queued once, the counts agree, and no progress update carries more than
// MAX_NEW_VIEWS job views however fast the listing arrives.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_NEW_VIEWS } from '../../../src-main/core/downloads/progress-board';
import { openStateLedger } from '../../../src-main/core/app/open-engine';
import { forEachAtOnce } from '../../../src-main/core/downloads/reuse-finder';
import { runEnqueueProbe, type EnqueueProbeJob } from '../../../scripts/bench/enqueue-probe';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';

// Two observing days of KCor pB every 2 s: 11,356 entries.
const emulator = useEmulator({ cadenceSeconds: 2, days: 2, imageSize: 8 });

const WAYS: { way: NonNullable<EnqueueProbeJob['way']>; followProgress: boolean }[] = [
  { way: 'cli', followProgress: false },
  { way: 'cli', followProgress: true },
  { way: 'app', followProgress: true },
];

/** The probe's job for the whole listing, in a fresh state folder and download folder. */
async function wholeListing(way: EnqueueProbeJob['way'], followProgress: boolean): Promise<EnqueueProbeJob> {
  const work = await temporaryFolder();
  const folders = { stateDir: path.join(work, 'state'), outputDir: path.join(work, 'out') };
  return { baseUrl: emulator().url, instrument: 'kcor', product: 'pb', startDate: '2020-01-01', ...folders, way, followProgress };
}

describe('some 11,000 listed entries into a paused queue', () => {
  for (const { way, followProgress } of WAYS) {
    it(`${way === 'app' ? "the app's core (downloads:enqueue by query)" : `files --download's enqueuer${followProgress ? ', progress followed' : ''}`} queues each entry once, in updates of at most ${MAX_NEW_VIEWS} views`, async () => {
      const result = await runEnqueueProbe(await wholeListing(way, followProgress));
      expect(result.entries).toBeGreaterThan(10_000);
      expect(result.queued).toBe(result.entries);
      expect(result.jobs).toBe(result.entries);
      if (followProgress) {
        expect(result.updates).toBeGreaterThan(0);
        // The command line's displays show files once they start: a newly queued file is no news to them.
        if (way === 'cli') expect(result.largestUpdate).toBe(0);
        else expect(result.largestUpdate).toBeLessThanOrEqual(MAX_NEW_VIEWS);
      }
    }, 120_000);
  }

  it('taken again once every file is downloaded: each is skipped as already there and none queued, one whose size changed is queued again', async () => {
    const job = await wholeListing('cli', false);
    const first = await runEnqueueProbe(job);
    // Every file downloaded, one byte each, but one that is now two bytes on the disk.
    const opened = await openStateLedger(job.stateDir);
    const jobs = opened.ledger.list();
    opened.ledger.transaction(() => {
      for (const { id } of jobs) opened.ledger.markDone(id, { sha256: '0'.repeat(64), bytesReceived: 1, bytesWritten: 1 });
    });
    opened.close();
    await forEachAtOnce(jobs, 64, (each) => writeFile(each.targetPath, each.id === jobs[7]!.id ? 'xx' : 'x'));

    const again = await runEnqueueProbe(job);
    expect(again.entries).toBe(first.entries);
    expect(again.skipped).toBe(first.entries - 1);
    expect(again.queued).toBe(1);
    expect(again.jobs).toBe(first.entries);
  }, 120_000);
});
