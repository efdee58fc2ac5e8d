// Verifying a campaign: every file the ledger says was downloaded is hashed again and compared with the SHA-256
// recorded when it was written; the folder is walked for files that are not in the set. A changed or missing file is
// marked in the ledger, so the next sync fetches exactly those, and so the campaign's counts (the card's) say what
// verify found until a download changes it: the report's numbers are those counts (one function, one truth).
// An intact file that is not the one a shared file list named (another SHA-256) is reported apart: fetching it
// again would give the same bytes, so it is not marked. A file sync refuses (a path the system does not take, say)
// is named refused with the reason, not missing: syncing again would not fetch it. What is not a regular file (a FIFO,
// a device) is never read: the file is missing, and the report says what is in its place.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { CampaignCounts, VerifyProblem, VerifyReport } from '../../../src-shared/campaigns/campaign-types';
import type { DownloadLedger } from '../downloads/download-ledger';
import { pathLengthProblem } from '../downloads/path-limits';
import { isResumeFileName } from '../downloads/resume-file';
import { isTemporaryName } from '../downloads/temporary-files';
import type { StateDatabase } from '../state/state-database';
import type { CampaignStore, StoredCampaign } from './campaign-store';
import { sizeOfFile } from './file-facts';
import { HashPool, hashFiles, type FileFound, type HashOptions, type NotAFile } from './file-hashing';
import { eachPageToVerify, fileCount, inObservationOrder, type FileToVerify } from './files-to-verify';
import { CHANGED_ON_DISK, MISSING_ON_DISK } from '../../../src-shared/campaigns/file-standing';

export interface VerifyDeps {
  store: CampaignStore;
  ledger: DownloadLedger;
  /** The database the store and the ledger share: verify reads its files from it narrowly (files-to-verify.ts). */
  state: StateDatabase;
  signal?: AbortSignal;
  /**
   * Trust a file whose size and modification time are those it had when it was last hashed and found intact; hash
   * only the others (and those never hashed by a verify).
   */
  quick?: boolean;
  /** Called as files are hashed, with how many are done and how many are to be hashed. */
  onHashed?: (done: number, total: number) => void;
}

/** What verify found of a file; NotAFile: missing, something else in its place. */
type Finding = 'intact' | 'missing' | 'changed' | NotAFile;

export async function verifyCampaign(deps: VerifyDeps, campaign: StoredCampaign): Promise<VerifyReport> {
  const at = new Date().toISOString();
  // Walked while the files are hashed: one thread's work beside the workers'.
  const onDisk = filesUnder(campaign.folder);
  const { files, findings } = await findingsOf(deps, campaign.id);
  // Each file's problem, then put in the order the campaign lists its files (the pages came by path).
  const found: [FileToVerify, VerifyReport['problems'][number]][] = [];
  const note = (file: FileToVerify, entry: VerifyReport['problems'][number]): number => found.push([file, entry]);
  const refusedBySync = new Map(campaign.lastSync?.refused.map((refusal) => [refusal.filename, refusal.reason]));
  const marks = markings(deps);
  for (const file of files) {
    const finding = findings.get(file);
    if (finding === 'missing') {
      note(file, { path: file.relativePath, problem: 'missing' });
      // Recorded, so the card counts it missing too (until the next sync fetches it again).
      marks.mark(file.jobId!, MISSING_ON_DISK, `${file.filename} is no longer on disk; sync fetches it again.`);
    } else if (typeof finding === 'object') {
      note(file, { path: file.relativePath, problem: 'missing', reason: `${finding.instead} is in its place, which is not read` });
      marks.mark(file.jobId!, MISSING_ON_DISK, `${file.filename} is no longer a file on disk (${finding.instead} is in its place); sync fetches it again.`);
    } else if (finding === 'changed') {
      note(file, { path: file.relativePath, problem: 'changed' });
      marks.mark(file.jobId!, CHANGED_ON_DISK, `${file.filename} changed on disk after it was downloaded (its SHA-256 differs); sync fetches it again.`);
    } else if (finding === 'intact') {
      if (file.standing === 'differs') note(file, { path: file.relativePath, problem: 'differs' });
    } else {
      // Found by an earlier verify and not fetched again since, failed, or never fetched: as the ledger has it.
      const { standing } = file;
      if (standing === 'changed' || standing === 'failed') note(file, { path: file.relativePath, problem: standing });
      else if (standing === 'missing') {
        const size = await sizeOfFile(file.targetPath);
        const reason = size === undefined ? (pathLengthProblem(file.targetPath) ?? refusedBySync.get(file.filename)) : undefined;
        note(file, reason === undefined ? { path: file.relativePath, problem: 'missing' } : { path: file.relativePath, problem: 'refused', reason });
      }
    }
  }
  // A file the archive no longer lists is counted apart (its standing): what is on disk of it is no problem a sync
  // could fix, so it is not named as one.
  const problems = found
    .filter(([file]) => !file.noLongerListed)
    .sort(([a], [b]) => inObservationOrder(a, b))
    .map(([, entry]) => entry);
  const expected = new Set(files.map((file) => file.relativePath));
  for (const relativePath of await onDisk) {
    if (!expected.has(relativePath)) problems.push({ path: relativePath, problem: 'unexpected' });
  }
  const count = (problem: VerifyProblem): number => problems.filter((entry) => entry.problem === problem).length;
  // The counts are the campaign's own (the card's), now that what verify found is in the ledger: one function, so
  // the report and the card cannot disagree. A refused file is one of the missing (or not yet synced) ones.
  return {
    campaign: campaign.name,
    at,
    ...marks.counts(campaign.id),
    unexpected: count('unexpected'),
    refused: count('refused'),
    problems,
    ...(deps.state.readOnly ? { notRecorded: marks.unrecorded() } : {}),
  };
}

interface VerifyMarks {
  /** A finished file found missing or changed (its job, the error kind that says which, and why in words). */
  mark(jobId: number, kind: string, message: string): void;
  /** The campaign's counts with every finding in them. */
  counts(id: number): CampaignCounts;
  /** How many findings the ledger does not hold. */
  unrecorded(): number;
}

/**
 * Where verify's findings go: into the ledger, or, read beside the program that holds the state folder (a read-only
 * opening), nowhere; the counts then take them as if recorded (CampaignStore.countsAsMarked), so the report still
 * says what was found, and says how many findings were not recorded.
 */
function markings(deps: VerifyDeps): VerifyMarks {
  if (!deps.state.readOnly) {
    return {
      mark: (jobId, kind, message) => deps.ledger.markFailed(jobId, kind, message),
      counts: (id) => deps.store.counts(id),
      unrecorded: () => 0,
    };
  }
  const marks = new Map<number, string>();
  return {
    mark: (jobId, kind) => void marks.set(jobId, kind),
    counts: (id) => deps.store.countsAsMarked(id, marks),
    unrecorded: () => marks.size,
  };
}

/**
 * Every file of the campaign, and what each finished one is on disk now: hashed on every core (file-hashing.ts) and
 * compared with the SHA-256 and size recorded when it was written. A quick verify first looks at size and
 * modification time and hashes only the files whose figures moved since they were last found intact. Files found
 * intact are recorded with their time when it is not the one recorded already.
 */
async function findingsOf(deps: VerifyDeps, campaignId: number): Promise<{ files: FileToVerify[]; findings: Map<FileToVerify, Finding> }> {
  const files: FileToVerify[] = [];
  const findings = new Map<FileToVerify, Finding>();
  let hashed: { toHash: readonly FileToVerify[]; digests: (FileFound | undefined)[] };
  if (deps.quick) {
    // Looked at on the workers too: a hundred thousand stat calls from here would queue on libuv's four threads.
    const looked = await hashWhileReading(deps, campaignId, files, { statOnly: true });
    const toHash = looked.toHash.filter((file, index) => {
      const look = looked.digests[index];
      if (look === undefined) findings.set(file, 'missing');
      else if ('instead' in look) findings.set(file, look);
      else if (look.size !== file.bytesWritten) findings.set(file, 'changed');
      else if (look.mtimeMs === file.checkedMtimeMs) findings.set(file, 'intact');
      else return true;
      return false;
    });
    const digests = await hashFiles(
      toHash.map((file) => file.targetPath),
      { ...(deps.signal ? { signal: deps.signal } : {}), ...(deps.onHashed ? { onHashed: deps.onHashed } : {}) },
    );
    hashed = { toHash, digests };
  } else hashed = await hashWhileReading(deps, campaignId, files, deps.onHashed ? { onHashed: deps.onHashed } : {});
  const intact: { id: number; mtimeMs: number }[] = [];
  hashed.toHash.forEach((file, index) => {
    const digest = hashed.digests[index];
    if (digest === undefined) findings.set(file, 'missing');
    else if ('instead' in digest) findings.set(file, digest);
    else if (digest.size === file.bytesWritten && digest.sha256 === file.sha256) {
      findings.set(file, 'intact');
      // Written only when it moved: verifying again a folder nobody touched leaves the ledger as it was.
      if (digest.mtimeMs !== file.checkedMtimeMs) intact.push({ id: file.jobId!, mtimeMs: digest.mtimeMs });
    } else findings.set(file, 'changed');
  });
  // Read beside another program (read-only), a quick verify only goes without the times it would have saved.
  if (!deps.state.readOnly) deps.ledger.recordChecked(intact);
  return { files, findings };
}

/**
 * Reads the campaign's files into `files` a page at a time, handing each page's downloaded ones to the hashing
 * threads at once (to be hashed, or only looked at: `how`): they work on the first pages while the main thread
 * reads the next.
 */
async function hashWhileReading(
  deps: VerifyDeps,
  campaignId: number,
  files: FileToVerify[],
  how: Pick<HashOptions, 'statOnly' | 'onHashed'>,
): Promise<{ toHash: FileToVerify[]; digests: (FileFound | undefined)[] }> {
  deps.signal?.throwIfAborted();
  const pool = new HashPool({ expected: fileCount(deps.state, campaignId), ...how, ...(deps.signal ? { signal: deps.signal } : {}) });
  const toHash: FileToVerify[] = [];
  try {
    await eachPageToVerify(deps.state, campaignId, (page) => {
      pool.throwIfFailed();
      const downloaded = page.filter(isDownloaded);
      for (const file of page) files.push(file);
      for (const file of downloaded) toHash.push(file);
      pool.add(downloaded.map((file) => file.targetPath));
    });
    pool.allAdded();
    return { toHash, digests: await pool.finish() };
  } finally {
    await pool.close();
  }
}

const isDownloaded = (file: FileToVerify): boolean => file.state === 'done' && file.jobId !== null;

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
    // The queue's own hidden files (a transfer's temporary file, the resume file of a paused one) are not the user's.
    if (!entry.isFile() || isTemporaryName(entry.name) || isResumeFileName(entry.name)) continue;
    const parent = entry.parentPath;
    found.push(path.relative(folder, path.join(parent, entry.name)).split(path.sep).join('/'));
  }
  return found.sort();
}
