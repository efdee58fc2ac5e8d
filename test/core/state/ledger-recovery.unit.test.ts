// Opening a ledger that may be damaged, on its own: the message for each problem that is not damage, the name a
// damaged ledger is moved to (never one taken, companions included), and what happens when moving or reopening fails.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STATE_DOMAINS } from '../../../src-main/core/app/open-engine';
import { InvalidInputError } from '../../../src-main/core/errors';
import { LedgerUnavailableError, openLedgerRecovering as openRecovering } from '../../../src-main/core/state/ledger-recovery';
import { StateDatabase } from '../../../src-main/core/state/state-database';
import { temporaryFolder } from '../../helpers/fixtures';

/** Set by a test to make the next rename fail as a file system would. */
const renameFailure: { code?: string } = {};
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    renameSync: (from: string, to: string) => {
      if (renameFailure.code) throw Object.assign(new Error(`${renameFailure.code}: rename '${from}'`), { code: renameFailure.code });
      fs.renameSync(from, to);
    },
  };
});

const withCode = (code: string, message = `${code}: something`): Error => Object.assign(new Error(message), { code });
const NOW = Date.UTC(2026, 10, 24, 12, 0, 0, 123);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  delete renameFailure.code;
});

/** The ledger's file opened with every domain's tables, as the app opens it. */
const openLedgerRecovering = (file: string) => {
  const { database, recovered } = openRecovering(file, STATE_DOMAINS);
  return { ledger: database, ...(recovered ? { recovered } : {}) };
};

async function ledgerFile(): Promise<string> {
  const file = path.join(await temporaryFolder(), 'downloads.sqlite');
  StateDatabase.open(file, STATE_DOMAINS).close();
  return file;
}

function failureOf(attempt: () => unknown): unknown {
  try {
    attempt();
  } catch (error) {
    return error;
  }
  throw new Error('it opened');
}

describe('a ledger that cannot be used', () => {
  it('is described by what SQLite or the file system said, with the way forward', async () => {
    const file = await ledgerFile();
    const locked = `The download ledger ${file} is locked by another program. Close that program (a database browser, say) and try again.`;
    const full = `The disk holding the download ledger ${file} is full. Free some space and try again.`;
    const cannotWrite = (detail: string) =>
      `Cannot write the download ledger ${file} (${detail}). Make it and the state folder writable, or use another --state-dir.`;
    const cannotUse = (detail: string) =>
      `Cannot use the download ledger ${file} (${detail}). Check that it is a file you can read and write, or use another --state-dir.`;
    const cases: [Error, string][] = [
      [withCode('SQLITE_BUSY'), locked],
      [withCode('SQLITE_LOCKED'), locked],
      [withCode('SQLITE_LOCKED_SHAREDCACHE'), locked],
      [withCode('SQLITE_FULL'), full],
      [withCode('SQLITE_READONLY', 'attempt to write a readonly database'), cannotWrite('attempt to write a readonly database')],
      [withCode('SQLITE_READONLY_DBMOVED', 'moved'), cannotWrite('moved')],
      [withCode('SQLITE_PERM', 'access permission denied'), cannotWrite('access permission denied')],
      [withCode('SQLITE_AUTH', 'authorization denied'), cannotWrite('authorization denied')],
      [withCode('SQLITE_CANTOPEN', 'unable to open database file'), cannotUse('unable to open database file')],
      [withCode('SQLITE_IOERR_READ', 'disk I/O error'), cannotUse('disk I/O error')],
      [withCode('EACCES', 'EACCES: permission denied'), cannotUse('EACCES: permission denied')],
    ];
    for (const [thrown, message] of cases) {
      vi.spyOn(StateDatabase, 'findDamage').mockImplementationOnce(() => {
        throw thrown;
      });
      const error = failureOf(() => openLedgerRecovering(file));
      expect(error, (thrown as { code?: string }).code).toBeInstanceOf(LedgerUnavailableError);
      expect((error as Error).message).toBe(message);
    }
  });

  it('passes the app’s own errors and unforeseen ones through as they are', async () => {
    const file = await ledgerFile();
    for (const thrown of [new InvalidInputError('already plain'), withCode('SQLITE_MISUSE'), new Error('no code')]) {
      vi.spyOn(StateDatabase, 'findDamage').mockImplementationOnce(() => {
        throw thrown;
      });
      expect(failureOf(() => openLedgerRecovering(file))).toBe(thrown);
    }
  });
});

describe('a damaged ledger', () => {
  it('is moved to a name stamped with the time, and to the next free one when that or a companion of it is taken', async () => {
    const file = await ledgerFile();
    const stamped = `${file}.damaged-20261124T120000Z`;
    vi.spyOn(StateDatabase, 'findDamage').mockReturnValue('file is not a database');
    const recoverOnce = (): string => {
      const { ledger, recovered } = openLedgerRecovering(file);
      ledger.close();
      expect(recovered?.reason).toBe('file is not a database');
      return recovered!.movedTo;
    };
    expect(recoverOnce()).toBe(stamped);
    expect(recoverOnce()).toBe(`${stamped}-2`);
    // Only a companion of the next name is there (its database was deleted by hand): the name is still taken.
    writeFileSync(`${stamped}-3-wal`, '');
    expect(recoverOnce()).toBe(`${stamped}-4`);
    for (const name of [stamped, `${stamped}-2`, `${stamped}-4`]) expect(existsSync(name), name).toBe(true);
  });

  it('met only when opening it for writing (while its -wal is replayed, say) is moved aside all the same', async () => {
    const file = await ledgerFile();
    vi.spyOn(StateDatabase, 'findDamage').mockReturnValue(undefined);
    const open = StateDatabase.open.bind(StateDatabase);
    vi.spyOn(StateDatabase, 'open')
      .mockImplementationOnce(() => {
        throw withCode('SQLITE_CORRUPT', 'database disk image is malformed');
      })
      .mockImplementation(open);
    const { ledger, recovered } = openLedgerRecovering(file);
    ledger.close();
    expect(recovered).toEqual({ damagedFile: file, movedTo: `${file}.damaged-20261124T120000Z`, reason: 'database disk image is malformed' });
  });

  it('that cannot be moved aside is left where it is, and the message says what to do', async () => {
    const file = await ledgerFile();
    vi.spyOn(StateDatabase, 'findDamage').mockReturnValue('database disk image is malformed');
    renameFailure.code = 'EACCES';
    const error = failureOf(() => openLedgerRecovering(file));
    expect(error).toBeInstanceOf(LedgerUnavailableError);
    expect((error as Error).message).toBe(
      `The download ledger ${file} is damaged (database disk image is malformed) and could not be moved aside (permission denied). Move or delete it and its -wal and -shm files, then try again.`,
    );
    expect(existsSync(file)).toBe(true);
  });

  it('moved aside, then a new one that cannot be made, gives the plain message of that', async () => {
    const file = await ledgerFile();
    vi.spyOn(StateDatabase, 'findDamage').mockReturnValue('file is not a database');
    vi.spyOn(StateDatabase, 'open').mockImplementation(() => {
      throw withCode('SQLITE_FULL');
    });
    const error = failureOf(() => openLedgerRecovering(file));
    expect((error as Error).message).toBe(`The disk holding the download ledger ${file} is full. Free some space and try again.`);
  });
});
