// Reading SQLite's result codes from better-sqlite3's errors: the family and its extended codes, and nothing else.
import { describe, expect, it } from 'vitest';
import { isDamagedDatabaseError, isSqliteError, sqliteCode } from '../../../src-main/core/state/sqlite-errors';

const withCode = (code: unknown): Error => Object.assign(new Error('x'), { code });

describe('SQLite error codes', () => {
  it('are read from errors whose code starts with SQLITE_, and only from those', () => {
    expect(sqliteCode(withCode('SQLITE_BUSY'))).toBe('SQLITE_BUSY');
    expect(sqliteCode(withCode('ENOENT'))).toBeUndefined();
    expect(sqliteCode(withCode(5))).toBeUndefined();
    expect(sqliteCode(new Error('SQLITE_BUSY: database is locked'))).toBeUndefined();
    // Not an Error: a plain object that looks like one is not taken for SQLite's answer.
    expect(sqliteCode({ code: 'SQLITE_BUSY' })).toBeUndefined();
    expect(sqliteCode(undefined)).toBeUndefined();
  });

  it('belong to a family by the family code or its extended codes', () => {
    expect(isSqliteError(withCode('SQLITE_BUSY'), 'SQLITE_BUSY')).toBe(true);
    expect(isSqliteError(withCode('SQLITE_BUSY_SNAPSHOT'), 'SQLITE_BUSY')).toBe(true);
    expect(isSqliteError(withCode('SQLITE_BUSYNESS'), 'SQLITE_BUSY')).toBe(false);
    expect(isSqliteError(withCode('SQLITE_IOERR_WRITE'), 'SQLITE_BUSY')).toBe(false);
    expect(isSqliteError(withCode('EBUSY'), 'SQLITE_BUSY')).toBe(false);
  });

  it('say a database is damaged when it is not one, or is malformed', () => {
    expect(isDamagedDatabaseError(withCode('SQLITE_NOTADB'))).toBe(true);
    expect(isDamagedDatabaseError(withCode('SQLITE_CORRUPT'))).toBe(true);
    expect(isDamagedDatabaseError(withCode('SQLITE_CORRUPT_INDEX'))).toBe(true);
    expect(isDamagedDatabaseError(withCode('SQLITE_CANTOPEN'))).toBe(false);
  });
});
