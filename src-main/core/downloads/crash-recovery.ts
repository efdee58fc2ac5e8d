// What a start does with the work an earlier process left behind when it died: jobs still marked active,
// their temporary files, and temporary files nobody recorded. Nothing here may stop the start: a job that
// cannot be settled goes back to the queue, where its next attempt meets the problem and reports it.
import { rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { sha256OfRegularFile } from '../files/regular-file';
import type { DownloadLedger, Job } from './download-ledger';
import { isResumeFileName } from './resume-file';
import { isTemporaryName, removeLeftovers } from './temporary-files';

/** Temporary files not recorded in the ledger are removed only when older than this (another process may own them). */
const UNRECORDED_TEMPORARY_AGE_MS = 10 * 60_000;

/**
 * Jobs left active by a crash: a file whose hash was recorded before the rename is finished (or its rename is
 * completed now); any other goes back to the queue. Temporary files are then removed.
 */
export async function recoverInterruptedJobs(ledger: DownloadLedger): Promise<void> {
  for (const job of ledger.list({ states: ['active'], includeCleared: true })) {
    const temporary = job.tempName ? path.join(job.folder, job.tempName) : undefined;
    if (await finishedBeforeTheCrash(job, temporary)) {
      ledger.markDone(job.id, { sha256: job.sha256!, bytesReceived: job.bytesReceived, bytesWritten: job.bytesWritten });
    } else {
      ledger.refundAttempt(job.id);
      ledger.scheduleRetry(job.id, null, job.lastErrorKind, job.lastError);
    }
    if (temporary && isTemporaryName(path.basename(temporary))) await unlink(temporary).catch(() => undefined);
  }
  for (const folder of ledger.folders()) {
    // Kept beginnings of bodies (resume-file.ts) that no job records any more (finished, cancelled, or the record lost
    // in a crash between the two) are litter too; the recorded ones are what the next attempts resume from.
    // Asked of the ledger only in a folder that holds a resume file: one query per folder scans every job, and a
    // campaign's layout can spread a million jobs over hundreds of folders.
    let recorded: Set<string> | undefined;
    const isLeftover = (name: string): boolean => isTemporaryName(name) || (isResumeFileName(name) && !(recorded ??= ledger.resumeNamesIn(folder)).has(name));
    await removeLeftovers(folder, isLeftover, { olderThanMs: UNRECORDED_TEMPORARY_AGE_MS });
  }
}

/** The file with the recorded hash is in place, or is put there now from its temporary name. */
async function finishedBeforeTheCrash(job: Job, temporary: string | undefined): Promise<boolean> {
  if (!job.sha256) return false;
  if ((await sha256Of(job.targetPath)) === job.sha256) return true;
  if (!temporary || (await sha256Of(temporary)) !== job.sha256) return false;
  try {
    await rename(temporary, job.targetPath);
    return true;
  } catch {
    // The folder turned read-only, say, or something is in the way: the file is fetched again and that says why.
    return false;
  }
}

/** Undefined for what is not a regular file: a FIFO left under the name is not waited on. */
async function sha256Of(file: string): Promise<string | undefined> {
  try {
    return (await sha256OfRegularFile(file)).sha256;
  } catch {
    return undefined;
  }
}
