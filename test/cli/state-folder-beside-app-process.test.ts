// The command line while the app holds the state folder: web mode (`mlso-dl web`, the desktop app's core) runs on
// it, and the built mlso-dl runs beside it through real pipes. Commands that only read read beside it; a command
// that writes names web mode and exits 75, or with --wait queues behind it and runs once it has finished.
// Needs the built command line (node scripts/build-main.mjs) and renderer (npx vite build).
import { existsSync } from 'node:fs';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CampaignOverview, VerifyReport } from '../../src-shared/campaigns/campaign-types';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { unchangedSinceCleanClose } from '../../src-main/core/state/clean-close-mark';
import { runBuiltCli, startBuiltCli, stopBuiltCli, type StartedRun } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import { waitFor } from '../helpers/wait-for';

const emulator = useEmulator({ imageSize: 32 });
afterEach(stopBuiltCli);

const KCOR_DAY = ['-i', 'kcor', '-p', 'pb', '-s', '2025-03-24', '-e', '2025-03-24T23:59:59', '--every', '3hours'];

function mlsoDl(state: string, ...args: string[]) {
  return runBuiltCli(['--base-url', emulator().url, ...args, '--state-dir', state]);
}

/** A state folder with the campaign "corona" synced into a folder of its own. */
async function syncedCampaign(): Promise<{ state: string; folder: string }> {
  const state = await temporaryFolder();
  const folder = path.join(await temporaryFolder(), 'corona');
  expect(await mlsoDl(state, 'campaign', 'create', 'corona', ...KCOR_DAY, '--output-dir', folder)).toMatchObject({ status: 0 });
  expect(await mlsoDl(state, 'campaign', 'sync', 'corona', '-u', DEMO_EMAIL)).toMatchObject({ status: 0 });
  return { state, folder };
}

/** `mlso-dl web` on the state folder, once it serves (it holds the state folder from then on). */
async function startWebMode(state: string): Promise<StartedRun> {
  const web = startBuiltCli(['--base-url', emulator().url, 'web', '--port', '0', '--state-dir', state, '--output-dir', await temporaryFolder()]);
  let ended = false;
  void web.exited.then(() => (ended = true));
  await waitFor(() => ended || web.stdout().includes('Open http'), 'web mode to print its address');
  if (ended) throw new Error(`mlso-dl web exited: ${web.stderr()}`);
  return web;
}

/** Ctrl-C, as its user stops it: it closes the engine and lets go of the state folder. */
async function stopWebMode(web: StartedRun): Promise<void> {
  web.child.kill('SIGINT');
  expect(await web.exited).toBe(0);
}

const busy = (holder: string, state: string): string =>
  `mlso-dl: Another MLSO Downloader (${holder}) is using the state folder ${state}. Add --wait to run once it has finished, or use another --state-dir.\n`;

describe('the command line beside web mode on the same state folder', () => {
  it('lists, shows, exports and verifies beside it, as before it started, and leaves the ledger to it', { timeout: 60_000 }, async () => {
    const { state } = await syncedCampaign();
    const before = {
      list: (await mlsoDl(state, 'campaign', 'list', '--json')).stdout,
      show: (await mlsoDl(state, 'campaign', 'show', 'corona', '--json')).stdout,
      csv: (await mlsoDl(state, 'campaign', 'export', 'corona', '--format', 'csv', '--out', '-')).stdout,
      shared: (await mlsoDl(state, 'campaign', 'export', 'corona', '--format', 'campaign', '--with-files', '--out', '-')).stdout,
    };
    expect((JSON.parse(before.show) as CampaignOverview).counts).toMatchObject({ files: 3, onDisk: 3 });
    const web = await startWebMode(state);

    expect(await mlsoDl(state, 'campaign', 'list', '--json')).toEqual({ status: 0, stdout: before.list, stderr: '' });
    expect(await mlsoDl(state, 'campaign', 'show', 'corona', '--json')).toEqual({ status: 0, stdout: before.show, stderr: '' });
    const shown = await mlsoDl(state, 'campaign', 'show', 'corona');
    expect(shown).toMatchObject({ status: 0, stderr: '' });
    expect(shown.stdout).toContain('Files      : 3 (3 on disk, 0 queued, 0 failed, 0 missing)');
    const listed = await mlsoDl(state, 'campaign', 'list');
    expect(listed).toMatchObject({ status: 0, stderr: '' });
    expect(listed.stdout).toMatch(/^corona +3 +3 +0 +0 +0 /m);
    expect(await mlsoDl(state, 'campaign', 'export', 'corona', '--format', 'csv', '--out', '-')).toEqual({ status: 0, stdout: before.csv, stderr: '' });
    expect(await mlsoDl(state, 'campaign', 'export', 'corona', '--format', 'campaign', '--with-files', '--out', '-')).toEqual({
      status: 0,
      stdout: before.shared,
      stderr: '',
    });
    const verified = await mlsoDl(state, 'campaign', 'verify', 'corona');
    expect(verified).toEqual({ status: 0, stdout: '', stderr: '3 on disk and intact, 0 missing, 0 changed, 0 unexpected, 0 failed.\n' });
    // A listing without --download does not touch the state folder at all.
    const files = await mlsoDl(state, 'files', ...KCOR_DAY);
    expect(files.status).toBe(0);
    expect(files.stdout).toContain('3 files');
    const movie = path.join(await temporaryFolder(), 'corona.gif');
    expect(await mlsoDl(state, 'movie', '--campaign', 'corona', '--out', movie)).toMatchObject({ status: 0 });
    expect(existsSync(movie)).toBe(true);

    // Web mode still holds the folder and works on; once it closes it marks the ledger's clean close as ever: the readers beside it
    // neither cleared the mark nor left anything that would keep it from marking.
    expect(existsSync(path.join(state, 'engine.lock'))).toBe(true);
    await stopWebMode(web);
    expect(unchangedSinceCleanClose(path.join(state, 'downloads.sqlite'))).toBe(true);
  });

  it(
    'verify beside it says what it finds, records none of it and says so; with --wait it records once web mode has finished',
    { timeout: 60_000 },
    async () => {
      const { state, folder } = await syncedCampaign();
      const [gone, altered] = (await readdir(folder)).sort();
      await rm(path.join(folder, gone!));
      // The same size, other bytes: only hashing finds it.
      const bytes = await readFile(path.join(folder, altered!));
      await writeFile(
        path.join(folder, altered!),
        bytes.map((byte) => byte ^ 0xff),
      );
      const web = await startWebMode(state);

      const beside = await mlsoDl(state, 'campaign', 'verify', 'corona', '--json');
      expect(beside.status).toBe(1);
      const found = JSON.parse(beside.stdout) as VerifyReport;
      expect(found).toMatchObject({ files: 3, onDisk: 1, missing: 1, changed: 1, notRecorded: 2 });
      expect(found.problems).toEqual([
        { path: gone, problem: 'missing' },
        { path: altered, problem: 'changed' },
      ]);
      expect(beside.stderr).toBe(
        `mlso-dl: Not recorded: another MLSO Downloader (web mode, process ${web.child.pid}) is using the state folder, and the ledger still counts these 2 files as on disk (a sync would not fetch them again). To record what verify finds, run \`mlso-dl campaign verify corona --wait\`: it waits for that program to finish.\n`,
      );
      // Nothing was written: the ledger still says what it said.
      const shown = JSON.parse((await mlsoDl(state, 'campaign', 'show', 'corona', '--json')).stdout) as CampaignOverview;
      expect(shown.counts).toMatchObject({ onDisk: 3, missing: 0 });

      const recording = startBuiltCli(['--base-url', emulator().url, 'campaign', 'verify', 'corona', '--json', '--wait', '--state-dir', state]);
      await waitFor(() => recording.stderr().includes('Waiting for'), 'verify --wait to wait for web mode');
      expect(recording.stderr()).toBe(
        `Waiting for another MLSO Downloader (web mode, process ${web.child.pid}) to finish with the state folder ${state} (Ctrl-C stops waiting).\n`,
      );
      await stopWebMode(web);
      expect(await recording.exited).toBe(1);
      const recorded = JSON.parse(recording.stdout()) as VerifyReport;
      // The same counts, now recorded: the one count function either way.
      const { at: _at, notRecorded: _notRecorded, ...counted } = found;
      expect(recorded).toEqual({ ...counted, at: recorded.at });
      expect((JSON.parse((await mlsoDl(state, 'campaign', 'show', 'corona', '--json')).stdout) as CampaignOverview).counts).toMatchObject({
        onDisk: 1,
        missing: 1,
        changed: 1,
      });
    },
  );

  it('a command that writes names web mode and exits 75; with --wait it queues behind it and runs once it stops', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'corona');
    expect(await mlsoDl(state, 'campaign', 'create', 'corona', ...KCOR_DAY, '--output-dir', folder)).toMatchObject({ status: 0 });
    const web = await startWebMode(state);
    const holder = `web mode, process ${web.child.pid}`;

    expect(await mlsoDl(state, 'campaign', 'sync', 'corona', '-u', DEMO_EMAIL)).toEqual({ status: 75, stdout: '', stderr: busy(holder, state) });
    expect(await mlsoDl(state, 'campaign', 'add', 'corona', '-i', 'ucomp', '-p', 'l2')).toEqual({ status: 75, stdout: '', stderr: busy(holder, state) });
    expect(await mlsoDl(state, 'files', ...KCOR_DAY, '--download', '-u', DEMO_EMAIL, '-o', await temporaryFolder())).toEqual({
      status: 75,
      stdout: '',
      stderr: busy(holder, state),
    });
    expect(emulator().stats().downloadsStarted).toBe(0);

    const nightly = startBuiltCli(['--base-url', emulator().url, 'campaign', 'sync', 'corona', '-u', DEMO_EMAIL, '--wait', '--state-dir', state]);
    const elsewhere = await temporaryFolder();
    const download = startBuiltCli([
      '--base-url',
      emulator().url,
      'files',
      ...KCOR_DAY,
      '-d',
      '-u',
      DEMO_EMAIL,
      '-o',
      elsewhere,
      '--wait',
      '--state-dir',
      state,
    ]);
    await waitFor(() => nightly.stderr().includes('Waiting for'), 'the sync to wait for web mode');
    await waitFor(() => download.stderr().includes('Waiting for'), 'files --download to wait for web mode');
    expect(emulator().stats().downloadsStarted).toBe(0);
    await stopWebMode(web);
    // Both run once web mode has finished, one after the other, in either order: a sync that runs second takes the
    // three files from the download's folder instead of fetching them again.
    expect(await nightly.exited).toBe(0);
    expect(nightly.stderr()).toMatch(/Synced "corona": (3 downloaded|0 downloaded, 3 reused from \S+), 0 already there, 0 failed\./);
    expect(await readdir(folder)).toHaveLength(3);
    expect(await download.exited).toBe(0);
    expect(await readdir(elsewhere)).toHaveLength(3);
  });

  for (const [signal, status] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`a wait ends at once on ${signal}, having done nothing`, { timeout: 60_000 }, async () => {
      const state = await temporaryFolder();
      const folder = path.join(await temporaryFolder(), 'corona');
      expect(await mlsoDl(state, 'campaign', 'create', 'corona', ...KCOR_DAY, '--output-dir', folder)).toMatchObject({ status: 0 });
      const web = await startWebMode(state);
      const waiting = startBuiltCli(['--base-url', emulator().url, 'campaign', 'sync', 'corona', '-u', DEMO_EMAIL, '--wait', '--state-dir', state]);
      await waitFor(() => waiting.stderr().includes('Waiting for'), 'the sync to wait for web mode');
      const sent = performance.now();
      waiting.child.kill(signal);
      expect(await waiting.exited).toBe(status);
      expect(performance.now() - sent).toBeLessThan(1_000);
      expect(waiting.stderr().trimEnd().split('\n').at(-1)).toBe('Interrupted while waiting for the state folder: nothing was done.');
      expect(existsSync(folder)).toBe(false);
      await stopWebMode(web);
    });
  }
});
