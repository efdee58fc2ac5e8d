// The enqueue half of `files --download`, measured alone: the listing streamed from the emulator into the engine's
// enqueuer, piece by piece, exactly as the command line does it, with the queue paused so that nothing is
// downloaded. Or the app's core queueing the same query (downloads:enqueue), which lists it itself. Runs as its own
// process (dist/bench/enqueue-probe.js) so its peak RSS is that of the engine, the client and the listing, not the
// benchmark's; the tests call runEnqueueProbe in their own process on 10,000 entries.
import { randomUUID } from 'node:crypto';
import { MlsoClient } from '../../src-main/core/api/mlso-client';
import { downloadHandlers } from '../../src-main/core/app/download-handlers';
import { openDownloadEngine } from '../../src-main/core/app/open-engine';
import { ResultDatabase } from '../../src-main/core/search/result-table';
import { SearchKeeper } from '../../src-main/core/search/search-keeper';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import type { ProgressUpdate } from '../../src-shared/downloads/progress-types';
import { ownPeakRssBytes } from './peak-rss';

export interface EnqueueProbeJob {
  baseUrl: string;
  instrument: string;
  product: string;
  startDate: string;
  /** The span's last day (a query over months is listed in month windows); open-ended when left out. */
  endDate?: string;
  stateDir: string;
  outputDir: string;
  /**
   * `files --download`'s enqueuer in a batch of its own (the default), or the app's core queueing the query
   * (downloads:enqueue: the app's queue, no batch, its progress followed as the window follows it).
   */
  way?: 'cli' | 'app';
  /** Listen to the engine's progress, as the command line's display does on a terminal or a log (not with --json). */
  followProgress: boolean;
}

export interface EnqueueProbeResult {
  /** Entries the listing handed over, and jobs the ledger holds for the batch afterwards (target paths are unique there). */
  entries: number;
  jobs: number;
  /** Jobs queued as the enqueuer (or the app's summary) counted them, and files skipped as already there. */
  queued: number;
  skipped: number;
  /** From the listing's request to the last piece committed. */
  seconds: number;
  /** Of which in the enqueuer (checks and ledger transactions), summed over the pieces (0 for the app: it lists itself). */
  intakeSeconds: number;
  pieces: number;
  /** CPU time of the process over the same span (user and system, all threads). */
  cpuSeconds: number;
  /** Progress updates received (0 unless followed), and the most job views one of them carried. */
  updates: number;
  largestUpdate: number;
  /** The process's peak resident memory (getrusage). */
  peakRssBytes: number;
}

export async function runEnqueueProbe(job: EnqueueProbeJob): Promise<EnqueueProbeResult> {
  const client = new MlsoClient({ baseUrl: job.baseUrl });
  const batchId = job.way === 'app' ? undefined : randomUUID();
  // The command line's engine, as download-listing.ts opens it: a batch of its own, no views of newly queued files.
  const cli = batchId ? { batchId, describeNewJobs: false } : {};
  const opened = await openDownloadEngine(job.stateDir, { client, username: () => undefined, concurrency: 1, ...cli });
  try {
    // Keeps this run from downloading (a batch's pause is not remembered; the app's queue is a fresh state folder's).
    opened.engine.pauseAll();
    let updates = 0;
    let largestUpdate = 0;
    const onProgress = (update: ProgressUpdate): void => {
      updates += 1;
      largestUpdate = Math.max(largestUpdate, update.jobs.length);
    };
    if (job.followProgress || job.way === 'app') opened.engine.on('progress', onProgress);
    const query = {
      instrument: job.instrument,
      product: job.product,
      filters: { 'start-date': job.startDate, ...(job.endDate ? { 'end-date': job.endDate } : {}) },
    };
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    let intakeMs = 0;
    let pieces = 0;
    let entries: number;
    let queued: number;
    let skipped: number;
    if (job.way === 'app') {
      const handlers = downloadHandlers({
        engine: opened.engine,
        ledger: opened.ledger,
        client,
        searches: new SearchKeeper(ResultDatabase.open(':memory:'), client),
        settings: () => defaultSettings(job.outputDir),
        signedIn: async () => true,
      });
      const summary = await handlers['downloads:enqueue']({ query, folder: job.outputDir });
      queued = summary.queued;
      skipped = summary.skipped.length;
      entries = queued + summary.skipped.length + summary.rejected.length + summary.reused.count;
    } else {
      const enqueuer = await opened.engine.openEnqueuer(job.outputDir);
      ({ count: entries } = await client.streamFiles(query, async (piece) => {
        const before = performance.now();
        await enqueuer.add(piece);
        intakeMs += performance.now() - before;
        pieces += 1;
      }));
      queued = enqueuer.result.queued.length;
      skipped = enqueuer.result.skipped.length;
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const peakRssBytes = ownPeakRssBytes();
    const jobs = Object.values(opened.ledger.counts(batchId)).reduce((sum, n) => sum + n, 0);
    return {
      entries,
      jobs,
      queued,
      skipped,
      seconds,
      intakeSeconds: intakeMs / 1000,
      pieces,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      updates,
      largestUpdate,
      peakRssBytes,
    };
  } finally {
    await opened.close();
  }
}
