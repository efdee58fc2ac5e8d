// A download run killed with SIGKILL at unlucky moments, then started again: nothing partial under a
// real name, nothing lost, and no finished file fetched a second time.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { expectExactFolder, listing } from './engine-harness';
import { waitFor } from '../../helpers/wait-for';

const emulator = useEmulator({ imageSize: 128, bandwidthBytesPerSecond: 150_000 });
const bin = path.resolve(import.meta.dirname, '../../../bin/mlso-dl.js');
const window = { 'start-date': '2025-03-24T19:00:00', 'end-date': '2025-03-24T19:05:00' };

function startDownload(folder: string, stateFolder: string): ChildProcess {
  return spawn(
    process.execPath,
    [
      bin,
      '--base-url',
      emulator().url,
      '-q',
      'files',
      '-i',
      'kcor',
      '-p',
      'pb',
      '-s',
      window['start-date'],
      '-e',
      window['end-date'],
      '--download',
      '-u',
      DEMO_EMAIL,
      '-o',
      folder,
      '--state-dir',
      stateFolder,
      '--concurrency',
      '3',
    ],
    { stdio: 'ignore' },
  );
}

async function finalNames(folder: string): Promise<string[]> {
  return (await readdir(folder).catch(() => [] as string[])).filter((name) => !name.startsWith('.'));
}

describe('crash safety', () => {
  it('survives SIGKILL mid-download: restarts without loss, without partial files, without fetching twice', async () => {
    const files = await listing(emulator(), window);
    expect(files.length).toBe(20);
    const folder = path.join(await temporaryFolder(), 'out');
    const stateFolder = await temporaryFolder();
    const bytesOf = new Map<string, Buffer>();
    for (const file of files) bytesOf.set(file.filename, await emulator().fileBytes('kcor', file.filename));

    // A file complete on disk when a run starts must not be requested by that run.
    const expectNothingRefetched = (completeAtStart: string[], requestsAtStart: Record<string, number>): void => {
      const requestsNow = emulator().stats().downloadsByFile;
      for (const name of completeAtStart) expect(requestsNow[name] ?? 0, name).toBe(requestsAtStart[name] ?? 0);
    };

    for (const killAfter of [2, 9, 15]) {
      const completeAtStart = await finalNames(folder);
      const requestsAtStart = emulator().stats().downloadsByFile;
      const child = startDownload(folder, stateFolder);
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await waitFor(async () => (await finalNames(folder)).length >= killAfter, `${killAfter} files under their real names`);
      child.kill('SIGKILL');
      await exited;

      // Whatever is under a real name is a complete, correct file.
      for (const name of await finalNames(folder)) expect((await readFile(path.join(folder, name))).equals(bytesOf.get(name)!), name).toBe(true);
      expectNothingRefetched(completeAtStart, requestsAtStart);
    }

    const completeAtStart = await finalNames(folder);
    const requestsAtStart = emulator().stats().downloadsByFile;
    const child = startDownload(folder, stateFolder);
    const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(status).toBe(0);
    await expectExactFolder(emulator(), folder, files); // every file, byte for byte, and no temporary file left
    expectNothingRefetched(completeAtStart, requestsAtStart);
    expect(completeAtStart.length).toBeGreaterThanOrEqual(15);
  }, 60_000);
});
