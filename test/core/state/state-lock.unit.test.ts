// The state folder's lock, in one process: what a second taker is told, what a damaged or blocked lock file
// does, and that letting go (once or twice) never touches a pid file that is not its own.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderAccessError, inPlainWords } from '../../../src-main/core/folder-errors';
import { HOLDER_FILE, LOCK_FILE, OWNER_FILE, StateFolderBusyError, lockStateFolder, type StateLock } from '../../../src-main/core/state/state-lock';
import { temporaryFolder } from '../../helpers/fixtures';

const locks: StateLock[] = [];

afterEach(() => {
  for (const lock of locks.splice(0)) lock.release();
});

function lock(folder: string, program?: string): StateLock {
  const taken = lockStateFolder(folder, program ? { program } : {});
  locks.push(taken);
  return taken;
}

function refusal(folder: string): unknown {
  try {
    lock(folder);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('the state folder lock, in one process', () => {
  it('names the owner only when its pid file holds a plausible process number', async () => {
    const state = await temporaryFolder();
    lock(state);
    const busy = (owner: string) => `Another MLSO Downloader${owner} is using the state folder ${state}. Wait for it to finish, or use another --state-dir.`;
    await writeFile(path.join(state, OWNER_FILE), ' 4242\n');
    expect((refusal(state) as Error).message).toBe(busy(' (process 4242)'));
    for (const junk of ['0', '-5', '3.5', 'abc', '']) {
      await writeFile(path.join(state, OWNER_FILE), junk);
      const error = refusal(state);
      expect(error, junk).toBeInstanceOf(StateFolderBusyError);
      expect((error as Error).message, junk).toBe(busy(''));
    }
    // No pid file at all (a run of an older version removed it).
    await rm(path.join(state, OWNER_FILE));
    expect((refusal(state) as Error).message).toBe(busy(''));
  });

  it('names what the owner is when its holder file names the same process as its pid file, and only then', async () => {
    const state = await temporaryFolder();
    lock(state, 'web mode');
    const busy = (owner: string) => `Another MLSO Downloader (${owner}) is using the state folder ${state}. Wait for it to finish, or use another --state-dir.`;
    expect((refusal(state) as Error).message).toBe(busy(`web mode, process ${process.pid}`));
    // A holder file a killed run left, naming another process, or one written half or by hand: the pid alone.
    for (const junk of [JSON.stringify({ pid: 4242, program: 'the desktop app' }), '{"pid":', '', JSON.stringify({ pid: process.pid, program: 7 })]) {
      await writeFile(path.join(state, HOLDER_FILE), junk);
      expect((refusal(state) as Error).message, junk).toBe(busy(`process ${process.pid}`));
    }
  });

  it('lets go of its holder file but never of one naming another process, and takes none over from a killed run', async () => {
    const state = await temporaryFolder();
    const holderFile = path.join(state, HOLDER_FILE);
    lockStateFolder(state, { program: 'mlso-dl campaign sync' }).release();
    expect(existsSync(holderFile)).toBe(false);

    const first = lockStateFolder(state, { program: 'mlso-dl campaign sync' });
    const another = JSON.stringify({ pid: 4242, program: 'the desktop app' });
    await writeFile(holderFile, another);
    first.release();
    expect(await readFile(holderFile, 'utf8')).toBe(another);
    // Taken by a program that does not say what it is: the file left by another says nothing of it.
    lock(state);
    expect(existsSync(holderFile)).toBe(false);
  });

  it('refuses at once rather than waiting for the owner to let go', async () => {
    const state = await temporaryFolder();
    lock(state);
    const started = Date.now();
    expect(refusal(state)).toBeInstanceOf(StateFolderBusyError);
    // SQLite would otherwise wait out better-sqlite3's default busy timeout of 5 s.
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('makes a damaged lock file anew: it holds no data', async () => {
    const state = await temporaryFolder();
    await writeFile(path.join(state, LOCK_FILE), Buffer.alloc(4096, 'not a database '));
    lock(state).release();
    expect(existsSync(path.join(state, LOCK_FILE))).toBe(true);
    expect(refusal(state)).toBeUndefined();
  });

  it('says the state folder cannot be written when the lock file cannot be opened', async () => {
    const state = await temporaryFolder();
    await mkdir(path.join(state, LOCK_FILE));
    const error = refusal(state);
    expect(error).toBeInstanceOf(FolderAccessError);
    expect((error as Error).message).toMatch(
      new RegExp(`^Cannot write to the state folder ${state} \\(.+\\)\\. Make it writable, or use another --state-dir\\.$`),
    );
  });

  it('says the state folder cannot be written when the pid file cannot be, and lets go of the lock', async () => {
    const state = await temporaryFolder();
    await mkdir(path.join(state, OWNER_FILE));
    const error = refusal(state);
    expect(error).toBeInstanceOf(FolderAccessError);
    expect((error as Error).message).toBe(
      `Cannot write to the state folder ${state} (${inPlainWords('EISDIR')}). Make it writable, or use another --state-dir.`,
    );
    // The lock was let go: another connection takes it at once.
    const db = new Database(path.join(state, LOCK_FILE), { timeout: 0 });
    try {
      expect(() => db.exec('BEGIN EXCLUSIVE; COMMIT')).not.toThrow();
    } finally {
      db.close();
    }
  });

  it('on letting go leaves a pid file that names another process, and lets go only once', async () => {
    const state = await temporaryFolder();
    const ownerFile = path.join(state, OWNER_FILE);
    const first = lockStateFolder(state);
    await writeFile(ownerFile, '4242');
    first.release();
    expect(await readFile(ownerFile, 'utf8')).toBe('4242');

    const second = lock(state);
    expect(await readFile(ownerFile, 'utf8')).toBe(String(process.pid));
    // The first lock let go already: letting go again must not take the second owner's pid file.
    first.release();
    expect(await readFile(ownerFile, 'utf8')).toBe(String(process.pid));
    expect(refusal(state)).toBeInstanceOf(StateFolderBusyError);
    second.release();
    expect(existsSync(ownerFile)).toBe(false);
  });
});
