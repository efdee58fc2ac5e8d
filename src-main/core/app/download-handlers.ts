// The download queue behind the contract. Files are queued by reference (a kept search and the chosen rows, or a
// query the core lists itself): the renderer never hands URLs to the core.
import { tallyReused } from '../../../src-shared/downloads/reused-files';
import { parseRateLimit } from '../../../src-shared/downloads/rate-limit-text';
import path from 'node:path';
import type { FileEntry } from '../../../src-shared/api/schemas';
import type { ContractHandlers, EnqueueRequest, EnqueueSummary } from '../../../src-shared/contract/contract';
import type { Settings } from '../../../src-shared/settings/settings-types';
import type { DownloadLedger } from '../downloads/download-ledger';
import type { MlsoClient } from '../api/mlso-client';
import type { DownloadEngine } from '../downloads/download-engine';
import type { EnqueueResult } from '../downloads/listing-enqueuer';
import { SignInRequiredError } from '../downloads/session-keeper';
import { InvalidInputError } from '../errors';
import { finishedIds, jobFolders, pageIds, placeCounts } from '../downloads/job-pages';
import { readFinishedFile } from './finished-file';
import type { SearchKeeper } from '../search/search-keeper';

export interface DownloadDeps {
  engine: DownloadEngine;
  ledger: DownloadLedger;
  client: MlsoClient;
  searches: SearchKeeper;
  settings: () => Settings;
  signedIn: () => Promise<boolean>;
}

type DownloadChannels =
  | 'downloads:enqueue'
  | 'downloads:snapshot'
  | 'downloads:page'
  | 'downloads:folders'
  | 'downloads:finished-of'
  | 'downloads:pause-all'
  | 'downloads:resume-all'
  | 'downloads:retry-failed'
  | 'downloads:clear-finished'
  | 'downloads:pause'
  | 'downloads:resume'
  | 'downloads:cancel'
  | 'downloads:retry'
  | 'downloads:move-to-front'
  | 'files:read';

/** The download folder of a request, or the settings' one; it must be a full path. */
function downloadTarget(folder: string | undefined, settings: Settings): string {
  const target = folder ?? settings.downloadFolder;
  if (!path.isAbsolute(target)) throw new InvalidInputError('The download folder must be a full path: choose one in Settings.');
  return path.resolve(target);
}

/** Applies the engine's part of the settings (taken at once, also by transfers already running). */
export function applyEngineSettings(engine: DownloadEngine, settings: Settings): void {
  engine.setConcurrency(settings.concurrency);
  engine.setMaxAttempts(settings.retries + 1);
  engine.setExistingFilePolicy(settings.existingFiles);
  engine.setReuseBy(settings.linkReused ? 'link' : 'copy');
  engine.setRateLimit(rateLimitOf(settings));
}

/** The speed cap the settings ask for in bytes per second, or null (the rules checked the text before it was saved). */
export function rateLimitOf(settings: Settings): number | null {
  const rate = parseRateLimit(settings.limitRate);
  return rate.ok ? rate.bytesPerSecond : null;
}

export function downloadHandlers(deps: DownloadDeps): Pick<ContractHandlers, DownloadChannels> {
  const { engine } = deps;
  const idle = (work: () => void) => (): null => {
    work();
    return null;
  };
  const onJob =
    (work: (id: number) => void) =>
    ({ id }: { id: number }): null => {
      work(id);
      return null;
    };
  return {
    'downloads:enqueue': async (request) => {
      if (!(await deps.signedIn())) throw new SignInRequiredError();
      const folder = downloadTarget(request.folder, deps.settings());
      const result = await enqueue(deps, request, folder);
      return summarise(result, folder);
    },
    'downloads:snapshot': () => ({ jobs: engine.jobs(), overall: engine.overall() }),
    'downloads:page': (request) => {
      const jobs = engine.viewsOf(pageIds(deps.ledger, request));
      if (!request.counted) return { offset: request.offset, jobs, counts: null, overall: null };
      // Every folder's counts are the overall figures' own (one GROUP BY, not two).
      const overall = engine.overall();
      return { offset: request.offset, jobs, counts: request.place === null ? overall : placeCounts(deps.ledger, request.place), overall };
    },
    'downloads:folders': () => jobFolders(deps.ledger),
    'downloads:finished-of': ({ filenames }) => engine.viewsOf(finishedIds(deps.ledger, filenames)),
    'downloads:pause-all': idle(() => engine.pauseAll()),
    'downloads:resume-all': idle(() => engine.resumeAll()),
    'downloads:retry-failed': () => engine.retryFailed(),
    'downloads:clear-finished': () => engine.clearFinished(),
    'downloads:pause': onJob((id) => engine.pause(id)),
    'downloads:resume': onJob((id) => engine.resume(id)),
    'downloads:cancel': onJob((id) => engine.cancel(id)),
    'downloads:retry': onJob((id) => engine.retry(id)),
    'downloads:move-to-front': onJob((id) => engine.moveToFront(id)),
    'files:read': ({ id }) => readFinishedFile(deps.ledger, id, [deps.settings().downloadFolder]),
  };
}

async function enqueue(deps: DownloadDeps, request: EnqueueRequest, folder: string): Promise<EnqueueResult> {
  const enqueuer = await deps.engine.openEnqueuer(folder);
  // The contract's schema let through exactly one of the two forms (see invoke-handler.ts).
  if ('searchId' in request) {
    // The kept search's rows go from its table to the queue in chunks: no list crosses to the window and back.
    await deps.searches.enqueue(request.searchId, request.selection ?? null, (entries) => enqueuer.add(entries));
  } else {
    // A query: the listing streams into the queue as it arrives, as on the command line.
    await deps.client.streamFiles(request.query, (entries: FileEntry[]) => enqueuer.add(entries));
  }
  return enqueuer.result;
}

function summarise(result: EnqueueResult, folder: string): EnqueueSummary {
  return {
    queued: result.queued.length,
    skipped: result.skipped.map(({ filename, reason }) => ({ filename, reason })),
    rejected: result.rejected,
    reused: tallyReused(result.reused),
    folder,
  };
}
