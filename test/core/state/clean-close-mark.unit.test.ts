// The clean-close mark that spares a ledger left sound its whole-file check at the next opening (clean-close-mark.ts): a clean close
// marks it, and a write by anyone, a crash or a -wal left behind each mean the pages are read again.
import Database from 'better-sqlite3';
import { chmodSync, existsSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STATE_DOMAINS } from '../../../src-main/core/app/open-engine';
import { openLedgerRecovering } from '../../../src-main/core/state/ledger-recovery';
import { unchangedSinceCleanClose } from '../../../src-main/core/state/clean-close-mark';
import { StateDatabase } from '../../../src-main/core/state/state-database';
import { corruptIndexPage } from '../downloads/ledger-damage';
import { temporaryFolder } from '../../helpers/fixtures';

afterEach(() => vi.restoreAllMocks());

async function ledgerLeftSound(): Promise<string> {
  const file = path.join(await temporaryFolder(), 'downloads.sqlite');
  openLedgerRecovering(file, STATE_DOMAINS).database.close();
  openLedgerRecovering(file, STATE_DOMAINS).database.close();
  return file;
}

/** Whether the next opening reads every page (findDamage's readPages). */
function nextOpeningReadsPages(file: string): boolean {
  const findDamage = vi.spyOn(StateDatabase, 'findDamage');
  const { database, recovered } = openLedgerRecovering(file, STATE_DOMAINS);
  database.close();
  expect(recovered).toBeUndefined();
  const readPages = findDamage.mock.calls[0]![2];
  findDamage.mockRestore();
  return readPages !== false;
}

describe('a ledger closed cleanly after a sound opening', () => {
  it('is opened next time without reading every page, and marked again when closed', async () => {
    const file = await ledgerLeftSound();
    expect(unchangedSinceCleanClose(file)).toBe(true);
    expect(nextOpeningReadsPages(file)).toBe(false);
    expect(nextOpeningReadsPages(file)).toBe(false);
  });

  it('is read page by page again once anything wrote to it, and the damage is found', async () => {
    const file = await ledgerLeftSound();
    const db = new Database(file);
    db.prepare("INSERT INTO settings (key, value) VALUES ('written', 'by another program')").run();
    db.close();
    expect(unchangedSinceCleanClose(file)).toBe(false);
    expect(nextOpeningReadsPages(file)).toBe(true);

    // One page overwritten, the size unchanged.
    expect(unchangedSinceCleanClose(file)).toBe(true);
    await corruptIndexPage(file, 'jobs_batch');
    const { database, recovered } = openLedgerRecovering(file, STATE_DOMAINS);
    database.close();
    expect(recovered?.reason).toBe('it failed the integrity check');
  });

  it('is read page by page again after its times alone changed (touched, copied back), or its change time alone', async () => {
    const file = await ledgerLeftSound();
    utimesSync(file, new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(nextOpeningReadsPages(file)).toBe(true);
    // chmod moves the change time and nothing else: what a program setting the modification time back cannot hide.
    expect(unchangedSinceCleanClose(file)).toBe(true);
    const { mode } = statSync(file);
    chmodSync(file, 0o600);
    chmodSync(file, mode);
    expect(statSync(file).mode).toBe(mode);
    expect(unchangedSinceCleanClose(file)).toBe(false);
  });

  it('has no mark while it is open, so a crash leaves it to be read page by page', async () => {
    const file = await ledgerLeftSound();
    const { database } = openLedgerRecovering(file, STATE_DOMAINS);
    expect(unchangedSinceCleanClose(file)).toBe(false);
    database.close();
    expect(unchangedSinceCleanClose(file)).toBe(true);
  });

  it('is not marked while another connection keeps its -wal, nor trusted with a -wal beside it', async () => {
    const file = await ledgerLeftSound();
    const other = new Database(file);
    other.prepare("INSERT INTO settings (key, value) VALUES ('other', 'connection')").run();
    const { database } = openLedgerRecovering(file, STATE_DOMAINS);
    database.close();
    expect(existsSync(`${file}-wal`)).toBe(true);
    expect(unchangedSinceCleanClose(file)).toBe(false);
    other.close();
    expect(nextOpeningReadsPages(file)).toBe(true);
    expect(unchangedSinceCleanClose(file)).toBe(true);
    writeFileSync(`${file}-wal`, '');
    expect(unchangedSinceCleanClose(file)).toBe(false);
  });
});
