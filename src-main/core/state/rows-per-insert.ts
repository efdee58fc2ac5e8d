// Many rows to an INSERT: a listing of a million files goes into the ledger's jobs and a campaign's files, and a
// statement's call into SQLite costs about what a row's work does, so rows go in ROWS_PER_INSERT at a time. The
// ledger (download-ledger.ts) and the campaign store (campaign-store.ts) insert this way, each with its own columns
// and its own use of each statement's result (the new ids; which files were in the set already).
import type Database from 'better-sqlite3';

export type SqlValue = string | number | null;

/**
 * Rows per INSERT, largest first, down to one: a few statements of each size, prepared once. 128 rows of 15 columns
 * are 1,920 values, well within SQLite's 32,766; more rows a statement gained nothing measurable.
 */
const ROWS_PER_INSERT = [128, 16, 1] as const;

/** The text of an INSERT of `rows` rows: `head` up to VALUES, then `rowValues` (one row's placeholders) `rows` times. */
export function insertOfRows(head: string, rowValues: string, rows: number): string {
  return `${head} ${Array.from({ length: rows }, () => rowValues).join(', ')}`;
}

/**
 * Inserts `items` in order, ROWS_PER_INSERT at a time: `statementOf(rows)` is the prepared INSERT of that many rows
 * (insertOfRows), `push` appends one item's values, and `inserted` hears each statement's result with the index of its
 * first item and its number of rows. The caller holds the transaction.
 */
export function insertManyRows<Item>(
  items: readonly Item[],
  statementOf: (rows: number) => Database.Statement<[SqlValue[]]>,
  push: (values: SqlValue[], item: Item) => void,
  inserted: (result: Database.RunResult, start: number, rows: number) => void,
): void {
  let start = 0;
  for (const rows of ROWS_PER_INSERT) {
    if (start + rows > items.length) continue;
    const insert = statementOf(rows);
    for (; start + rows <= items.length; start += rows) {
      const values: SqlValue[] = [];
      for (let index = start; index < start + rows; index += 1) push(values, items[index]!);
      inserted(insert.run(values), start, rows);
    }
  }
}
