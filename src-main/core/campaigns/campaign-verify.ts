// Verifying a campaign: every file the ledger says was downloaded is hashed again and compared with the SHA-256
// recorded when it was written; the folder is walked for files that are not in the set. A changed file is marked in
// the ledger, so the next sync fetches exactly the missing and changed files (a missing one it notices by itself).
// An intact file that is not the one a shared file list named (another SHA-256) is reported apart: fetching it
// again would give the same bytes, so it is not marked. A file sync refuses (a path the system does not take, say)
// is named refused with the reason, not missing: syncing again would not fetch it.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { VerifyProblem, VerifyReport } from '../../../src-shared/campaigns/campaign-types';
import type { DownloadLedger } from '../downloads/download-ledger';
import { pathLengthProblem } from '../downloads/path-limits';
import { isTemporaryName } from '../downloads/temporary-files';
import { CHANGED_ON_DISK, type CampaignStore, type StoredCampaign } from './campaign-store';
import { sha256OfFile, sizeOfFile } from './file-facts';
import { standingOf } from '../../../src-shared/campaigns/file-standing';

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
  let onDisk = 0;
  let checked = 0;
  for (const file of files) {
    deps.signal?.throwIfAborted();
    const size = await sizeOfFile(file.targetPath);
    if (file.state === 'done' && file.jobId !== null) {
      if (size === undefined) problems.push({ path: file.relativePath, problem: 'missing' });
      else if (size === file.bytesWritten && (await sha256OfFile(file.targetPath)) === file.sha256) {
        if (standingOf(file) === 'differs') problems.push({ path: file.relativePath, problem: 'differs' });
        else onDisk += 1;
      } else {
        problems.push({ path: file.relativePath, problem: 'changed' });
        deps.ledger.markFailed(
          file.jobId,
          CHANGED_ON_DISK,
          `${file.filename} changed on disk after it was downloaded (its SHA-256 differs); sync fetches it again.`,
        );
      }
    } else if (file.state === 'failed' && file.lastErrorKind === CHANGED_ON_DISK) {
      // Found changed by an earlier verify and not fetched again since.
      problems.push({ path: file.relativePath, problem: 'changed' });
    } else if (file.state === 'failed') {
      problems.push({ path: file.relativePath, problem: 'failed' });
    } else {
      const reason = size === undefined ? (pathLengthProblem(file.targetPath) ?? refusedBySync.get(file.filename)) : undefined;
      problems.push(reason === undefined ? { path: file.relativePath, problem: 'missing' } : { path: file.relativePath, problem: 'refused', reason });
    }
    checked += 1;
    deps.onFile?.(checked, files.length);
  }
  const expected = new Set(files.map((file) => file.relativePath));
  for (const relativePath of await filesUnder(campaign.folder)) {
    if (!expected.has(relativePath)) problems.push({ path: relativePath, problem: 'unexpected' });
  }
  const count = (problem: VerifyProblem): number => problems.filter((entry) => entry.problem === problem).length;
  return {
    campaign: campaign.name,
    at,
    onDisk,
    missing: count('missing'),
    changed: count('changed'),
    unexpected: count('unexpected'),
    failed: count('failed'),
    differs: count('differs'),
    refused: count('refused'),
    problems,
  };
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
