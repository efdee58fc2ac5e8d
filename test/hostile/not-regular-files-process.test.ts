// A FIFO or a symbolic link to /dev/zero under a name mlso-dl expects a FITS file (or a campaign file) by: every path
// that reads files on disk (reuse, a campaign sync's enqueuer and adoption, verify, import, header, quicklook, pixel,
// movie) refuses it or leaves it unread, never waits for a FIFO's writer nor reads a device without end. Opening a
// FIFO for reading blocks until a writer comes, and an open stuck in Node's thread pool keeps the process from
// exiting even after Ctrl-C. The built mlso-dl (node scripts/build-main.mjs first), each run killed if it outlives
// its limit, so a hang fails the test instead of stalling it.
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { fitsBytes } from '../../src-main/emulator/synthetic-fits';
import { downloadArgs } from '../core/downloads/cli-process';
import { expectExactFolder, listing } from '../core/downloads/engine-harness';
import { runBuiltCli, startBuiltCli, stopBuiltCli, type FinishedRun } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 16 });
const window = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' };
afterEach(stopBuiltCli);

/** Time a run may take before it counts as hung (a normal one here takes about a second). */
const LIMIT_MS = 20_000;

/** Runs mlso-dl, but kills it after LIMIT_MS: a run that waits for ever fails the test instead of hanging it. */
async function runWithin(args: readonly string[]): Promise<FinishedRun> {
  const run = startBuiltCli(args);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), LIMIT_MS);
  const status = await run.exited;
  clearTimeout(timer);
  return { status: typeof status === 'number' ? status : null, stdout: run.stdout(), stderr: run.stderr() };
}

/** Replaces `file` (if there) by a FIFO nobody writes to. */
async function fifoAt(file: string): Promise<void> {
  await rm(file, { force: true });
  execFileSync('mkfifo', [file]);
}

/** Replaces `file` (if there) by a symbolic link to /dev/zero. */
async function zeroAt(file: string): Promise<void> {
  await rm(file, { force: true });
  await symlink('/dev/zero', file);
}

const campaignCli = (stateFolder: string, ...args: string[]): string[] => ['--base-url', emulator().url, 'campaign', ...args, '--state-dir', stateFolder];

async function createdCampaign(stateFolder: string, folder: string): Promise<void> {
  const range = ['-s', window['start-date'], '-e', window['end-date']];
  const created = await runBuiltCli(campaignCli(stateFolder, 'create', 'hostile', '-i', 'kcor', '-p', 'pb', ...range, '--output-dir', folder));
  expect(created.status, created.stderr).toBe(0);
}

describe('files on disk that are not regular files', () => {
  it('reuse: an old copy that became a FIFO or a link to /dev/zero is not taken; the file is fetched instead', { timeout: 60_000 }, async () => {
    const files = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const first = await temporaryFolder();
    expect((await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder: first, stateFolder }))).status).toBe(0);
    await fifoAt(path.join(first, files[0]!.filename));
    await zeroAt(path.join(first, files[1]!.filename));
    emulator().resetStats();

    const second = await temporaryFolder();
    const run = await runWithin(downloadArgs({ baseUrl: emulator().url, window, folder: second, stateFolder }, '--json'));
    expect(run.status, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { reused: unknown }).reused).toEqual({ count: files.length - 2, from: [first] });
    expect(emulator().stats().downloadsStarted).toBe(2);
    await expectExactFolder(emulator(), second, files);
  });

  it('campaign sync: a FIFO and a link to /dev/zero under expected names are not read; the files take their places', { timeout: 60_000 }, async () => {
    const files = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'hostile');
    await createdCampaign(stateFolder, folder);
    await mkdir(folder, { recursive: true });
    await fifoAt(path.join(folder, files[0]!.filename));
    await zeroAt(path.join(folder, files[1]!.filename));

    const sync = await runWithin(campaignCli(stateFolder, 'sync', 'hostile', '-u', DEMO_EMAIL, '--json'));
    expect(sync.status, sync.stderr).toBe(0);
    expect(JSON.parse(sync.stdout)).toMatchObject({ total: { onDisk: files.length } });
    await expectExactFolder(emulator(), folder, files);
    for (const { filename } of files) expect((await lstat(path.join(folder, filename))).isFile(), filename).toBe(true);
  });

  it('campaign verify: says what is in a file’s place, reads none of it, and the next sync puts the files back', { timeout: 60_000 }, async () => {
    const files = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'hostile');
    await createdCampaign(stateFolder, folder);
    expect((await runBuiltCli(campaignCli(stateFolder, 'sync', 'hostile', '-u', DEMO_EMAIL))).status).toBe(0);
    await fifoAt(path.join(folder, files[0]!.filename));
    await zeroAt(path.join(folder, files[1]!.filename));

    const verify = await runWithin(campaignCli(stateFolder, 'verify', 'hostile', '--json'));
    expect([verify.status, verify.stderr]).toEqual([1, '']);
    const report = JSON.parse(verify.stdout) as { onDisk: number; missing: number; problems: unknown[] };
    expect(report).toMatchObject({ onDisk: files.length - 2, missing: 2 });
    expect(report.problems).toEqual([
      { path: files[0]!.filename, problem: 'missing', reason: 'a FIFO is in its place, which is not read' },
      { path: files[1]!.filename, problem: 'missing', reason: 'a device is in its place, which is not read' },
    ]);

    const sync = await runWithin(campaignCli(stateFolder, 'sync', 'hostile', '-u', DEMO_EMAIL));
    expect(sync.status, sync.stderr).toBe(0);
    await expectExactFolder(emulator(), folder, files);
    expect((await runWithin(campaignCli(stateFolder, 'verify', 'hostile'))).status).toBe(0);
  });

  it.each([
    ['a FIFO', fifoAt],
    ['a device', zeroAt],
  ] as const)('campaign import of %s: one plain line, status 2', async (found, make) => {
    const file = path.join(await temporaryFolder(), 'shared.json');
    await make(file);
    const run = await runWithin(campaignCli(await temporaryFolder(), 'import', file));
    expect(run).toEqual({ status: 2, stdout: '', stderr: `mlso-dl: Cannot read the campaign file ${file}: it is ${found}, not a regular file.\n` });
  });

  describe.each([
    ['a FIFO', fifoAt],
    ['a link to /dev/zero', zeroAt],
  ] as const)('header, quicklook, pixel and movie on %s named as a FITS file', (_found, make) => {
    it.each([
      ['header', []],
      ['quicklook', ['--out', '-']],
      ['pixel', ['1', '1']],
      ['movie', ['--out', 'MOVIE']],
    ] as const)('%s: refused in one line, status 2', async (command, rest) => {
      const folder = await temporaryFolder();
      const frame = path.join(folder, '20250324_210004_kcor_l2_pb.fts');
      await make(frame);
      const inputs = command === 'movie' ? [await goodFrame(folder), frame] : [frame];
      const args = rest.map((arg) => (arg === 'MOVIE' ? path.join(folder, 'movie.gif') : arg));
      const run = await runWithin([command, ...inputs, ...args]);
      expect(run).toEqual({ status: 2, stdout: '', stderr: `mlso-dl: ${frame} is not a regular file; give the path of a FITS file.\n` });
    });
  });
});

/** A real KCor frame beside the hostile one, so the movie has something to start with. */
async function goodFrame(folder: string): Promise<string> {
  const filename = '20250324_210019_kcor_l2_pb.fts';
  const file = path.join(folder, filename);
  await writeFile(file, fitsBytes({ instrument: 'kcor', product: 'pb', filename, dateObs: '2025-03-24T21:00:19' }, { imageSize: 32, ucompImageSize: 0 }));
  return file;
}
