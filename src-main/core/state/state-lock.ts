// One engine per state folder: two processes sharing a ledger would both take the same jobs. The lock
// is an exclusive SQLite lock on a small database: SQLite takes it with fcntl (LockFileEx on Windows),
// which the kernel drops the moment its owner dies, however it died and whether or not anyone ever
// reaps it. A pid file beside it only names the owner in the message to a second run; it decides nothing.
import Database from 'better-sqlite3';
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FolderAccessError, fileSystemCode } from '../folder-errors';
import { isDamagedDatabaseError, isSqliteError, sqliteCode } from './sqlite-errors';
import { StateFolderBusyError } from './state-folder-busy';

export { StateFolderBusyError };

/** The database whose exclusive lock is the state folder's lock. Never deleted: see `release`. */
export const LOCK_FILE = 'engine.lock.sqlite';
/** The owner's pid, for messages (and for older versions, which read it as their lock). */
export const OWNER_FILE = 'engine.lock';

export interface StateLock {
  release(): void;
}

export interface StateLockOptions {
  /** better-sqlite3's native module built for this runtime (Electron in development). */
  nativeBinding?: string;
}

export function lockStateFolder(folder: string, options: StateLockOptions = {}): StateLock {
  const lockFile = path.join(folder, LOCK_FILE);
  const ownerFile = path.join(folder, OWNER_FILE);
  let db: Database.Database;
  try {
    db = holdExclusively(lockFile, options);
  } catch (error) {
    if (!isDamagedDatabaseError(error)) throw error;
    // The lock file holds no data: one damaged from outside is simply made anew.
    rmSync(lockFile, { force: true });
    db = holdExclusively(lockFile, options);
  }
  try {
    writeFileSync(ownerFile, String(process.pid));
  } catch (error) {
    db.close();
    throw new FolderAccessError(folder, 'state', 'write', fileSystemCode(error) ?? (error as Error).message);
  }
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      // The pid file goes first, while the lock still keeps the next owner from writing its own. The lock
      // file stays: deleting it could let two processes lock two different files of the same name.
      try {
        if (readFileSync(ownerFile, 'utf8') === String(process.pid)) unlinkSync(ownerFile);
      } catch {
        // Already gone: nothing to tidy.
      }
      db.close();
    },
  };
}

/** Opens `file` and takes its exclusive lock for as long as the connection is open; refuses at once if taken. */
function holdExclusively(file: string, options: StateLockOptions): Database.Database {
  const folder = path.dirname(file);
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: 0, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
    // In exclusive locking mode SQLite keeps the lock of its first write transaction until the connection closes.
    // The file holds no data, so its empty transaction needs no journal file and no fsync (five of them, some
    // 10 ms, on a new folder): the lock is fcntl's on the file itself, whatever the journal. (SQLite
    // answers 'delete' to journal_mode = OFF here; MEMORY writes nothing to disk either.)
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return db;
  } catch (error) {
    db?.close();
    if (isSqliteError(error, 'SQLITE_BUSY')) throw new StateFolderBusyError(folder, ownerPid(path.join(folder, OWNER_FILE)));
    // Damage is the caller's to handle; any other failure means the state folder cannot be written.
    if (isDamagedDatabaseError(error)) throw error;
    const problem = fileSystemCode(error) ?? (sqliteCode(error) ? (error as Error).message : undefined);
    if (problem) throw new FolderAccessError(folder, 'state', 'write', problem);
    throw error;
  }
}

function ownerPid(ownerFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(ownerFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
