// A download interrupted by Ctrl-C, SIGTERM or kill -9 is resumed by the next run of the same command: it asks the
// server only for the rest (as wget -c and aria2c do), and the file is checked whole before it takes its name. With a
// server that does not serve byte ranges, the file starts again. Needs the built command line.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isResumeFileName } from '../../src-main/core/downloads/resume-file';
import { expectExactFolder, listing } from '../core/downloads/engine-harness';
import { runBuiltCli, startBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { downloadArgs } from '../core/downloads/cli-process';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import { waitFor } from '../helpers/wait-for';

// One 2048x2048 image (about 11 MB gzipped) at 1 MB/s: past the first 4 MiB, held in memory, the body is written as it
// arrives, so part of it is on disk even for a kill -9.
const emulator = useEmulator({ imageSize: 2048, bandwidthBytesPerSecond: 1_000_000, bodyForm: 'gzip-body' });
const window = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:00:10' };

afterEach(async () => {
  await stopBuiltCli();
});

async function keptSize(folder: string): Promise<number> {
  const kept = (await readdir(folder)).filter(isResumeFileName);
  if (kept.length === 0) return 0;
  return (await stat(path.join(folder, kept[0]!))).size;
}

describe('mlso-dl files --download resumes an interrupted file', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGKILL'] as const)('after %s, the same command asks only for the rest', async (signal) => {
    const files = await listing(emulator(), window);
    expect(files).toHaveLength(1);
    const folder = await temporaryFolder();
    const stateFolder = await temporaryFolder();
    const args = downloadArgs({ baseUrl: emulator().url, window, folder, stateFolder });
    const run = startBuiltCli(args);
    await waitFor(async () => {
      if (run.child.exitCode !== null) throw new Error(`mlso-dl ended before the transfer was under way: ${run.stderr()}`);
      return (await keptSize(folder)) > 300_000;
    }, 'part of the file to arrive');
    run.child.kill(signal);
    await run.exited;
    const kept = await keptSize(folder);
    expect(kept).toBeGreaterThan(300_000);

    emulator().setOptions({ bandwidthBytesPerSecond: 0 });
    const again = await runBuiltCli(args);
    expect(again.stderr).not.toMatch(/unexpected problem|\n\s+at /);
    expect(again.status).toBe(0);
    expect(emulator().stats().partialStartsByFile[files[0]!.filename]).toEqual([kept]);
    await expectExactFolder(emulator(), folder, files);
  });

  it('starts the file again when the server does not serve byte ranges', async () => {
    emulator().setOptions({ byteRanges: false });
    const files = await listing(emulator(), window);
    const folder = await temporaryFolder();
    const stateFolder = await temporaryFolder();
    const args = downloadArgs({ baseUrl: emulator().url, window, folder, stateFolder });
    const run = startBuiltCli(args);
    await waitFor(
      () => (emulator().stats().downloadsStarted > 0 && emulator().stats().activeDownloads > 0) || run.child.exitCode !== null,
      'the transfer to begin',
    );
    run.child.kill('SIGTERM');
    await run.exited;
    expect((await readdir(folder)).filter(isResumeFileName)).toEqual([]);

    emulator().setOptions({ bandwidthBytesPerSecond: 0 });
    const again = await runBuiltCli(args);
    expect(again.status).toBe(0);
    expect(emulator().stats().partialDownloads).toBe(0);
    await expectExactFolder(emulator(), folder, files);
  });
});
