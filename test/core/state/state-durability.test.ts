// One durability rule for every state folder, new or old: the ledger's journal is SQLite's WAL, synced as for any
// ledger, and the lock keeps SQLite's own journal; nothing is kept in memory or left unsynced because the folder is
// new. A run killed in its first minutes leaves a folder the next opening takes as it is.
import Database from 'better-sqlite3';
import { readdir } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STATE_DOMAINS } from '../../../src-main/core/app/open-engine';
import { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import { openStateFolder } from '../../../src-main/core/state/open-state-folder';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { startBuiltCli, stopBuiltCli } from '../../helpers/built-cli';
import { waitFor } from '../../helpers/wait-for';
import { downloadArgs } from '../downloads/cli-process';
import { listing } from '../downloads/engine-harness';

const emulator = useEmulator({ imageSize: 128 });

afterEach(async () => {
  vi.restoreAllMocks();
  await stopBuiltCli();
});

/** The journal and syncing pragmas set while a state folder opens and closes, in order. */
async function durabilityPragmasOpening(folder: string): Promise<string[]> {
  const pragma = vi.spyOn(Database.prototype, 'pragma');
  (await openStateFolder(folder, STATE_DOMAINS)).close();
  const set = pragma.mock.calls.map(([source]) => source.replace(/\s+/g, ' ').trim()).filter((source) => /^(journal_mode|synchronous) ?=/i.test(source));
  pragma.mockRestore();
  return set;
}

describe('a state folder', () => {
  it('is opened new with the journal and syncing it is opened with ever after', async () => {
    const folder = await temporaryFolder();
    const opened = { new: await durabilityPragmasOpening(folder), again: await durabilityPragmasOpening(folder) };
    expect(opened).toEqual({ new: ['journal_mode = WAL', 'synchronous = NORMAL'], again: ['journal_mode = WAL', 'synchronous = NORMAL'] });
  });

  it('whose first run was killed opens as it was left: nothing moved aside, the queued jobs there', async () => {
    const window = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:02:00' };
    const files = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const folder = await temporaryFolder();
    emulator().setOptions({ bandwidthBytesPerSecond: 20_000 });
    const run = startBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder, stateFolder }));
    await waitFor(async () => (await readdir(folder)).length > 0, 'the first run to start writing');
    run.child.kill('SIGKILL');
    expect(await run.exited).toBe('SIGKILL');

    const opened = await openStateFolder(stateFolder, STATE_DOMAINS);
    try {
      expect(opened.recovered).toBeUndefined();
      expect(opened.notice).toBeUndefined();
      const counts = new DownloadLedger(opened.database).counts();
      expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBe(files.length);
    } finally {
      opened.close();
    }
    expect((await readdir(stateFolder)).filter((name) => name.includes('damaged'))).toEqual([]);
  }, 30_000);
});
