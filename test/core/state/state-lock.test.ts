// One engine per state folder, held by a lock the kernel releases when its owner dies: a killed run
// never locks the folder for good, not even while it lingers as an unreaped zombie.
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StateFolderBusyError, lockStateFolder, type StateLock } from '../../../src-main/core/state/state-lock';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { processState, stopBuiltCli } from '../../helpers/built-cli';
import { waitFor } from '../../helpers/wait-for';
import { runDownload, startUnreapedDownload } from '../downloads/cli-process';
import { expectExactFolder, listing } from '../downloads/engine-harness';

const emulator = useEmulator({ imageSize: 128 });
const locks: StateLock[] = [];

afterEach(async () => {
  for (const lock of locks.splice(0)) lock.release();
  await stopBuiltCli();
});

function lock(folder: string): StateLock {
  const taken = lockStateFolder(folder);
  locks.push(taken);
  return taken;
}

describe('state folder lock', () => {
  it('refuses a second engine in the same process, naming the owner, until the first lets go', async () => {
    const state = await temporaryFolder();
    const first = lock(state);
    const refused = (() => {
      try {
        lockStateFolder(state);
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(StateFolderBusyError);
    expect((refused as Error).message).toBe(
      `Another MLSO Downloader (process ${process.pid}) is using the state folder ${state}. Wait for it to finish, or use another --state-dir.`,
    );
    first.release();
    lock(state).release();
  });

  it('is not held by a pid file a killed run left behind, whatever process that pid now names', async () => {
    const state = await temporaryFolder();
    // An older version's lock file, naming a live process (our parent) that holds no lock.
    await writeFile(path.join(state, 'engine.lock'), String(process.ppid));
    lock(state).release();
    // Released: nothing of ours names a process any more.
    expect((await readdir(state)).filter((name) => name === 'engine.lock')).toEqual([]);
  });

  it('refuses a second run while the first is alive, and frees the folder when the first is killed, even as a zombie', async () => {
    const window = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:02:00' };
    const files = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const folder = await temporaryFolder();
    const run = { baseUrl: emulator().url, window, folder, stateFolder };
    emulator().setOptions({ bandwidthBytesPerSecond: 5_000 });

    const { pid } = await startUnreapedDownload(run);
    // A file being written means the run holds the state folder.
    await waitFor(async () => (await readdir(folder)).length > 0, 'the first run to start writing');

    const second = await runDownload({ ...run, folder: await temporaryFolder() });
    // Its own status (EX_TEMPFAIL), not that of bad input: a nightly job tells "still running" from a broken command.
    expect(second.status).toBe(75);
    expect(second.stderr).toBe(
      `mlso-dl: Another MLSO Downloader (mlso-dl files --download, process ${pid}) is using the state folder ${stateFolder}. Add --wait to run once it has finished, or use another --state-dir.\n`,
    );

    process.kill(pid, 'SIGKILL');
    await waitFor(async () => (await processState(pid)) === 'Z', 'the killed run to become a zombie');

    emulator().setOptions({ bandwidthBytesPerSecond: 0 });
    const third = await runDownload(run);
    expect(third.stderr).not.toMatch(/Another MLSO Downloader/);
    expect(third.status).toBe(0);
    await expectExactFolder(emulator(), folder, files);
    // Still a zombie: the folder was freed by the kernel, not by anyone reaping the killed run.
    expect(await processState(pid)).toBe('Z');
  }, 60_000);
});
