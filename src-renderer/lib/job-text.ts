// What the download list writes about a job beside its figures: the note under its name (why it failed, when it
// retries, whether it resumes, where a reused file came from), the bytes its figures count, a long file name split
// for an ellipsis in the middle, and a folder shortened from the left.
import type { JobView } from '../../src-shared/downloads/progress-types';
import { humanSize } from '../../src-shared/format/human-size';

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

/**
 * A file name in two parts for an ellipsis in the middle: the head (its date and time first) gives way to CSS's
 * ellipsis, the tail (instrument, wave region, product, extension) never does. CSS cannot cut in the middle.
 */
export function nameParts(name: string): { head: string; tail: string } {
  const characters = Array.from(name);
  const tailLength = Math.min(TAIL, Math.floor(characters.length / 2));
  return { head: characters.slice(0, characters.length - tailLength).join(''), tail: characters.slice(characters.length - tailLength).join('') };
}

/** Characters a destination shows: its last folders, so the part that differs between jobs stays. */
const FOLDER_BUDGET = 24;

/** `/home/ada/observations/data/eclipse/2025/03` as `…/data/eclipse/2025/03`: the last folders that fit. */
export function folderFromTheRight(folder: string): string {
  if (folder.length <= FOLDER_BUDGET) return folder;
  const separator = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  const parts = folder.split(separator).filter((part) => part !== '');
  let shown = parts.at(-1) ?? folder;
  for (let index = parts.length - 2; index >= 0 && shown.length + parts[index]!.length + 1 <= FOLDER_BUDGET; index--) {
    shown = `${parts[index]}${separator}${shown}`;
  }
  return `…${separator}${shown}`;
}
