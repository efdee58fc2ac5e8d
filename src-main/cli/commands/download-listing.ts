// `files --download`: streams the listing into the durable download engine and reports what happened. The
// listing's request goes out first; loading and opening the engine and signing in happen while it is on its way,
// and files start downloading as soon as the first chunk of the listing is queued, while the rest is still
// arriving. The ledger lives in the state folder, so running the same command again resumes where it stopped.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { displayName } from '../../../src-shared/format/display-text';
import { humanSize } from '../../../src-shared/format/human-size';
import type { FilesRequest } from '../../core/api/mlso-client';
import type { ExistingFilePolicy } from '../../core/downloads/existing-files';
import type { EnqueueResult, ListingEnqueuer } from '../../core/downloads/listing-enqueuer';
import type { OpenedEngine } from '../../core/app/open-engine';
import { DEFAULT_BACKOFF } from '../../core/downloads/retry-policy';
import type { CliContext } from '../cli-context';
import { printJson } from '../output/cli-output';
import { EXIT_FAILURE, EXIT_OK, interruptedExitCode } from '../exit-codes';
import type { DownloadDisplay } from '../output/download-display';
import type { ReuseBy } from '../../core/downloads/reuse-finder';
import { reusedWording, tallyReused, type ReusedFiles } from '../../../src-shared/downloads/reused-files';
import type { ProgressUpdate } from '../../../src-shared/downloads/progress-types';
import { untilStateFolderFree, whenStateFolderFree } from './state-folder-turn';

export interface DownloadListingOptions {
  username: string;
  outputDir: string;
  stateDir: string;
  concurrency: number;
  maxAttempts: number;
  retryDelayMs: number;
  existingFiles: ExistingFilePolicy;
  reuseBy: ReuseBy;
  /** The run's speed cap in bytes per second (null: none). */
  rateLimit: number | null;
  json: boolean;
  /** Wait for the program holding the state folder to finish, instead of stopping with status 75. */
  wait: boolean;
}

interface Summary {
  folder: string;
  /** Each file downloaded, for --json; the text summary needs only their count and bytes (a million files: not kept). */
  downloaded: { filename: string; bytes: number; sha256: string }[];
  downloadedCount: number;
  downloadedBytes: number;
  skipped: string[];
  /** Files taken from a finished download in another folder instead of fetched: how many, and the folders. */
  reused: ReusedFiles;
  failed: { filename: string; reason: string }[];
  stats: { batchSeconds: number; bytesReceived: number; bytesWritten: number };
}

export async function downloadListing(context: CliContext, request: FilesRequest, options: DownloadListingOptions): Promise<number> {
  const { out } = context;
  // Waited for before the listing is asked for: a listing held back for hours would outlast its own time limit.
  if (options.wait) await untilStateFolderFree(context, options.stateDir);
  const folder = path.resolve(options.outputDir);
  const batchId = randomUUID();
  const stopListing = new AbortController();
  const listingSignal = context.signal ? AbortSignal.any([context.signal, stopListing.signal]) : stopListing.signal;
  // Opened once signed in and the folder is checked: until then the chunks of the listing wait (and with them
  // the reading of the rest), so a wrong e-mail or an unusable folder leaves nothing queued.
  const enqueuerReady = Promise.withResolvers<ListingEnqueuer>();
  // A refusal no one waits for yet is not unhandled.
  enqueuerReady.promise.catch(() => undefined);
  // No enqueuer after all (the engine, the sign-in or the folder refused): a chunk of the listing already waiting
  // for it is told, and the listing stopped.
  const refuseEnqueuer = (error: unknown): void => {
    enqueuerReady.reject(error);
    stopListing.abort();
  };
  let firstQueuedAt: number | undefined;
  // Entries listed whose chunk is not in the ledger yet (waiting for the enqueuer, or being checked by it): still to
  // do, though no job says so, when a signal stops the run.
  let notYetQueued = 0;
  let listingFinished = false;
  const listed = context.client.streamFiles(
    request,
    async (entries) => {
      notYetQueued += entries.length;
      await (await enqueuerReady.promise).add(entries);
      notYetQueued -= entries.length;
      firstQueuedAt ??= performance.now();
    },
    { signal: listingSignal },
  );
  void listed.then(
    () => (listingFinished = true),
    () => undefined,
  );
  // Its outcome is read below; a failure while the engine opens must not count as unhandled meanwhile.
  listed.catch(() => undefined);
  // Loaded only now, while the listing's first requests are on their way: SQLite and the engine take tens of
  // milliseconds to load, the progress bars some more.
  const showProgress = !out.quiet && !options.json;
  const displayModule = showProgress ? import('../output/download-display') : undefined;
  displayModule?.catch(() => undefined);
  // Signed in meanwhile too, rather than once the engine is open: the engine's sign-in then finds the session ready.
  // Its outcome is read at the gate below, like the engine's own sign-in was.
  const signedIn = context.client.authenticate(options.username, context.signal ? { signal: context.signal } : {});
  signedIn.catch(() => undefined);

  let opened: OpenedEngine;
  try {
    const { openDownloadEngine } = await import('../../core/app/open-engine');
    opened = await whenStateFolderFree(context, options.wait, () =>
      openDownloadEngine(options.stateDir, {
        client: context.client,
        username: () => options.username,
        concurrency: options.concurrency,
        maxAttempts: options.maxAttempts,
        backoff: { ...DEFAULT_BACKOFF, baseMs: options.retryDelayMs },
        existingFiles: options.existingFiles,
        reuseBy: options.reuseBy,
        rateLimit: options.rateLimit,
        batchId,
        // The displays (download-display.ts) show a file once it starts.
        describeNewJobs: false,
        program: 'mlso-dl files --download',
      }),
    );
  } catch (error) {
    refuseEnqueuer(error);
    await listed.catch(() => undefined);
    throw error;
  }
  // A damaged ledger was moved aside and replaced (its campaigns restored): said once, even with --quiet (a file of theirs moved).
  if (opened.notice) out.error(`mlso-dl: ${opened.notice}`);
  // A stop signal closes the engine: transfers in flight stop, their temporary files go, their jobs are queued again.
  const onInterrupt = (): void => void opened.engine.close();
  context.signal?.addEventListener('abort', onInterrupt, { once: true });
  // A signal while the engine was opening came before the listener: honour it now.
  if (context.signal?.aborted) onInterrupt();
  let display: DownloadDisplay | undefined;
  const show = (update: ProgressUpdate): void => display?.update(update);
  try {
    const gate = Promise.all([signedIn.then(() => opened.engine.signIn()), opened.engine.openEnqueuer(folder), displayModule]).then(
      ([, enqueuer, displays]) => {
        // Drawn from here on: a refused sign-in or folder shows its message alone.
        display = displays?.createDownloadDisplay(out);
        // Listened to only for a display: with none (--json, --quiet) the engine builds no progress update at all.
        if (display) opened.engine.on('progress', show);
        return enqueuer;
      },
    );
    gate.then(enqueuerReady.resolve, refuseEnqueuer);
    const [gateOutcome, listingOutcome] = await Promise.allSettled([gate, listed]);
    if (!context.signal?.aborted) {
      // The cause first: a refused sign-in or folder stops the listing, whose own failure then only says so.
      if (gateOutcome.status === 'rejected') throw gateOutcome.reason;
      if (listingOutcome.status === 'rejected') throw listingOutcome.reason;
    }
    const enqueued = gateOutcome.status === 'fulfilled' ? gateOutcome.value.result : { queued: [], skipped: [], rejected: [], reused: [] };
    // An engine closed before the wait began would never settle: a stop that came first ends the wait at once.
    const outcome = context.signal?.aborted ? 'paused' : await opened.engine.whenSettled();
    const batchSeconds = (performance.now() - (firstQueuedAt ?? performance.now())) / 1000;
    opened.engine.off('progress', show);
    // The last throttled update may predate the end: what changed since is drawn once before the summary (files
    // skipped or reused never changed in this run: they are not in it).
    display?.update(opened.engine.progressNow());
    display?.stop();
    display = undefined;
    if (context.signal?.aborted) {
      // Counted once the transfers in flight have stopped (their jobs queued again), by the summary's own rule.
      await opened.engine.close();
      const done = summarise(opened, batchId, folder, enqueued, batchSeconds, false);
      const left = opened.ledger.counts(batchId);
      const toDo = left.queued + left.active + left.paused + notYetQueued;
      out.error(
        `Interrupted: ${doneText(done)}, ${toDo} still to do${listingFinished ? '' : ' (the listing was not finished: there may be more)'}. ` +
          'Run the same command again to continue.',
      );
      return interruptedExitCode(context.signal);
    }
    const summary = summarise(opened, batchId, folder, enqueued, batchSeconds, options.json);
    report(context, summary, options.json);
    if (outcome === 'paused') {
      const reason = opened.engine.overall().pauseReason;
      out.error(`mlso-dl: ${reason?.message ?? 'The download queue was paused.'} Run the same command again to continue.`);
      return EXIT_FAILURE;
    }
    return summary.failed.length > 0 ? EXIT_FAILURE : EXIT_OK;
  } finally {
    opened.engine.off('progress', show);
    display?.stop();
    context.signal?.removeEventListener('abort', onInterrupt);
    await opened.close();
  }
}

/** The jobs of files that were skipped (already downloaded) or reused from another folder: none was downloaded in this run. */
function skippedJobIds(enqueued: EnqueueResult): Set<number> {
  const ids = new Set(enqueued.skipped.flatMap((skip) => (skip.jobId !== undefined ? [skip.jobId] : [])));
  for (const reused of enqueued.reused) ids.add(reused.jobId);
  return ids;
}

function summarise(opened: OpenedEngine, batchId: string, folder: string, enqueued: EnqueueResult, batchSeconds: number, listEach: boolean): Summary {
  const skippedIds = skippedJobIds(enqueued);
  const downloaded: Summary['downloaded'] = [];
  let downloadedCount = 0;
  let downloadedBytes = 0;
  const failed: Summary['failed'] = [...enqueued.rejected];
  for (const job of opened.ledger.endedInBatch(batchId)) {
    if (job.state === 'failed') {
      failed.push({ filename: job.filename, reason: job.lastError ?? 'unknown error' });
    } else if (!skippedIds.has(job.id)) {
      downloadedCount += 1;
      downloadedBytes += job.bytesWritten;
      if (listEach) downloaded.push({ filename: path.basename(job.targetPath), bytes: job.bytesWritten, sha256: job.sha256 ?? '' });
    }
  }
  const overall = opened.engine.overall();
  return {
    folder,
    downloaded,
    downloadedCount,
    downloadedBytes,
    skipped: enqueued.skipped.map((skip) => skip.filename),
    reused: tallyReused(enqueued.reused),
    failed,
    stats: { batchSeconds: Number(batchSeconds.toFixed(3)), bytesReceived: overall.bytesReceived, bytesWritten: overall.bytesWritten },
  };
}

/** What a run (or the part of it a signal let finish) did: "3 downloaded, 2 reused from /data/kcor, 1 already complete, 0 failed". */
function doneText(summary: Summary): string {
  const reused = summary.reused.count > 0 ? `, ${reusedWording(summary.reused)}` : '';
  return `${summary.downloadedCount} downloaded${reused}, ${summary.skipped.length} already complete, ${summary.failed.length} failed`;
}

function report(context: CliContext, summary: Summary, json: boolean): void {
  const { out } = context;
  if (json) {
    const { downloadedCount: _count, downloadedBytes: _bytes, ...printed } = summary;
    printJson(out, printed);
    return;
  }
  const bytes = summary.downloadedBytes;
  const count = summary.downloadedCount;
  out.info(
    `Downloaded ${count} ${count === 1 ? 'file' : 'files'} (${humanSize(bytes)}) into ${summary.folder} in ${summary.stats.batchSeconds.toFixed(1)} s; ` +
      `${summary.reused.count > 0 ? `${reusedWording(summary.reused)}; ` : ''}skipped ${summary.skipped.length} already complete; ${summary.failed.length} failed.`,
  );
  for (const failure of summary.failed) out.error(`failed: ${displayName(failure.filename)}: ${failure.reason}`);
}
