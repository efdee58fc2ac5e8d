// `files --download`: hands the listing to the durable download engine and reports what happened.
// The ledger lives in the state folder, so running the same command again resumes where it stopped.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { displayName } from '../../../src-shared/format/display-text';
import { humanSize } from '../../../src-shared/format/human-size';
import type { ExistingFilePolicy } from '../../core/downloads/existing-files';
import { describeLedgerRecovery, openDownloadEngine, type OpenedEngine } from '../../core/downloads/open-engine';
import { DEFAULT_BACKOFF } from '../../core/downloads/retry-policy';
import { printJson, type CliContext } from '../cli-context';
import { EXIT_FAILURE, EXIT_OK, interruptedExitCode } from '../exit-codes';
import { createDownloadDisplay } from '../output/download-display';
import type { ProgressUpdate } from '../../../src-shared/downloads/progress-types';

export interface DownloadListingOptions {
  username: string;
  outputDir: string;
  stateDir: string;
  concurrency: number;
  maxAttempts: number;
  retryDelayMs: number;
  existingFiles: ExistingFilePolicy;
  json: boolean;
}

interface Summary {
  folder: string;
  downloaded: { filename: string; bytes: number; sha256: string }[];
  skipped: string[];
  failed: { filename: string; reason: string }[];
  stats: { batchSeconds: number; bytesReceived: number; bytesWritten: number };
}

export async function downloadListing(context: CliContext, files: readonly FileEntry[], options: DownloadListingOptions): Promise<number> {
  const { out } = context;
  const folder = path.resolve(options.outputDir);
  const batchId = randomUUID();
  const opened = await openDownloadEngine(options.stateDir, {
    client: context.client,
    username: () => options.username,
    concurrency: options.concurrency,
    maxAttempts: options.maxAttempts,
    backoff: { ...DEFAULT_BACKOFF, baseMs: options.retryDelayMs },
    existingFiles: options.existingFiles,
    batchId,
  });
  // A damaged ledger was moved aside and replaced: said once, even with --quiet (a file of theirs moved).
  if (opened.recovered) out.error(`mlso-dl: ${describeLedgerRecovery(opened.recovered)}`);
  // A stop signal closes the engine: transfers in flight stop, their temporary files go, their jobs are queued again.
  const onInterrupt = (): void => void opened.engine.close();
  context.signal?.addEventListener('abort', onInterrupt, { once: true });
  // A signal while the engine was opening came before the listener: honour it now.
  if (context.signal?.aborted) onInterrupt();
  try {
    // Sign in first: a wrong e-mail is reported before anything is queued.
    await opened.engine.signIn();
    const started = performance.now();
    const enqueued = await opened.engine.enqueue(files, folder);
    const display = out.quiet || options.json ? undefined : createDownloadDisplay(out);
    const show = (update: ProgressUpdate): void => display?.update(update);
    opened.engine.on('progress', show);
    // An engine closed before the wait began would never settle: a stop that came first ends the wait at once.
    const outcome = context.signal?.aborted ? 'paused' : await opened.engine.whenSettled();
    const batchSeconds = (performance.now() - started) / 1000;
    opened.engine.off('progress', show);
    // The last throttled update may predate the end: draw the final state once before the summary,
    // leaving out the files that were skipped (they were never downloaded in this run).
    const skippedIds = new Set(enqueued.skipped.map((skip) => skip.jobId));
    display?.update({ jobs: opened.engine.jobs().filter((job) => !skippedIds.has(job.id)), overall: opened.engine.overall() });
    display?.stop();
    if (context.signal?.aborted) {
      const left = opened.ledger.counts(batchId);
      out.error(`Interrupted: ${left.done} downloaded, ${left.queued + left.active} still to do. Run the same command again to continue.`);
      return interruptedExitCode(context.signal);
    }
    const summary = summarise(opened, batchId, folder, enqueued, batchSeconds);
    report(context, summary, options.json);
    if (outcome === 'paused') {
      const reason = opened.engine.overall().pauseReason;
      out.error(`mlso-dl: ${reason?.message ?? 'The download queue was paused.'} Run the same command again to continue.`);
      return EXIT_FAILURE;
    }
    return summary.failed.length > 0 ? EXIT_FAILURE : EXIT_OK;
  } finally {
    context.signal?.removeEventListener('abort', onInterrupt);
    await opened.close();
  }
}

function summarise(
  opened: OpenedEngine,
  batchId: string,
  folder: string,
  enqueued: Awaited<ReturnType<OpenedEngine['engine']['enqueue']>>,
  batchSeconds: number,
): Summary {
  const skippedIds = new Set(enqueued.skipped.flatMap((skip) => (skip.jobId !== undefined ? [skip.jobId] : [])));
  const jobs = opened.ledger.list({ batchId, includeCleared: true });
  const overall = opened.engine.overall();
  return {
    folder,
    downloaded: jobs
      .filter((job) => job.state === 'done' && !skippedIds.has(job.id))
      .map((job) => ({ filename: path.basename(job.targetPath), bytes: job.bytesWritten, sha256: job.sha256 ?? '' })),
    skipped: enqueued.skipped.map((skip) => skip.filename),
    failed: [
      ...enqueued.rejected,
      ...jobs.filter((job) => job.state === 'failed').map((job) => ({ filename: job.filename, reason: job.lastError ?? 'unknown error' })),
    ],
    stats: { batchSeconds: Number(batchSeconds.toFixed(3)), bytesReceived: overall.bytesReceived, bytesWritten: overall.bytesWritten },
  };
}

function report(context: CliContext, summary: Summary, json: boolean): void {
  const { out } = context;
  if (json) {
    printJson(out, summary);
    return;
  }
  const bytes = summary.downloaded.reduce((sum, file) => sum + file.bytes, 0);
  const count = summary.downloaded.length;
  out.info(
    `Downloaded ${count} ${count === 1 ? 'file' : 'files'} (${humanSize(bytes)}) into ${summary.folder} in ${summary.stats.batchSeconds.toFixed(1)} s; ` +
      `skipped ${summary.skipped.length} already complete; ${summary.failed.length} failed.`,
  );
  for (const failure of summary.failed) out.error(`failed: ${displayName(failure.filename)}: ${failure.reason}`);
}
