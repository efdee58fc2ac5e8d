// Syncing a campaign: list every query, keep the files in the campaign's set (duplicates across queries once),
// take in files already in the folder that are what the set expects, and queue through the engine only what is
// missing, lost or changed. A file the listing places elsewhere than before moves there (campaign-moves), and a file
// that is not the one a shared file list named (another SHA-256) is reported and counted apart. The same code serves
// the command line (which then waits for the queue) and the app; its summary is counted by the campaign's own counts
// (campaignCounts), so it says what the card says: downloaded, already there, failed, and queued while files move.
import path from 'node:path';
import type { FileEntry } from '../../../src-shared/api/schemas';
import type { CampaignQuery, CampaignSyncPhase, DifferingFile, SyncCounts, SyncReport } from '../../../src-shared/campaigns/campaign-types';
import type { ExistingFilePolicy } from '../../../src-shared/downloads/existing-file-policy';
import { tallyReused } from '../../../src-shared/downloads/reused-files';
import { checkSafeFilename } from '../../../src-shared/files/safe-filename';
import type { MlsoClient } from '../api/mlso-client';
import type { DownloadEngine } from '../downloads/download-engine';
import type { DownloadLedger } from '../downloads/download-ledger';
import type { EnqueueResult } from '../downloads/listing-intake';
import { isCompleteFitsFile } from '../downloads/fits-completeness';
import type { CampaignFileRecord, CampaignFileState, CampaignStore, StoredCampaign } from './campaign-store';
import { entryOfStored, relativePathOf, targetPathOf } from './campaign-paths';
import { CancelledError } from '../errors';
import { sha256OfFile, sizeOfFile } from './file-facts';
import { moveToListedPlaces } from './campaign-moves';
import { campaignCounts, fetchedSince, standingOf } from '../../../src-shared/campaigns/file-standing';

export interface SyncDeps {
  store: CampaignStore;
  ledger: DownloadLedger;
  engine: DownloadEngine;
  client: MlsoClient;
  /** A file in the folder that is not what the set expects: replaced (the default) or left alone. */
  existingFiles?: Exclude<ExistingFilePolicy, 'keep-both'>;
  signal?: AbortSignal;
  onPhase?: (phase: CampaignSyncPhase, listed: number) => void;
}

/** What a sync found before the queue ran: enough to report again once it has (the command line waits for it). */
export interface SyncRun {
  campaignId: number;
  report: SyncReport;
  /** The report again, from the ledger as it stands now. */
  refresh(): SyncReport;
}

/** Files handed to the queue at a time: one ledger transaction each. */
const QUEUE_PIECE = 1000;

/** A sync stopped by its signal ends with CancelledError, whichever step it was in. */
export async function syncCampaign(deps: SyncDeps, campaign: StoredCampaign): Promise<SyncRun> {
  try {
    return await syncSteps(deps, campaign);
  } catch (error) {
    if (deps.signal?.aborted) throw new CancelledError('The sync');
    throw error;
  }
}

async function syncSteps(deps: SyncDeps, campaign: StoredCampaign): Promise<SyncRun> {
  const at = new Date().toISOString();
  const { store } = deps;
  const listedByQuery: Set<string>[] = [];
  const records = new Map<string, CampaignFileRecord>();
  /** Each listed name's place: one name is one file, so a second place for it (a hostile listing) is the first. */
  const placeOfName = new Map<string, string>();
  const refused: SyncReport['refused'] = [];
  let listedCount = 0;
  let duplicates = 0;

  deps.onPhase?.('listing', 0);
  for (const query of campaign.queries) {
    const listed = new Set<string>();
    listedByQuery.push(listed);
    await deps.client.streamFiles(
      query,
      (entries) => {
        for (const entry of entries) {
          const record = recordOf(campaign, entry, deps.client);
          if ('refused' in record) {
            refused.push({ filename: entry.filename, reason: record.refused });
            continue;
          }
          const relativePath = placeOfName.get(record.filename) ?? record.relativePath;
          placeOfName.set(record.filename, relativePath);
          if (listed.has(relativePath)) continue;
          listed.add(relativePath);
          if (records.has(relativePath)) duplicates += 1;
          else records.set(record.relativePath, record);
        }
        listedCount += entries.length;
        deps.onPhase?.('listing', listedCount);
      },
      deps.signal ? { signal: deps.signal } : {},
    );
  }
  const moved = await moveToListedPlaces(deps, campaign, records.values());
  const added = store.recordFiles(campaign.id, [...records.values()]);

  deps.onPhase?.('checking', listedCount);
  const files = store.files(campaign.id);
  await adoptFilesAlreadyThere(deps.ledger, files, deps.signal);

  deps.onPhase?.('queueing', listedCount);
  // Files of the set the queue refuses now (recorded while other servers were allowed, say) are reported with
  // the reason, not only counted as missing.
  const refusedNow = new Set(refused.map((refusal) => refusal.filename));
  const queuedNow = await queueWhatIsMissing(deps, campaign, store.files(campaign.id));
  for (const refusal of queuedNow.rejected) {
    if (!refusedNow.has(refusal.filename)) refused.push(refusal);
  }
  const reused = tallyReused(queuedNow.reused);

  const refresh = (): SyncReport => ({
    ...reportOf(deps, campaign, store.files(campaign.id), listedByQuery, { added, duplicates, refused, moved }, at),
    reused,
  });
  const report = refresh();
  store.recordSync(campaign.id, report);
  return { campaignId: campaign.id, report, refresh };
}

/** A listed entry as a campaign file, or why it cannot be one. */
function recordOf(campaign: StoredCampaign, entry: FileEntry, client: MlsoClient): CampaignFileRecord | { refused: string } {
  const safe = checkSafeFilename(entry.filename);
  if (!safe.ok) return { refused: `unsafe file name: ${safe.reason}` };
  // Refused here as the queue's intake would refuse it, so the sync's report says why the file is not fetched.
  const addressRefusal = client.downloadAddressRefusal(entry.url);
  if (addressRefusal) return { refused: addressRefusal.message };
  const relativePath = relativePathOf(campaign.layout, entry);
  return {
    relativePath,
    targetPath: targetPathOf(campaign.folder, relativePath),
    filename: entry.filename,
    url: entry.url,
    instrument: entry.instrument,
    product: entry.product,
    dateObs: entry['date-obs'],
    waveRegion: textOrNull(entry['wave-region']),
    obsPlan: textOrNull(entry['obs-plan']),
    filesize: entry.filesize,
    expectedSha256: null,
  };
}

function textOrNull(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

/**
 * Files the ledger does not know that are already in the folder: taken in as downloaded when they are what the set
 * expects (the SHA-256 a shared file list gave, or, without one, a complete FITS file), so they are not fetched again.
 */
async function adoptFilesAlreadyThere(ledger: DownloadLedger, files: readonly CampaignFileState[], signal: AbortSignal | undefined): Promise<void> {
  for (const file of files) {
    signal?.throwIfAborted();
    if (file.jobId !== null) continue;
    const size = await sizeOfFile(file.targetPath);
    if (size === undefined) continue;
    if (file.expectedSha256 === null && !(await isCompleteFitsFile(file.targetPath))) continue;
    const sha256 = await sha256OfFile(file.targetPath);
    if (file.expectedSha256 !== null && sha256 !== file.expectedSha256) continue;
    ledger.transaction(() => {
      const [id] = ledger.insertMany([
        {
          url: file.url,
          instrument: file.instrument,
          product: file.product,
          dateObs: file.dateObs,
          filename: file.filename,
          folder: path.dirname(file.targetPath),
          targetPath: file.targetPath,
          expectedSize: file.filesize,
          batchId: null,
          state: 'done',
        },
      ]);
      ledger.markDone(id!, { sha256, bytesReceived: 0, bytesWritten: size });
    });
  }
}

/**
 * Hands every file of the set to the queue's intake, which skips those downloaded and still there and reuses those
 * finished in another folder; returns what it refused and reused.
 */
async function queueWhatIsMissing(deps: SyncDeps, campaign: StoredCampaign, files: readonly CampaignFileState[]): Promise<EnqueueResult> {
  const places = new Map<FileEntry, string>();
  const entries: FileEntry[] = [];
  for (const file of files) {
    const entry = entryOfStored(file);
    places.set(entry, path.posix.dirname(file.relativePath) === '.' ? '' : path.posix.dirname(file.relativePath));
    entries.push(entry);
  }
  const intake = await deps.engine.openIntake(campaign.folder, {
    existingFiles: deps.existingFiles ?? 'overwrite',
    placement: (entry) => places.get(entry) ?? '',
  });
  for (let start = 0; start < entries.length; start += QUEUE_PIECE) {
    deps.signal?.throwIfAborted();
    await intake.add(entries.slice(start, start + QUEUE_PIECE));
  }
  return intake.result;
}

function reportOf(
  deps: { store: CampaignStore },
  campaign: StoredCampaign,
  files: readonly CampaignFileState[],
  listedByQuery: readonly Set<string>[],
  found: { added: ReadonlySet<string>; duplicates: number; refused: SyncReport['refused']; moved: SyncReport['moved'] },
  at: string,
): SyncReport {
  const byPath = new Map(files.map((file) => [file.relativePath, file]));
  const queries = campaign.queries.map((query: CampaignQuery, index) => {
    const listed = listedByQuery[index] ?? new Set<string>();
    // Each query's row by the same function as the campaign's counts, over the files it listed.
    const groups = [...listed].map((relativePath) => {
      const file = byPath.get(relativePath);
      return { standing: file ? standingOf(file) : ('missing' as const), fetchedSinceSync: file !== undefined && fetchedSince(file, at), files: 1 };
    });
    const { files: _files, ...counts } = campaignCounts(groups, true);
    const added = [...listed].filter((relativePath) => found.added.has(relativePath)).length;
    return { query, listed: listed.size, new: added, ...counts };
  });
  // The total is the campaign's counts themselves (the card's), from this sync's start: it covers the whole set,
  // files listed by an earlier sync (or a shared list) too.
  const listedNow = new Set(listedByQuery.flatMap((listed) => [...listed]));
  const { files: _files, ...counts } = deps.store.counts(campaign.id, at);
  const total: SyncCounts = { listed: listedNow.size, new: [...found.added].filter((relativePath) => byPath.has(relativePath)).length, ...counts };
  const differing: DifferingFile[] = files
    .filter((file) => standingOf(file) === 'differs')
    .map((file) => ({ path: file.relativePath, filename: file.filename, expectedSha256: file.expectedSha256!, sha256: file.sha256! }));
  return { campaign: campaign.name, at, queries, total, duplicates: found.duplicates, refused: found.refused, moved: found.moved, differing };
}
