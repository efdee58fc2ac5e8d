// What `mlso-dl campaign` says is so (issue 29), the built mlso-dl through real pipes against the emulator: files a
// sync took from another folder are called reused, with the folder, in its table, its summary line, `campaign show`
// and --json, never downloaded; after a --full sync, a file the archive no longer lists is counted apart as "no
// longer listed", and never queued again.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { downloadArgs } from '../core/downloads/cli-process';
import { listing } from '../core/downloads/engine-harness';
import { runBuiltCli, runPiped, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 16 });
afterEach(stopBuiltCli);

const WINDOW = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' };

describe('mlso-dl campaign says what is so', () => {
  it('calls the files a sync copied from another folder reused, from there, in its table, summary, show and --json', { timeout: 60_000 }, async () => {
    const files = await listing(emulator(), WINDOW);
    expect(files.length).toBeGreaterThan(1);
    const state = await temporaryFolder();
    const first = await temporaryFolder();
    expect((await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window: WINDOW, folder: first, stateFolder: state }))).status).toBe(0);
    emulator().resetStats();

    const cli = async (...args: string[]) => {
      const run = await runPiped(['--base-url', emulator().url, 'campaign', ...args, '--state-dir', state], 'cat');
      return { ...run, stdout: run.output.toString() };
    };
    const folder = path.join(await temporaryFolder(), 'mirror');
    const range = ['-s', WINDOW['start-date'], '-e', WINDOW['end-date']];
    expect((await cli('create', 'mirror', '-i', 'kcor', '-p', 'pb', ...range, '--output-dir', folder)).statuses).toEqual([0, 0]);

    const sync = await cli('sync', 'mirror', '-u', DEMO_EMAIL);
    expect(sync.statuses).toEqual([0, 0]);
    expect(emulator().stats().downloadsStarted).toBe(0);
    const n = files.length;
    expect(sync.stdout).toMatch(/^Query +Listed +New +Downloaded +Reused +Already there +Queued +Failed +Missing$/m);
    expect(sync.stdout).toMatch(new RegExp(`^Total +${n} +${n} +0 +${n} +0 +0 +0 +0$`, 'm'));
    const summary = `0 downloaded, ${n} reused from ${first}, 0 already there, 0 failed`;
    expect(sync.stderr).toContain(`Synced "mirror": ${summary}.`);

    const shown = await cli('show', 'mirror');
    expect(shown.stdout).toMatch(new RegExp(`^Last sync  : \\S+ \\(${summary.replaceAll('/', '\\/')}\\)$`, 'm'));
    const json = JSON.parse((await cli('show', 'mirror', '--json')).stdout) as { counts: Record<string, number>; lastSync: { total: Record<string, number> } };
    expect(json.counts).toMatchObject({ onDisk: n, downloaded: 0, reused: n, alreadyThere: 0 });
    expect(json.lastSync.total).toMatchObject({ downloaded: 0, reused: n });

    // The next sync finds them there: already there, neither downloaded nor reused again.
    const again = await cli('sync', 'mirror', '-u', DEMO_EMAIL);
    expect(again.stderr).toContain(`Synced "mirror": 0 downloaded, ${n} already there, 0 failed.`);
  });

  it('counts a file the archive no longer lists apart after --full, and never fetches it again', { timeout: 60_000 }, async () => {
    const files = await listing(emulator(), WINDOW);
    const n = files.length;
    const dropped = files[1]!.filename;
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'gone');
    const cli = async (...args: string[]) => {
      const run = await runPiped(['--base-url', emulator().url, 'campaign', ...args, '--state-dir', state], 'cat');
      return { ...run, stdout: run.output.toString() };
    };
    const range = ['-s', WINDOW['start-date'], '-e', WINDOW['end-date']];
    expect((await cli('create', 'gone', '-i', 'kcor', '-p', 'pb', ...range, '--output-dir', folder)).statuses).toEqual([0, 0]);
    expect((await cli('sync', 'gone', '-u', DEMO_EMAIL)).statuses).toEqual([0, 0]);

    // The archive drops a file. A plain sync does not list the settled window again, so it cannot know.
    emulator().transformListing = (answer) => ({ ...answer, files: (answer['files'] as { filename: string }[]).filter((file) => file.filename !== dropped) });
    const plain = await cli('sync', 'gone', '-u', DEMO_EMAIL);
    expect(plain.stderr).toContain(`Synced "gone": 0 downloaded, ${n} already there, 0 failed.`);

    // --full lists it whole: the file is counted apart, with a note, and the sync is clean.
    const full = await cli('sync', 'gone', '-u', DEMO_EMAIL, '--full');
    expect(full.statuses).toEqual([0, 0]);
    expect(full.stderr).toContain(`Synced "gone": 0 downloaded, ${n - 1} already there, 0 failed, 1 no longer listed.`);
    expect(full.stderr).toContain('1 file of the campaign is no longer listed by the archive: kept in the folder if there, and not fetched again.');
    expect(full.stdout).toMatch(/^Query +Listed +New +Downloaded +Already there +Queued +Failed +Missing +No longer listed$/m);
    expect(full.stdout).toMatch(new RegExp(`^Total +${n - 1} +0 +0 +${n - 1} +0 +0 +0 +1$`, 'm'));
    const shown = await cli('show', 'gone');
    expect(shown.stdout).toContain(`Files      : ${n} (${n - 1} on disk, 0 queued, 0 failed, 0 missing, 1 no longer listed by the archive)`);
    expect(JSON.parse((await cli('show', 'gone', '--json')).stdout).counts).toMatchObject({ files: n, onDisk: n - 1, noLongerListed: 1, missing: 0 });

    // Gone from disk too: no sync fetches it again or calls it missing, nor does verify call it a problem.
    await rm(path.join(folder, dropped));
    emulator().resetStats();
    const after = await cli('sync', 'gone', '-u', DEMO_EMAIL);
    expect(after.statuses).toEqual([0, 0]);
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(after.stderr).toContain(`Synced "gone": 0 downloaded, ${n - 1} already there, 0 failed, 1 no longer listed.`);
    expect(after.stderr).not.toContain('Not on disk as downloaded');
    const verify = await cli('verify', 'gone');
    expect(verify.statuses).toEqual([0, 0]);
    expect(verify.stderr).toContain(`${n - 1} on disk and intact, 0 missing, 0 changed, 0 unexpected, 0 failed, 1 no longer listed by the archive.`);
  });
});
