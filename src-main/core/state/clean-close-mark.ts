// A clean-close mark on the ledger as this program left it, so that the next opening need not read every page again. SQLite's
// quick check at opening (StateDatabase.findDamage) reads the whole file, a second or more for a ledger of a million jobs,
// paid by every command and every start of the app. A file closed cleanly (its -wal checkpointed and removed) after
// an opening that found it sound is marked with what the file system says of it (device, inode, size, modification
// and change times in nanoseconds); at the next opening, a file whose mark still matches is known to be as it was
// left, and only its schema is looked at. Any write since, by this program or another (a database browser, a
// damaged copy put back), changes the change time, which no program can set back, so the mark no longer matches and
// the pages are read as before; a crash leaves no mark, since opening for writing removes it first.
// A check only after an unclean close (a -wal left beside the file) would not do: a file changed while no program
// held it (a copy put back, a half-finished one, a database browser's write) leaves no -wal, and the mark sees it.
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync, fsyncSync } from 'node:fs';
import path from 'node:path';

/**
 * The mark's file beside the ledger: hidden, and not named after the ledger, whose companions move with it. Its
 * `.sealed` suffix is what every version reads and writes, so it stays.
 */
function markFileOf(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.sealed`);
}

/** A -wal or -journal beside the file: changes not yet folded into it (a connection open, or one that crashed). */
function hasJournalBeside(file: string): boolean {
  return ['-wal', '-journal'].some((suffix) => existsSync(file + suffix));
}

/** What the file system says of the file now, as one string (undefined when it is not there). */
function fingerprintOf(file: string): string | undefined {
  try {
    const stat = statSync(file, { bigint: true });
    return JSON.stringify([String(stat.dev), String(stat.ino), String(stat.size), String(stat.mtimeNs), String(stat.ctimeNs)]);
  } catch {
    return undefined;
  }
}

/** True when the ledger is exactly as this program left it at a clean close after a sound opening. */
export function unchangedSinceCleanClose(file: string): boolean {
  if (hasJournalBeside(file)) return false;
  const fingerprint = fingerprintOf(file);
  if (fingerprint === undefined) return false;
  try {
    return readFileSync(markFileOf(file), 'utf8') === fingerprint;
  } catch {
    return false;
  }
}

/** Removes the mark: done before the ledger is opened for writing, so that a crash leaves none. */
export function clearCleanCloseMark(file: string): void {
  rmSync(markFileOf(file), { force: true });
}

/**
 * Marks the ledger as it is now, after its connection closed. Nothing is marked when a -wal is left (another
 * connection still had it open, or the checkpoint could not finish): the next opening reads every page. A mark that
 * cannot be written only costs that next opening its check.
 */
export function markCleanClose(file: string): void {
  if (hasJournalBeside(file)) return;
  const fingerprint = fingerprintOf(file);
  if (fingerprint === undefined) return;
  const mark = markFileOf(file);
  const partial = `${mark}.partial`;
  try {
    const fd = openSync(partial, 'w');
    try {
      writeSync(fd, fingerprint);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, mark);
  } catch {
    rmSync(partial, { force: true });
  }
}
