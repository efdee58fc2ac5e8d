// A file the listing now places elsewhere in a campaign's layout: the server changed its obs-plan, say, or a shared
// file list gave it another date-obs than the archive does. One name is one file, kept in one place: its record
// takes the new place, and its copy moves there when it is intact (renamed within the campaign's folder, its ledger
// job with it); otherwise the sync fetches it there. Either way the sync's report names it.
import { mkdir, rename, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { SyncReport } from '../../../src-shared/campaigns/campaign-types';
import type { DownloadLedger } from '../downloads/download-ledger';
import { exists } from '../downloads/existing-files';
import { isCompleteFitsFile } from '../downloads/fits-completeness';
import { pathLengthProblem } from '../downloads/path-limits';
import { isTemporaryName } from '../downloads/temporary-files';
import type { CampaignFileRecord, CampaignFileState, CampaignStore, StoredCampaign } from './campaign-store';
import { sha256OfFile, sizeOfFile } from './file-facts';

export interface MoveDeps {
  store: CampaignStore;
  ledger: DownloadLedger;
  signal?: AbortSignal;
}

/**
 * Gives each listed file whose record is at another place that place; returns what moved (or will be fetched). Called
 * with a chunk of a listing at a time, and the campaign's files of the chunk's names (`named`, store.filesNamed).
 */
export async function moveToListedPlaces(
  deps: MoveDeps,
  campaign: StoredCampaign,
  listed: readonly CampaignFileRecord[],
  named: readonly CampaignFileState[],
): Promise<SyncReport['moved']> {
  const byName = new Map<string, CampaignFileState[]>();
  for (const file of named) {
    const same = byName.get(file.filename);
    if (same) same.push(file);
    else byName.set(file.filename, [file]);
  }
  const moved: SyncReport['moved'] = [];
  for (const record of listed) {
    const same = byName.get(record.filename);
    const elsewhere = same?.filter((file) => file.relativePath !== record.relativePath) ?? [];
    if (elsewhere.length === 0) continue;
    deps.signal?.throwIfAborted();
    const atNewPlace = same!.find((file) => file.relativePath === record.relativePath);
    const expectedSha256 = record.expectedSha256 ?? elsewhere.find((file) => file.expectedSha256 !== null)?.expectedSha256 ?? null;
    const to = { ...record, expectedSha256 };
    const others = elsewhere.map((file) => file.relativePath);
    if (atNewPlace?.jobId !== undefined && atNewPlace.jobId !== null) {
      // Fetched to its new place by an earlier sync: the records left at the old places only go.
      deps.store.relocateFile(campaign.id, atNewPlace.relativePath, others, to, null);
      continue;
    }
    const source = (await newPlaceIsFree(deps.ledger, record.targetPath)) ? await firstIntact(elsewhere, deps.signal) : undefined;
    const movedOnDisk = source !== undefined && (await moveWithin(campaign.folder, source.targetPath, record.targetPath));
    const kept = (movedOnDisk ? source : undefined) ?? elsewhere[0]!;
    // A moved finished job goes with its file; a jobless file is taken in at its new place like any file found there.
    deps.store.relocateFile(campaign.id, kept.relativePath, others, to, movedOnDisk && kept.state === 'done' ? kept.jobId : null);
    await cancelWaitingJobs(deps.ledger, campaign.folder, elsewhere);
    moved.push({ filename: record.filename, from: kept.relativePath, to: record.relativePath, movedOnDisk });
  }
  return moved;
}

/**
 * A job still waiting at an old place (queued by a sync that was interrupted) would fetch the file there too: the
 * file is fetched at its new place instead. A job being transferred right now is left to finish. The temporary
 * file and the resume file holding the beginning of its body that the ledger records for a cancelled job go at once (a transfer stopped
 * by a kill or a pause leaves them), with the folders they leave empty: nothing would ever finish it, and the
 * stale-file cleanup only looks at folders in use.
 */
export async function cancelWaitingJobs(ledger: DownloadLedger, campaignFolder: string, oldPlaces: readonly CampaignFileState[]): Promise<void> {
  for (const file of oldPlaces) {
    if (file.jobId === null || (file.state !== 'queued' && file.state !== 'paused')) continue;
    const job = ledger.get(file.jobId);
    const left = [job?.tempName && isTemporaryName(job.tempName) ? job.tempName : undefined, job?.resume?.name].filter((name) => name !== undefined);
    if (job && left.length > 0) {
      for (const name of left) await unlink(path.join(job.folder, name)).catch(() => undefined);
      await removeEmptyFolders(campaignFolder, job.folder);
    }
    ledger.setState(file.jobId, 'cancelled');
  }
}

/** Nothing is at the new place, on disk or in the ledger, and the system takes its path. */
export async function newPlaceIsFree(ledger: DownloadLedger, targetPath: string): Promise<boolean> {
  return pathLengthProblem(targetPath) === undefined && ledger.findByTarget(targetPath) === undefined && !(await exists(targetPath));
}

async function firstIntact(files: readonly CampaignFileState[], signal: AbortSignal | undefined): Promise<CampaignFileState | undefined> {
  for (const file of files) {
    signal?.throwIfAborted();
    if (await isIntact(file)) return file;
  }
  return undefined;
}

/**
 * The file at the old place is the one the campaign has: as its finished job wrote it, or, with no job, the file
 * the shared list named (or a complete FITS file when the list gave no SHA-256), as a sync would take it in. With
 * `bySize`, a finished job's file is taken at the size it was written, as the queue takes it when it skips a file
 * already downloaded: a layout change moves thousands of files, and verify still finds one changed after its move.
 */
export async function isIntact(file: CampaignFileState, options: { bySize?: boolean } = {}): Promise<boolean> {
  const size = await sizeOfFile(file.targetPath);
  if (size === undefined) return false;
  if (file.jobId !== null) {
    if (file.state !== 'done' || file.sha256 === null || size !== file.bytesWritten) return false;
    return options.bySize === true || (await sha256OfFile(file.targetPath)) === file.sha256;
  }
  if (file.expectedSha256 !== null) return (await sha256OfFile(file.targetPath)) === file.expectedSha256;
  return isCompleteFitsFile(file.targetPath);
}

/** Renames a file within the campaign's folder, making the new place's folders and removing old ones left empty. */
export async function moveWithin(campaignFolder: string, from: string, to: string): Promise<boolean> {
  try {
    await mkdir(path.dirname(to), { recursive: true });
    await rename(from, to);
  } catch {
    // Then it is fetched to its new place, as when its copy was not intact.
    return false;
  }
  await removeEmptyFolders(campaignFolder, path.dirname(from));
  return true;
}

/** Removes `folder` and the folders above it that are left empty, up to the campaign's folder (never it). */
export async function removeEmptyFolders(campaignFolder: string, folder: string): Promise<void> {
  for (
    let current = folder;
    path.relative(campaignFolder, current) !== '' && !path.relative(campaignFolder, current).startsWith('..');
    current = path.dirname(current)
  ) {
    try {
      await rmdir(current);
    } catch {
      return; // not empty (or not ours to remove): the folders above it are not empty either
    }
  }
}
