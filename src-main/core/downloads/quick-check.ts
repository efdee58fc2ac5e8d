// A finished file's quick check, as rsync's: it is still there, a regular file, of the size it was written at, with
// the modification time it had then (or when a verify last hashed it and found it intact). What passes is "already
// there"; what does not is missing or changed, and fetched again. The bytes are not read: that is verify's work.
import { lstatSync } from 'node:fs';

/** What the ledger keeps of a finished file for its quick check (download-ledger.ts). */
interface WrittenFile {
  targetPath: string;
  bytesWritten: number;
  /** Its modification time when it was put in place; null when not recorded (written before this was kept). */
  writtenMtimeMs: number | null;
  /** Its modification time when a verify last hashed it and found it intact; null when never. */
  checkedMtimeMs: number | null;
}

/**
 * 'first-look': of the size it was written at, its time never recorded (the ledger's first look at its time, which
 * the caller records); it counts as there.
 */
type QuickVerdict = 'as-written' | 'first-look' | 'missing' | 'changed';

/**
 * The quick check's one rule, over what a look found (lookWith: `size` -1 when nothing is there, -2 when it is not
 * a regular file; its time in milliseconds) and what the ledger recorded, in whole seconds (wholeSecondsOf; -1 for
 * none). Whole seconds,
 * as rsync compares them: a copy or a restore that keeps times only to the second or the millisecond (tar, zip, many
 * backup tools) is still the file as written, not a million files to fetch again.
 * Self-contained, with numbers only: the sync's stat threads run its source as it is (quick-check-pass.ts).
 */
export function quickVerdict(size: number, mtimeMs: number, bytesWritten: number, writtenS: number, checkedS: number): QuickVerdict {
  if (size === -1) return 'missing';
  if (size !== bytesWritten) return 'changed';
  // A copy that rounds the time to the nearest millisecond (Node's fs.cp does) can carry a time in the last
  // millisecond of a second onto the next whole second: a time within a millisecond of a second also counts for it.
  const mtimeS = Math.trunc(mtimeMs / 1000);
  const roundedUpFromS = Math.trunc((mtimeMs - 1) / 1000);
  for (const recordedS of [writtenS, checkedS]) if (recordedS !== -1 && (recordedS === mtimeS || recordedS === roundedUpFromS)) return 'as-written';
  return writtenS === -1 && checkedS === -1 ? 'first-look' : 'changed';
}

/**
 * A time in milliseconds (fs.Stats' mtimeMs, as the ledger keeps it) in whole seconds, cut toward zero as SQLite's
 * CAST cuts it, or -1 for none: the unit the rule compares in, which the SQL of quick-check-pass.ts gives too.
 * Self-contained, as quickVerdict.
 */
function wholeSecondsOf(ms: number | null): number {
  return ms === null ? -1 : Math.trunc(ms / 1000);
}

/**
 * Whether a finished file passes its quick check: as written, or of its size at a first look. A look by lstat: a
 * link put where a file was written is not that file.
 */
export function isStillThere(file: WrittenFile): boolean {
  const { size, mtimeMs } = lookWith(lstatSync, file.targetPath);
  const verdict = quickVerdict(size, mtimeMs, file.bytesWritten, wholeSecondsOf(file.writtenMtimeMs), wholeSecondsOf(file.checkedMtimeMs));
  return verdict === 'as-written' || verdict === 'first-look';
}

/**
 * The modification time of a file just put in place, for the ledger to compare with later; undefined when it cannot
 * be read (the quick check then records it at its first look).
 */
export function writtenMtimeOf(file: string): number | undefined {
  const { size, mtimeMs } = lookWith(lstatSync, file);
  return size >= 0 ? mtimeMs : undefined;
}

/**
 * What is at `file`, by `lstat` (fs.lstatSync): its size when it is a regular file, -1 when nothing is there and -2
 * when something else is, and its modification time. Self-contained, as quickVerdict: the stat threads run it too.
 */
export function lookWith(lstat: typeof lstatSync, file: string): { size: number; mtimeMs: number } {
  try {
    const info = lstat(file, { throwIfNoEntry: false });
    if (info === undefined) return { size: -1, mtimeMs: 0 };
    return { size: info.isFile() ? info.size : -2, mtimeMs: info.mtimeMs };
  } catch {
    // A folder on the way that is a file, or one that cannot be searched: nothing the queue could use is there.
    return { size: -1, mtimeMs: 0 };
  }
}
