// Reading better-sqlite3's errors: each carries SQLite's result code as text ("SQLITE_BUSY"), often an
// extended one ("SQLITE_BUSY_SNAPSHOT", "SQLITE_IOERR_WRITE") that belongs to the same family.

/** SQLite's result code of `error`, when it is an SQLite error. */
export function sqliteCode(error: unknown): string | undefined {
  const code = error instanceof Error && 'code' in error ? (error as { code: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** True when `error` has SQLite's result code `family` or one of its extended codes. */
export function isSqliteError(error: unknown, family: string): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code === family || code.startsWith(`${family}_`));
}

/** True when `error` says the database file itself is damaged: not a database at all, or a malformed page. */
export function isDamagedDatabaseError(error: unknown): boolean {
  return isSqliteError(error, 'SQLITE_NOTADB') || isSqliteError(error, 'SQLITE_CORRUPT');
}
