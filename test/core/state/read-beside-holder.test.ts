// Work that only reads the state folder, while another program holds it (the app, web mode, a sync): it reads
// beside that program, read-only, and never takes the lock, writes, moves aside or mends the ledger that program has
// open. A free folder is opened as ever, under its lock.
import Database from 'better-sqlite3';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStateLedger, readStateLedger, type OpenedLedger } from '../../../src-main/core/app/open-engine';
import { CampaignStore } from '../../../src-main/core/campaigns/campaign-store';
import { LedgerUnavailableError } from '../../../src-main/core/state/ledger-recovery';
import { LEDGER_FILE } from '../../../src-main/core/state/open-state-folder';
import { StateFolderBusyError, lockStateFolder, type StateLock } from '../../../src-main/core/state/state-lock';
import { LedgerVersionError } from '../../../src-main/core/state/state-migrations';
import { temporaryFolder } from '../../helpers/fixtures';

const opened: (OpenedLedger | StateLock)[] = [];

afterEach(() => {
  for (const each of opened.splice(0).reverse()) {
    if ('release' in each) each.release();
    else each.close();
  }
});

function hold(folder: string): StateLock {
  const lock = lockStateFolder(folder, { program: 'web mode' });
  opened.push(lock);
  return lock;
}

async function read(folder: string): Promise<OpenedLedger> {
  const ledger = await readStateLedger(folder, { program: 'mlso-dl campaign list' });
  opened.push(ledger);
  return ledger;
}

const campaign = (name: string) => ({ name, folder: '/data/corona', layout: '', queries: [], autoSyncHours: null });

describe('reading the state folder beside the program that holds it', () => {
  it('opens a free folder as ever, under its lock', async () => {
    const folder = await temporaryFolder();
    const ledger = await read(folder);
    expect(ledger.heldBy).toBeUndefined();
    expect(ledger.state.readOnly).toBe(false);
    expect(() => lockStateFolder(folder)).toThrow(StateFolderBusyError);
  });

  it('reads what the holder writes, read-only, naming the holder', async () => {
    const folder = await temporaryFolder();
    const writer = await openStateLedger(folder, { program: 'web mode' });
    opened.push(writer);
    new CampaignStore(writer.state).create(campaign('corona'));

    const reader = await read(folder);
    expect(reader.heldBy).toEqual({ pid: process.pid, program: 'web mode' });
    expect(reader.state.readOnly).toBe(true);
    const beside = new CampaignStore(reader.state);
    expect(beside.list().map((each) => each.name)).toEqual(['corona']);
    // The holder goes on writing, and the reader sees it (WAL); the reader itself cannot write.
    new CampaignStore(writer.state).create(campaign('eclipse'));
    expect(beside.list().map((each) => each.name)).toEqual(['corona', 'eclipse']);
    expect(() => beside.create(campaign('mine'))).toThrow(/readonly/);
  });

  it('never moves aside or mends a damaged ledger the holder has open, and says what to do', async () => {
    const folder = await temporaryFolder();
    hold(folder);
    const ledger = path.join(folder, LEDGER_FILE);
    const damaged = Buffer.alloc(8192, 'not a database ');
    await writeFile(ledger, damaged);
    const before = (await readdir(folder)).sort();

    const error = await readStateLedger(folder).catch((refused: unknown) => refused);
    expect(error).toBeInstanceOf(LedgerUnavailableError);
    expect((error as Error).message).toBe(
      `Cannot read the download ledger ${ledger} (file is not a database) while another MLSO Downloader (web mode, process ${process.pid}) holds the state folder: try again once it has finished.`,
    );
    expect((await readdir(folder)).sort()).toEqual(before);
    expect(await readFile(ledger)).toEqual(damaged);
  });

  it('says so when the holder has not made the ledger yet', async () => {
    const folder = await temporaryFolder();
    hold(folder);
    await expect(readStateLedger(folder)).rejects.toThrow(
      `The download ledger ${path.join(folder, LEDGER_FILE)} is not there yet, and another MLSO Downloader (web mode, process ${process.pid}) holds the state folder: try again once it has started.`,
    );
    expect(await readdir(folder)).not.toContain(LEDGER_FILE);
  });

  it('refuses a ledger at another schema version than its own, saying which way, and leaves it as it was', async () => {
    const folder = await temporaryFolder();
    const writer = await openStateLedger(folder);
    const current = writer.state.schemaVersion;
    writer.close();
    hold(folder);
    const file = path.join(folder, LEDGER_FILE);
    const setVersion = (version: number): void => {
      const db = new Database(file);
      db.pragma(`user_version = ${version}`);
      db.close();
    };

    setVersion(current - 1);
    const older = await readStateLedger(folder).catch((refused: unknown) => refused);
    expect(older).toBeInstanceOf(LedgerVersionError);
    expect((older as Error).message).toBe(
      `The download ledger ${file} is at an older version (schema ${current - 1}) than this MLSO Downloader reads (${current}), and the program holding the state folder has not brought it up to date: close that program, then try again.`,
    );
    setVersion(current + 1);
    await expect(readStateLedger(folder)).rejects.toThrow(
      `The download ledger was written by a newer version (schema ${current + 1}); update MLSO Downloader.`,
    );
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(current + 1);
    db.close();
  });
});
