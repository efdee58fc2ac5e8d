// The enqueue half of `files --download`, measured alone: the listing streamed from the emulator into the engine's
// intake, piece by piece, exactly as the command line does it, with the queue paused so that nothing is
// downloaded. Runs as its own process (dist/bench/enqueue-probe.js) so its peak RSS is that of the engine, the
// client and the listing, not the benchmark's.
import { randomUUID } from 'node:crypto';
import { MlsoClient } from '../../src-main/core/api/mlso-client';
import { openDownloadEngine } from '../../src-main/core/app/open-engine';

export interface EnqueueProbeJob {
  baseUrl: string;
  instrument: string;
  product: string;
  startDate: string;
  stateDir: string;
  outputDir: string;
  /** Listen to the engine's progress, as the command line's display does on a terminal or a log (not with --json). */
  followProgress: boolean;
}

export interface EnqueueProbeResult {
  /** Entries the listing handed over, and jobs the ledger holds for the batch afterwards (target paths are unique there). */
  entries: number;
  jobs: number;
  /** From the listing's request to the last piece committed. */
  seconds: number;
  /** Of which in the intake (checks and ledger transactions), summed over the pieces. */
  intakeSeconds: number;
  pieces: number;
  /** CPU time of the process over the same span (user and system, all threads). */
  cpuSeconds: number;
  /** Progress updates received (0 unless followProgress). */
  updates: number;
  /** The process's peak resident memory (getrusage). */
  peakRssBytes: number;
}

export async function runEnqueueProbe(job: EnqueueProbeJob): Promise<EnqueueProbeResult> {
  const client = new MlsoClient({ baseUrl: job.baseUrl });
  const batchId = randomUUID();
  const opened = await openDownloadEngine(job.stateDir, { client, username: () => undefined, concurrency: 1, batchId });
  try {
    // A batch's pause is not remembered: it only keeps this run from downloading.
    opened.engine.pauseAll();
    let updates = 0;
    if (job.followProgress) opened.engine.on('progress', () => (updates += 1));
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const intake = await opened.engine.openIntake(job.outputDir);
    let intakeMs = 0;
    let pieces = 0;
    const { count } = await client.streamFiles(
      { instrument: job.instrument, product: job.product, filters: { 'start-date': job.startDate } },
      async (entries) => {
        const before = performance.now();
        await intake.add(entries);
        intakeMs += performance.now() - before;
        pieces += 1;
      },
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const peakRssBytes = process.resourceUsage().maxRSS * 1024;
    const jobs = Object.values(opened.ledger.counts(batchId)).reduce((sum, n) => sum + n, 0);
    return { entries: count, jobs, seconds, intakeSeconds: intakeMs / 1000, pieces, cpuSeconds: (cpu.user + cpu.system) / 1e6, updates, peakRssBytes };
  } finally {
    await opened.close();
  }
}
