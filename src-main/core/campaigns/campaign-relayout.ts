// A campaign whose layout changed keeps the files it has: each intact copy is renamed to its new place within the
// campaign's folder (folders made, folders left empty removed) with its ledger job, by the same steps as a file the
// listing moves (campaign-moves). A copy that is missing or changed, or whose new place is taken, is left to the next
// sync, which fetches it there. Two files that would share a place refuse the change before anything moves.
//
// Crash safety: the new layout is recorded first, with the campaign marked as moving (store.markLayoutMoving), then
// each file is renamed and its record and job moved in one ledger transaction; the mark goes once every file is
// placed. Whatever next uses a campaign still marked (the change asked again, a sync, a verify: campaign-service)
// finishes the change first. A kill between a rename and its record leaves a file at its new place whose record is
// still at the old one: the change finds it there (with the SHA-256 its job recorded) and keeps its job; files not yet
// moved are moved, never fetched again.
import path from 'node:path';
import type { DownloadLedger } from '../downloads/download-ledger';
import { InvalidInputError } from '../errors';
import { cancelWaitingJobs, isIntact, moveWithin, newPlaceIsFree, removeEmptyFolders } from './campaign-moves';
import { entryOfStored, relativePathOf, targetPathOf } from './campaign-paths';
import type { CampaignFileState, CampaignStore, StoredCampaign } from './campaign-store';
import { sha256OfFile, sizeOfFile } from './file-facts';

/** What a layout change did with the files already there. */
export interface LayoutMoves {
  /** Moved on disk to their new places, their ledger jobs with them. */
  moved: number;
  /** Copies missing or changed (or whose new place was taken): the next sync fetches them at their new places. */
  leftForSync: number;
}

export interface PlannedMove {
  file: CampaignFileState;
  /** The new relative path. */
  to: string;
}

/**
 * The campaign's files that `layout` places elsewhere, ordered so that no other file's record holds a new place when
 * its turn comes (one file's new place can be another's old one). Refuses, with what to do, a layout under which
 * two files would share a place or take each other's.
 */
export function planLayoutMoves(files: readonly CampaignFileState[], layout: string): PlannedMove[] {
  const byNewPlace = new Map<string, CampaignFileState>();
  let pending: PlannedMove[] = [];
  for (const file of files) {
    const to = relativePathOf(layout, entryOfStored(file));
    const other = byNewPlace.get(to);
    if (other) {
      throw new InvalidInputError(
        `${underLayout(layout)} two files would both be at "${to}" (from ${other.relativePath} and ${file.relativePath}): choose a layout whose placeholders tell them apart.`,
      );
    }
    byNewPlace.set(to, file);
    if (to !== file.relativePath) pending.push({ file, to });
  }
  const held = new Set(files.map((file) => file.relativePath));
  const ordered: PlannedMove[] = [];
  while (pending.length > 0) {
    const waiting = pending.filter((move) => {
      if (held.has(move.to)) return true;
      held.delete(move.file.relativePath);
      held.add(move.to);
      ordered.push(move);
      return false;
    });
    if (waiting.length === pending.length) {
      const [first] = waiting;
      throw new InvalidInputError(
        `${underLayout(layout)} files would take each other's places (${first!.file.relativePath} and ${first!.to}): change the layout in two steps, or choose one whose placeholders tell them apart.`,
      );
    }
    pending = waiting;
  }
  return ordered;
}

function underLayout(layout: string): string {
  return layout === '' ? 'With every file in the folder itself,' : `Under the layout ${layout},`;
}

export interface RelayoutDeps {
  store: CampaignStore;
  ledger: DownloadLedger;
  signal?: AbortSignal;
}

/** Moves each planned file to its new place (the campaign already has its new layout); see the header. */
export async function moveToLayoutPlaces(deps: RelayoutDeps, campaign: StoredCampaign, plan: readonly PlannedMove[]): Promise<LayoutMoves> {
  const moves: LayoutMoves = { moved: 0, leftForSync: 0 };
  for (const { file, to } of plan) {
    deps.signal?.throwIfAborted();
    const record = { ...file, relativePath: to, targetPath: targetPathOf(campaign.folder, to) };
    if (await movedBeforeItsRecord(deps.ledger, file, record.targetPath)) {
      deps.store.relocateFile(campaign.id, file.relativePath, [], record, file.jobId);
      // The kill may have come before the folders the file left were removed.
      await removeEmptyFolders(campaign.folder, path.dirname(file.targetPath));
      moves.moved += 1;
      continue;
    }
    const movable = (await isIntact(file, { bySize: true })) && (await newPlaceIsFree(deps.ledger, record.targetPath));
    if (movable && (await moveWithin(campaign.folder, file.targetPath, record.targetPath))) {
      // A jobless copy (named by a shared file list) is taken in at its new place by the next sync.
      deps.store.relocateFile(campaign.id, file.relativePath, [], record, file.state === 'done' ? file.jobId : null);
      moves.moved += 1;
    } else {
      deps.store.relocateFile(campaign.id, file.relativePath, [], record, null);
      await cancelWaitingJobs(deps.ledger, campaign.folder, [file]);
      moves.leftForSync += 1;
    }
  }
  return moves;
}

/** Renamed by a change killed before the file's record followed: gone from the old place, at the new one as its job wrote it. */
async function movedBeforeItsRecord(ledger: DownloadLedger, file: CampaignFileState, newTarget: string): Promise<boolean> {
  if (file.jobId === null || file.state !== 'done' || file.sha256 === null) return false;
  if ((await sizeOfFile(file.targetPath)) !== undefined || ledger.findByTarget(newTarget) !== undefined) return false;
  return (await sizeOfFile(newTarget)) === file.bytesWritten && (await sha256OfFile(newTarget)) === file.sha256;
}
