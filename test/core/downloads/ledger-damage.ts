// Ways a download ledger gets damaged on disk, for the tests of what the engine does about it.
import Database from 'better-sqlite3';
import { readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LEDGER_FILE } from '../../../src-main/core/state/open-state-folder';

/** Deleted with its -wal and -shm files, as by someone clearing out the state folder. */
export async function deleteLedger(stateFolder: string): Promise<void> {
  for (const name of await readdir(stateFolder)) if (name.startsWith(LEDGER_FILE)) await rm(path.join(stateFolder, name));
}

/** The first bytes are not SQLite's header, as when another program wrote over the file. */
export async function garbleHeader(file: string): Promise<void> {
  const bytes = await readFile(file);
  bytes.write('this is no database, just garbage'.padEnd(100, '!'), 0);
  await writeFile(file, bytes);
}

/** Cut short, as by a copy that did not finish. */
export async function truncateToHalf(file: string): Promise<void> {
  const bytes = await readFile(file);
  await truncate(file, Math.floor(bytes.length / 2));
}

/**
 * One page of an index overwritten with noise, as by a bad sector: the file opens and the schema reads
 * fine, and only a check of the pages (or a query that walks that index) finds it.
 */
export async function corruptIndexPage(file: string, index: string): Promise<void> {
  const db = new Database(file, { readonly: true });
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const { rootpage } = db.prepare<[string], { rootpage: number }>("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND name = ?").get(index)!;
  db.close();
  const bytes = await readFile(file);
  for (let at = (rootpage - 1) * pageSize; at < rootpage * pageSize; at += 1) bytes[at] = (at * 131 + 7) & 0xff;
  await writeFile(file, bytes);
}

/** A table dropped by hand (in a database browser, say): SQLite's own check still passes. */
export async function dropTable(file: string, table: string): Promise<void> {
  alter(file, `DROP TABLE ${table}`);
}

/** A column dropped by hand: the table is there, and the first query that names the column fails. */
export async function dropColumn(file: string, table: string, column: string): Promise<void> {
  alter(file, `ALTER TABLE ${table} DROP COLUMN ${column}`);
}

function alter(file: string, sql: string): void {
  const db = new Database(file);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}
