// One Ctrl-C (or SIGTERM, or a closed terminal) stops the built mlso-dl cleanly: transfers in flight stopped
// and their temporary files removed, jobs back in the queue, the state folder unlocked, a line saying how
// to continue, and the exit status shells expect (128 + the signal's number). A second signal leaves at once.
// Needs the built command line (node scripts/build-main.mjs).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src-shared/api/schemas';
import { LEDGER_FILE } from '../../src-main/core/state/open-state-folder';
import { openStateFile } from '../core/state/state-file';
import { OWNER_FILE } from '../../src-main/core/state/state-lock';
import { isTemporaryName } from '../../src-main/core/downloads/temporary-files';
import { expectExactFolder, listing } from '../core/downloads/engine-harness';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import { startBuiltCli, stopBuiltCli, type StartedRun } from '../helpers/built-cli';
import { downloadArgs } from '../core/downloads/cli-process';
import { waitFor } from '../helpers/wait-for';

// Large images over a slow line: each file takes seconds, so a signal always finds transfers in flight.
const SLOW = 200_000;
const emulator = useEmulator({ imageSize: 512, bandwidthBytesPerSecond: SLOW });
const WATCHED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2', 'SIGALRM', 'SIGPIPE'];
const window = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' };

afterEach(async () => {
  await stopBuiltCli();
});

interface Download {
  folder: string;
  stateFolder: string;
  args: string[];
  files: FileEntry[];
}

async function slowDownload(): Promise<Download> {
  const folder = await temporaryFolder();
  const stateFolder = await temporaryFolder();
  const args = downloadArgs({ baseUrl: emulator().url, window, folder, stateFolder }, '--concurrency', '2');
  return { folder, stateFolder, args, files: await listing(emulator(), window) };
}

async function temporaryFiles(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter(isTemporaryName);
}

/** Waits until a transfer has written part of a file (its hidden temporary file is there). */
async function inFlight(run: StartedRun, folder: string): Promise<void> {
  await waitFor(async () => {
    if (run.child.exitCode !== null) throw new Error(`mlso-dl ended before any transfer began: ${run.stderr()}`);
    return (await temporaryFiles(folder)).length > 0;
  }, 'a transfer to begin');
}

describe('mlso-dl files --download and stop signals', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)(
    'one %s stops cleanly (exit %d) and the same command then finishes the job',
    async (signal, status) => {
      const download = await slowDownload();
      expect(download.files.length).toBeGreaterThan(2);
      const run = startBuiltCli(download.args);
      await inFlight(run, download.folder);

      run.child.kill(signal);
      expect(await run.exited).toBe(status);
      expect(run.stderr()).toMatch(
        /^Interrupted: \d+ downloaded, \d+ already complete, \d+ failed, \d+ still to do\. Run the same command again to continue\.$/m,
      );
      expect(run.stderr()).not.toMatch(/unexpected problem|\n\s+at /);
      expect(await temporaryFiles(download.folder)).toEqual([]);
      expect(await readdir(download.stateFolder)).not.toContain(OWNER_FILE);
      const { ledger } = openStateFile(path.join(download.stateFolder, LEDGER_FILE));
      try {
        expect(ledger.list({ states: ['active'], includeCleared: true })).toEqual([]);
      } finally {
        ledger.close();
      }

      emulator().setOptions({ bandwidthBytesPerSecond: 0 });
      const again = startBuiltCli(download.args);
      expect(await again.exited, again.stderr()).toBe(0);
      await expectExactFolder(emulator(), download.folder, download.files);
    },
    60_000,
  );

  it('two signals in quick succession leave at once, with the status of a stop signal', async () => {
    const download = await slowDownload();
    const run = startBuiltCli(download.args);
    await inFlight(run, download.folder);

    run.child.kill('SIGINT');
    run.child.kill('SIGINT');
    // Left to itself the download would run for many seconds more at this speed.
    const outcome = await Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve('still running after 10 s'), 10_000))]);
    expect(outcome).toBe(130);
    expect(run.stderr()).not.toMatch(/unexpected problem|\n\s+at /);
  }, 30_000);
});

describe('the built command line', () => {
  it('listens once to each stop signal and to no other: no library may re-raise a signal behind the clean shutdown', async () => {
    // Loaded before mlso-dl, this reports the signal listeners present when the process ends.
    const probe = `import { writeSync } from 'node:fs';
      process.on('exit', () => {
        const counts = Object.fromEntries(${JSON.stringify(WATCHED_SIGNALS)}.map((signal) => [signal, process.listenerCount(signal)]));
        writeSync(2, JSON.stringify(counts));
      });`;
    const run = startBuiltCli(['--version'], { nodeOptions: ['--import', `data:text/javascript,${encodeURIComponent(probe)}`] });
    expect(await run.exited).toBe(0);
    expect(JSON.parse(run.stderr())).toEqual({ SIGINT: 1, SIGTERM: 1, SIGHUP: 1, SIGQUIT: 0, SIGUSR2: 0, SIGALRM: 0, SIGPIPE: 0 });
  });
});
