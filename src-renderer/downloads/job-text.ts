// What the download list writes about a job beside its figures: the note under its name (why it failed, when it
// retries, whether it resumes, where a reused file came from), the bytes its figures count, a long file name split
// for an ellipsis in the middle that keeps its date and time, and a destination by what identifies it.
import type { JobView } from '../../src-shared/downloads/progress-types';
import { humanSize } from '../../src-shared/format/human-size';
import { folderWithin } from './folder-within';

/** The line under a file's name; '' when there is nothing to say (the row then keeps one line). */
export function noteOf(job: JobView): string {
  if (job.state === 'failed' || (job.lastError && job.state !== 'done')) return job.lastError ?? '';
  if (job.state === 'queued' && job.nextAttemptAt) return `retry at ${new Date(job.nextAttemptAt).toISOString().slice(11, 19)} UT`;
  if (job.state === 'paused' || job.state === 'queued') {
    if (job.resumeBytes > 0) return `resumes after the ${humanSize(job.resumeBytes)} kept`;
    if (job.bytesReceived > 0) return 'starts again: nothing kept to resume from';
  }
  if (job.state === 'done' && job.reusedFrom !== null)
    return `reused from ${job.reusedFrom}${job.localName !== job.filename ? `, saved as ${job.localName}` : ''}`;
  if (job.localName !== job.filename) return `saved as ${job.localName}`;
  return job.attempts > 1 ? `attempt ${job.attempts}` : '';
}

/**
 * The bytes of the file a row counts as arrived: while it downloads (or once done) what came, once stopped only what
 * is kept to resume from, so a paused row never shows a percentage that a restart throws away.
 */
export function bytesArrived(job: JobView): number {
  return job.state === 'active' || job.state === 'done' ? job.bytesReceived : job.resumeBytes;
}

/** Characters kept whole at the end of a name: enough for "ucomp.1074.l2.fts" or "kcor_l2_pb.fts". */
const TAIL = 18;

/** The observation's date and time that starts an MLSO file name: `20250324_183215` (KCor), `20250324.183215` (UCoMP). */
const STAMP = /^\d{8}[_.]\d{6}/;

/**
 * A file name in three parts for an ellipsis in the middle: the stamp (the observation's date and time, the part
 * that tells rows apart) and the tail (instrument, wave region, product, extension) never give way; the middle
 * does, to CSS's ellipsis. A name without a stamp keeps its tail and lets its beginning give way.
 */
export function nameParts(name: string): { stamp: string; middle: string; tail: string } {
  const stamp = STAMP.exec(name)?.[0] ?? '';
  const rest = Array.from(name.slice(stamp.length));
  const tailLength = Math.min(TAIL, stamp === '' ? Math.floor(rest.length / 2) : rest.length);
  return { stamp, middle: rest.slice(0, rest.length - tailLength).join(''), tail: rest.slice(rest.length - tailLength).join('') };
}

/**
 * What tells a destination apart: the name of the campaign whose folder holds it, else the folder's last two parts
 * (`/home/ada/mlso/2025/03` as `2025/03`, the full path is the cell's tooltip).
 */
export function destinationOf(folder: string, campaigns: readonly { name: string; folder: string }[]): string {
  const campaign = campaigns.find((each) => folderWithin(folder, each.folder));
  if (campaign) return campaign.name;
  const separator = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  const parts = folder.split(separator).filter((part) => part !== '');
  return parts.length === 0 ? folder : parts.slice(-2).join(separator);
}
