// Verifying a campaign: every file the ledger says was downloaded is hashed again and compared with the SHA-256
// recorded when it was written; the folder is walked for files that are not in the set. A changed or missing file is
// marked in the ledger, so the next sync fetches exactly those, and so the campaign's counts (the card's) say what
// verify found until a download changes it: the report's numbers are those counts (one function, one truth).
// An intact file that is not the one a shared file list named (another SHA-256) is reported apart: fetching it
// again would give the same bytes, so it is not marked. A file sync refuses (a path the system does not take, say)
// is named refused with the reason, not missing: syncing again would not fetch it.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { VerifyProblem, VerifyReport } from '../../../src-shared/campaigns/campaign-types';
import type { DownloadLedger } from '../downloads/download-ledger';
import { pathLengthProblem } from '../downloads/path-limits';
import { isTemporaryName } from '../downloads/temporary-files';
import type { CampaignStore, StoredCampaign } from './campaign-store';
import { sha256OfFile, sizeOfFile } from './file-facts';
import { CHANGED_ON_DISK, MISSING_ON_DISK, standingOf } from '../../../src-shared/campaigns/file-standing';

export interface VerifyDeps {
  store: CampaignStore;
  ledger: DownloadLedger;
  signal?: AbortSignal;
  /** Called after each file hashed, with how many are done and how many there are. */
  onFile?: (checked: number, total: number) => void;
}

export async function verifyCampaign(deps: VerifyDeps, campaign: StoredCampaign): Promise<VerifyReport> {
  const at = new Date().toISOString();
  const files = deps.store.files(campaign.id);
  const problems: VerifyReport['problems'] = [];
  const refusedBySync = new Map(campaign.lastSync?.refused.map((refusal) => [refusal.filename, refusal.reason]));
  let checked = 0;
  for (const file of files) {
    deps.signal?.throwIfAborted();
    const size = await sizeOfFile(file.targetPath);
    if (file.state === 'done' && file.jobId !== null) {
      if (size === undefined) {
        problems.push({ path: file.relativePath, problem: 'missing' });
        // Recorded, so the card counts it missing too (until the next sync fetches it again).
        deps.ledger.markFailed(file.jobId, MISSING_ON_DISK, `${file.filename} is no longer on disk; sync fetches it again.`);
      } else if (size === file.bytesWritten && (await sha256OfFile(file.targetPath)) === file.sha256) {
        if (standingOf(file) === 'differs') problems.push({ path: file.relativePath, problem: 'differs' });
      } else {
        problems.push({ path: file.relativePath, problem: 'changed' });
        deps.ledger.markFailed(
          file.jobId,
          CHANGED_ON_DISK,
          `${file.filename} changed on disk after it was downloaded (its SHA-256 differs); sync fetches it again.`,
        );
      }
    } else {
      // Found by an earlier verify and not fetched again since, failed, or never fetched: as the ledger has it.
      const standing = standingOf(file);
      if (standing === 'changed' || standing === 'failed') problems.push({ path: file.relativePath, problem: standing });
      else if (standing === 'missing') {
        const reason = size === undefined ? (pathLengthProblem(file.targetPath) ?? refusedBySync.get(file.filename)) : undefined;
        problems.push(reason === undefined ? { path: file.relativePath, problem: 'missing' } : { path: file.relativePath, problem: 'refused', reason });
      }
    }
    checked += 1;
    deps.onFile?.(checked, files.length);
  }
  const expected = new Set(files.map((file) => file.relativePath));
  for (const relativePath of await filesUnder(campaign.folder)) {
    if (!expected.has(relativePath)) problems.push({ path: relativePath, problem: 'unexpected' });
  }
  const count = (problem: VerifyProblem): number => problems.filter((entry) => entry.problem === problem).length;
  // The counts are the campaign's own (the card's), now that what verify found is in the ledger: one function, so
  // the report and the card cannot disagree. A refused file is one of the missing (or not yet synced) ones.
  return { campaign: campaign.name, at, ...deps.store.counts(campaign.id), unexpected: count('unexpected'), refused: count('refused'), problems };
}

/** Every file under a folder, relative with `/` separators; temporary files of downloads under way are left out. */
async function filesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  let entries;
  try {
    entries = await readdir(folder, { recursive: true, withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!entry.isFile() || isTemporaryName(entry.name)) continue;
    const parent = entry.parentPath;
    found.push(path.relative(folder, path.join(parent, entry.name)).split(path.sep).join('/'));
  }
  return found.sort();
}
