// One engine per state folder: two processes sharing a ledger would both take the same jobs. The lock
// is an exclusive SQLite lock on a small database: SQLite takes it with fcntl (LockFileEx on Windows),
// which the kernel drops the moment its owner dies, however it died and whether or not anyone ever
// reaps it. A pid file and a holder file beside it only name the owner in the message to a second run (and to a
// reader that reads beside it); they decide nothing.
import Database from 'better-sqlite3';
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FolderAccessError, fileSystemCode } from '../folder-errors';
import { isDamagedDatabaseError, isSqliteError, sqliteCode } from './sqlite-errors';
import { StateFolderBusyError, type StateHolder } from './state-folder-busy';

export { StateFolderBusyError };

/** The database whose exclusive lock is the state folder's lock. Never deleted: see `release`. */
export const LOCK_FILE = 'engine.lock.sqlite';
/** The owner's pid, for messages (and for older versions, which read it as their lock: the pid alone). */
export const OWNER_FILE = 'engine.lock';
/** What the owner is (the app, web mode, which mlso-dl command), with its pid: JSON, beside the pid file older versions read. */
export const HOLDER_FILE = 'engine.lock.holder';

export interface StateLock {
  release(): void;
}

export interface StateLockOptions {
  /** What this program is, for the message another run gets while it holds the folder ("web mode"). */
  program?: string;
}

export function lockStateFolder(folder: string, options: StateLockOptions = {}): StateLock {
  const lockFile = path.join(folder, LOCK_FILE);
  const ownerFile = path.join(folder, OWNER_FILE);
  const holderFile = path.join(folder, HOLDER_FILE);
  let db: Database.Database;
  try {
    db = holdExclusively(lockFile);
  } catch (error) {
    if (!isDamagedDatabaseError(error)) throw error;
    // The lock file holds no data: one damaged from outside is simply made anew.
    rmSync(lockFile, { force: true });
    db = holdExclusively(lockFile);
  }
  try {
    writeFileSync(ownerFile, String(process.pid));
    if (options.program) writeFileSync(holderFile, JSON.stringify({ pid: process.pid, program: options.program }));
    else rmSync(holderFile, { force: true });
  } catch (error) {
    db.close();
    throw new FolderAccessError(folder, 'state', 'write', fileSystemCode(error) ?? (error as Error).message);
  }
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      // The pid and holder files go first, while the lock still keeps the next owner from writing its own. The lock
      // file stays: deleting it could let two processes lock two different files of the same name.
      try {
        if (readFileSync(ownerFile, 'utf8') === String(process.pid)) unlinkSync(ownerFile);
      } catch {
        // Already gone: nothing to tidy.
      }
      try {
        if (holderFileSays(folder).pid === process.pid) rmSync(holderFile, { force: true });
      } catch {
        // Left for the next owner to overwrite; it names a process that no longer holds the lock, so it is not read.
      }
      db.close();
    },
  };
}

/** Opens `file` and takes its exclusive lock for as long as the connection is open; refuses at once if taken. */
function holdExclusively(file: string): Database.Database {
  const folder = path.dirname(file);
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: 0 });
    // In exclusive locking mode SQLite keeps the lock of its first write transaction until the connection closes:
    // the lock is fcntl's on the file itself, whatever the journal, which is SQLite's own as for any database.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return db;
  } catch (error) {
    db?.close();
    if (isSqliteError(error, 'SQLITE_BUSY')) throw new StateFolderBusyError(folder, holderOf(folder));
    // Damage is the caller's to handle; any other failure means the state folder cannot be written.
    if (isDamagedDatabaseError(error)) throw error;
    const problem = fileSystemCode(error) ?? (sqliteCode(error) ? (error as Error).message : undefined);
    if (problem) throw new FolderAccessError(folder, 'state', 'write', problem);
    throw error;
  }
}

/**
 * Who holds the folder, as its files say: the pid file's process, and what the holder file says that process is
 * (only when it names the same process: a holder file a killed run left describes nobody).
 */
function holderOf(folder: string): StateHolder {
  const pid = plausiblePid(readOrNothing(path.join(folder, OWNER_FILE))?.trim());
  if (pid === undefined) return {};
  const holder = holderFileSays(folder);
  return holder.pid === pid && holder.program !== undefined ? { pid, program: holder.program } : { pid };
}

/** What the holder file says, whatever the pid file says; nothing of a file half written or written by hand. */
function holderFileSays(folder: string): StateHolder {
  try {
    const said = JSON.parse(readOrNothing(path.join(folder, HOLDER_FILE)) ?? 'null') as { pid?: unknown; program?: unknown } | null;
    return {
      ...(typeof said?.pid === 'number' ? { pid: said.pid } : {}),
      ...(typeof said?.program === 'string' && said.program !== '' ? { program: said.program } : {}),
    };
  } catch {
    return {};
  }
}

function plausiblePid(text: string | undefined): number | undefined {
  const pid = Number(text);
  return text && Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function readOrNothing(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
