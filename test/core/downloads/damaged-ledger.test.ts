// A damaged ledger is moved aside (with its -wal and -shm) and a new one started: the engine carries on,
// files complete in the folder are skipped, missing ones are fetched, and the front end is told once.
// Problems that are not damage (a lock held by another program, a file that cannot be opened) move nothing.
import Database from 'better-sqlite3';
import { mkdir, readdir, readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { MlsoError } from '../../../src-main/core/errors';
import { describeLedgerRecovery } from '../../../src-main/core/state/ledger-recovery';
import { LEDGER_FILE } from '../../../src-main/core/state/open-state-folder';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { coreHarness, type CoreHarness } from '../../helpers/app-core-harness';
import { listFolder, temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { expectExactFolder, listing, openHarness, useHarnesses } from './engine-harness';
import { corruptIndexPage, dropColumn, dropTable, garbleHeader, truncateToHalf } from './ledger-damage';

const emulator = useEmulator({ imageSize: 64 });
const { harness, closeEarly } = useHarnesses(emulator);
const cores: CoreHarness[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(cores.splice(0).map((h) => h.core.close()));
});

const window = { 'start-date': '2025-03-24T19:00:00', 'end-date': '2025-03-24T19:01:00' };

/** A state folder whose ledger recorded a finished download into `folder`; one of the files was deleted since. */
async function downloadedEarlier(): Promise<{ stateFolder: string; folder: string; files: FileEntry[]; missing: FileEntry }> {
  const files = await listing(emulator(), window);
  expect(files.length).toBeGreaterThan(2);
  const first = await openHarness(emulator(), { batchId: 'first-run' });
  try {
    await first.engine.enqueue(files, first.folder);
    expect(await first.engine.whenSettled()).toBe('finished');
  } finally {
    await first.close();
  }
  const missing = files[1]!;
  await unlink(path.join(first.folder, missing.filename));
  emulator().resetStats();
  return { stateFolder: first.stateFolder, folder: first.folder, files, missing };
}

const damages = {
  'a garbage header': garbleHeader,
  'a truncated file': truncateToHalf,
  'a corrupted index page': (file: string) => corruptIndexPage(file, 'jobs_batch'),
  // Sound to SQLite, but every start would fail at the first query that needs what is gone.
  'its jobs table dropped': (file: string) => dropTable(file, 'jobs'),
  'a column of its jobs dropped': (file: string) => dropColumn(file, 'jobs', 'temp_name'),
  'its campaign files table dropped': (file: string) => dropTable(file, 'campaign_files'),
};

describe('a damaged ledger', () => {
  for (const [damage, inflict] of Object.entries(damages)) {
    it(`with ${damage} is moved aside and a new one started; complete files are skipped and missing ones fetched`, async () => {
      const { stateFolder, folder, files, missing } = await downloadedEarlier();
      const ledgerFile = path.join(stateFolder, LEDGER_FILE);
      await inflict(ledgerFile);
      const damagedBytes = await readFile(ledgerFile);

      const h = await harness({ batchId: 'after-damage' }, stateFolder);
      expect(h.recovered).toMatchObject({ damagedFile: ledgerFile });
      const { movedTo, reason } = h.recovered!;
      expect(path.dirname(movedTo)).toBe(stateFolder);
      expect(path.basename(movedTo)).toMatch(/^downloads\.sqlite\.damaged-\d{8}T\d{6}Z$/);
      expect(reason.length).toBeGreaterThan(0);
      expect((await readFile(movedTo)).equals(damagedBytes)).toBe(true);

      const result = await h.engine.enqueue(files, folder);
      expect(result.skipped.map((skip) => skip.reason)).toEqual(files.slice(0, -1).map(() => 'already in the folder'));
      expect(result.queued).toHaveLength(1);
      expect(await h.engine.whenSettled()).toBe('finished');
      expect(emulator().stats().downloadsByFile).toEqual({ [missing.filename]: 1 });
      await expectExactFolder(emulator(), folder, files);
    });
  }

  it('takes its -wal and -shm files along, and says once, plainly, what happened', async () => {
    const { stateFolder } = await downloadedEarlier();
    const ledgerFile = path.join(stateFolder, LEDGER_FILE);
    await garbleHeader(ledgerFile);
    await writeFile(`${ledgerFile}-wal`, 'write-ahead log of the damaged ledger');
    await writeFile(`${ledgerFile}-shm`, 'shared memory of the damaged ledger');

    const h = await harness({ batchId: 'after-damage' }, stateFolder);
    const { movedTo } = h.recovered!;
    expect(await readFile(`${movedTo}-wal`, 'utf8')).toBe('write-ahead log of the damaged ledger');
    // SQLite rebuilds the -shm (an index of the -wal) on any look; it goes along all the same.
    expect(await listFolder(stateFolder)).toContain(`${path.basename(movedTo)}-shm`);
    const notice = describeLedgerRecovery(h.recovered!);
    expect(notice).toBe(
      `The download ledger ${ledgerFile} was damaged (file is not a database), so it was moved to ${movedTo} and a new one was started; downloads carry on.`,
    );
    expect(notice).not.toMatch(/\n/);
  });

  it("that is another program's database, with a table of a ledger's name, is moved aside once; the next start finds the new one sound", async () => {
    const stateFolder = await temporaryFolder();
    const ledgerFile = path.join(stateFolder, LEDGER_FILE);
    const other = new Database(ledgerFile);
    other.exec('CREATE TABLE jobs (name TEXT, salary INTEGER)');
    other.close();

    const first = await harness({ batchId: 'first' }, stateFolder);
    expect(first.notice).toBe(
      `The download ledger ${ledgerFile} was damaged (it holds a table "jobs" but no download ledger), so it was moved to ${first.recovered!.movedTo} and a new one was started; downloads carry on.`,
    );
    await closeEarly(first);
    const second = await harness({ batchId: 'second' }, stateFolder);
    expect(second.notice).toBeUndefined();
    expect((await listFolder(stateFolder)).filter((name) => name.includes('damaged'))).toEqual([path.basename(first.recovered!.movedTo)]);
  });

  it('as an empty file is simply a new ledger: nothing is moved', async () => {
    const stateFolder = await temporaryFolder();
    await writeFile(path.join(stateFolder, LEDGER_FILE), '');
    const files = await listing(emulator(), window);
    const h = await harness({ batchId: 'empty' }, stateFolder);
    expect(h.recovered).toBeUndefined();
    await h.engine.enqueue(files, h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');
    await expectExactFolder(emulator(), h.folder, files);
    expect((await listFolder(stateFolder)).filter((name) => name.includes('damaged'))).toEqual([]);
  });

  it('found by the desktop app is logged on stderr', async () => {
    const { stateFolder } = await downloadedEarlier();
    await garbleHeader(path.join(stateFolder, LEDGER_FILE));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const h = await coreHarness(emulator(), { stateFolder });
    cores.push(h);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^The download ledger .* was damaged \(file is not a database\), so it was moved to .*damaged-/);
    await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    expect((await h.core.handlers['downloads:snapshot']()).jobs).toEqual([]);
  });
});

describe('a ledger that cannot be used for another reason', () => {
  it('locked by another program is left alone, with a message naming it', async () => {
    const { stateFolder } = await downloadedEarlier();
    const ledgerFile = path.join(stateFolder, LEDGER_FILE);
    const before = (await listFolder(stateFolder)).filter((name) => name !== 'engine.lock.sqlite');
    // A database browser holding a write lock on the ledger.
    const other = new Database(ledgerFile);
    other.pragma('locking_mode = EXCLUSIVE');
    other.exec('BEGIN EXCLUSIVE');
    try {
      const error = await harness({ batchId: 'locked' }, stateFolder).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MlsoError);
      expect((error as Error).message).toBe(
        `The download ledger ${ledgerFile} is locked by another program. Close that program (a database browser, say) and try again.`,
      );
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await listFolder(stateFolder)).filter((name) => name !== 'engine.lock.sqlite')).toEqual(before);
    // Nothing was lost: with the lock gone, the old ledger is used as it was.
    const h = await harness({ batchId: 'unlocked' }, stateFolder);
    expect(h.recovered).toBeUndefined();
    expect(h.ledger.list({ includeCleared: true }).length).toBeGreaterThan(2);
  }, 30_000);

  it('that is not a file is left alone, with a message naming it', async () => {
    const stateFolder = await temporaryFolder();
    const ledgerFile = path.join(stateFolder, LEDGER_FILE);
    await mkdir(ledgerFile); // a folder where the ledger file should be
    const error = await harness({ batchId: 'folder' }, stateFolder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MlsoError);
    expect((error as Error).message).toBe(
      `Cannot use the download ledger ${ledgerFile} (disk I/O error). Check that it is a file you can read and write, or use another --state-dir.`,
    );
    expect(await listFolder(stateFolder)).toEqual([LEDGER_FILE, 'engine.lock.sqlite']);
    expect(await readdir(ledgerFile)).toEqual([]);
  });

  it('that cannot be opened is left alone, with a message naming it', async () => {
    const stateFolder = await temporaryFolder();
    const ledgerFile = path.join(stateFolder, LEDGER_FILE);
    // A link into a folder that is gone, as a state folder restored from elsewhere may hold.
    await symlink(path.join(stateFolder, 'gone', 'downloads.sqlite'), ledgerFile);
    const error = await harness({ batchId: 'dangling' }, stateFolder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MlsoError);
    expect((error as Error).message).toBe(
      `Cannot use the download ledger ${ledgerFile} (unable to open database file). Check that it is a file you can read and write, or use another --state-dir.`,
    );
    expect(await listFolder(stateFolder)).toEqual([LEDGER_FILE, 'engine.lock.sqlite']);
  });
});
