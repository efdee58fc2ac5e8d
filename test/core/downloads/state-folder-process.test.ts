// What one run of the real `mlso-dl` leaves in the state folder never stops the next: a queue pause an
// older run left, a damaged ledger. And a download folder that cannot be made is one plain line.
import { unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LEDGER_FILE } from '../../../src-main/core/state/open-state-folder';
import { openStateFile } from '../state/state-file';
import { listFolder, temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { stopBuiltCli } from '../../helpers/built-cli';
import { runDownload } from './cli-process';
import { expectExactFolder, listing } from './engine-harness';
import { garbleHeader } from './ledger-damage';

const emulator = useEmulator({ imageSize: 64 });
const window = { 'start-date': '2025-03-24T20:00:00', 'end-date': '2025-03-24T20:01:00' };

afterEach(async () => {
  await stopBuiltCli();
});

describe('mlso-dl files --download, run after run on one state folder', () => {
  it('downloads although an earlier run (a full disk, say) left the queue paused in the ledger', async () => {
    const files = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const { ledger } = openStateFile(path.join(stateFolder, LEDGER_FILE));
    ledger.setSetting('queue-paused', 'true'); // as a run of an older version left it
    ledger.close();
    const folder = await temporaryFolder();

    const run = await runDownload({ baseUrl: emulator().url, window, folder, stateFolder });
    expect(run.stderr).not.toMatch(/Run the same command again/);
    expect(run.status).toBe(0);
    expect(emulator().stats().downloadsStarted).toBe(files.length);
    await expectExactFolder(emulator(), folder, files);
  }, 30_000);

  it('replaces a damaged ledger, says so in one line, skips complete files and fetches the missing one', async () => {
    const files = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const folder = await temporaryFolder();
    const run = { baseUrl: emulator().url, window, folder, stateFolder };
    expect((await runDownload(run)).status).toBe(0);
    await unlink(path.join(folder, files[0]!.filename));
    await garbleHeader(path.join(stateFolder, LEDGER_FILE));
    emulator().resetStats();

    const again = await runDownload(run);
    expect(again.stderr).not.toMatch(/unexpected problem/);
    const notices = again.stderr.split('\n').filter((line) => line.includes('damaged'));
    expect(notices).toHaveLength(1);
    const movedTo = (await listFolder(stateFolder)).find((name) => /^downloads\.sqlite\.damaged-\d{8}T\d{6}Z$/.test(name));
    expect(movedTo).toBeDefined();
    expect(notices[0]).toBe(
      `mlso-dl: The download ledger ${path.join(stateFolder, LEDGER_FILE)} was damaged (file is not a database), ` +
        `so it was moved to ${path.join(stateFolder, movedTo!)} and a new one was started; downloads carry on.`,
    );
    expect(again.status).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`Downloaded 1 file .* skipped ${files.length - 1} already complete; 0 failed`));
    expect(emulator().stats().downloadsByFile).toEqual({ [files[0]!.filename]: 1 });
    await expectExactFolder(emulator(), folder, files);
  }, 30_000);

  it('says in one line, with exit status 1, that a download folder cannot be created', async () => {
    const file = path.join(await temporaryFolder(), 'notes.txt');
    await writeFile(file, 'a file, not a folder');
    const folder = path.join(file, 'fits');
    const run = await runDownload({ baseUrl: emulator().url, window, folder, stateFolder: await temporaryFolder() });
    expect(run.stderr).toBe(`mlso-dl: Cannot create the download folder ${folder} (a file is in the way on its path). Choose a folder you can write to.\n`);
    expect(run.status).toBe(1);
  }, 30_000);
});
