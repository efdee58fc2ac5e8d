// What `mlso-dl campaign` says is so (issue 29), the built mlso-dl through real pipes against the emulator: files a
// sync took from another folder are called reused, with the folder, in its table, its summary line, `campaign show`
// and --json, never downloaded.
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
});
