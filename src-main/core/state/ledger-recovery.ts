// Opening the ledger file when it may be damaged. A damaged ledger (not a database, a malformed page, a
// failed integrity check) is moved aside with its -wal and -shm and a new one is started: the files it
// described are still in their folders, and complete ones are skipped as in any folder, so nothing is
// fetched twice. Any other problem (a lock held elsewhere, a file that cannot be opened) moves nothing
// and is said plainly, naming the file.
import { existsSync, renameSync } from 'node:fs';
import { MlsoError } from '../errors';
import { fileSystemCode, inPlainWords } from '../folder-errors';
import { clearCleanCloseMark, unchangedSinceCleanClose } from './clean-close-mark';
import { isDamagedDatabaseError, isSqliteError } from './sqlite-errors';
import { StateDatabase } from './state-database';
import type { StateTables } from './state-migrations';

/** What was done about a damaged ledger, for the front end to tell the user once. */
export interface LedgerRecovery {
  damagedFile: string;
  movedTo: string;
  /** What was wrong with it, in SQLite's words (e.g. "file is not a database"). */
  reason: string;
}

/** SQLite's companions of a database file, which belong with it wherever it goes. */
const COMPANIONS = ['-wal', '-shm', '-journal'] as const;

export class LedgerUnavailableError extends MlsoError {
  // The ledger is where downloads are recorded: without it no file can be saved safely.
  readonly kind = 'download' as const;
}

export function describeLedgerRecovery(recovery: LedgerRecovery): string {
  return (
    `The download ledger ${recovery.damagedFile} was damaged (${recovery.reason}), ` +
    `so it was moved to ${recovery.movedTo} and a new one was started; downloads carry on.`
  );
}

export function openLedgerRecovering(file: string, tables: readonly StateTables[]): { database: StateDatabase; recovered?: LedgerRecovery } {
  let reason: string | undefined;
  try {
    // A ledger left sound and untouched since needs only its schema looked at (clean-close-mark.ts).
    reason = StateDatabase.findDamage(file, tables, !unchangedSinceCleanClose(file));
    if (reason === undefined) return { database: openMarkingCleanClose(file, tables) };
  } catch (error) {
    // Damage that only a writing connection meets (while replaying the -wal, say) is damage all the same.
    reason = damageOf(error);
    if (reason === undefined) throw unavailable(file, error);
  }
  const movedTo = moveAside(file, reason);
  try {
    return { database: openMarkingCleanClose(file, tables), recovered: { damagedFile: file, movedTo, reason } };
  } catch (error) {
    throw unavailable(file, error);
  }
}

/** Opens the ledger for writing, its clean-close mark cleared first so that a crash leaves none, and marked again at a clean close. */
function openMarkingCleanClose(file: string, tables: readonly StateTables[]): StateDatabase {
  clearCleanCloseMark(file);
  const database = StateDatabase.open(file, tables);
  database.markWhenClosedCleanly();
  return database;
}

function damageOf(error: unknown): string | undefined {
  return isDamagedDatabaseError(error) ? (error as Error).message : undefined;
}

function moveAside(file: string, reason: string): string {
  const movedTo = freeName(`${file}.damaged-${compactTimestamp(new Date())}`);
  try {
    renameSync(file, movedTo);
    for (const suffix of COMPANIONS) {
      if (existsSync(file + suffix)) renameSync(file + suffix, movedTo + suffix);
    }
  } catch (error) {
    const why = inPlainWords(fileSystemCode(error) ?? (error as Error).message);
    throw new LedgerUnavailableError(
      `The download ledger ${file} is damaged (${reason}) and could not be moved aside (${why}). Move or delete it and its -wal and -shm files, then try again.`,
    );
  }
  return movedTo;
}

function freeName(wanted: string): string {
  let name = wanted;
  for (let n = 2; [name, ...COMPANIONS.map((suffix) => name + suffix)].some((taken) => existsSync(taken)); n += 1) name = `${wanted}-${n}`;
  return name;
}

/** 2025-03-24T21:03:04.567Z -> 20250324T210304Z: sortable, and valid in file names everywhere. */
function compactTimestamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** A problem that is not damage: names the file and the way forward; anything unforeseen passes through. */
function unavailable(file: string, error: unknown): unknown {
  if (error instanceof MlsoError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  if (isSqliteError(error, 'SQLITE_BUSY') || isSqliteError(error, 'SQLITE_LOCKED')) {
    return new LedgerUnavailableError(`The download ledger ${file} is locked by another program. Close that program (a database browser, say) and try again.`);
  }
  if (isSqliteError(error, 'SQLITE_FULL')) {
    return new LedgerUnavailableError(`The disk holding the download ledger ${file} is full. Free some space and try again.`);
  }
  if (isSqliteError(error, 'SQLITE_READONLY') || isSqliteError(error, 'SQLITE_PERM') || isSqliteError(error, 'SQLITE_AUTH')) {
    return new LedgerUnavailableError(
      `Cannot write the download ledger ${file} (${detail}). Make it and the state folder writable, or use another --state-dir.`,
    );
  }
  if (isSqliteError(error, 'SQLITE_CANTOPEN') || isSqliteError(error, 'SQLITE_IOERR') || fileSystemCode(error)) {
    return new LedgerUnavailableError(
      `Cannot use the download ledger ${file} (${detail}). Check that it is a file you can read and write, or use another --state-dir.`,
    );
  }
  return error;
}
