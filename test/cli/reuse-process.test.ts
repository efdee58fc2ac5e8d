// `mlso-dl files --download` into a second folder takes the files an earlier run downloaded into another folder from
// there instead of fetching them again, and says so: in its summary line and in --json. With --link they are hard
// links. Needs the built command line; run through a real pipe.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExactFolder, listing } from '../core/downloads/engine-harness';
import { downloadArgs } from '../core/downloads/cli-process';
import { runBuiltCli, runPiped } from '../helpers/built-cli';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 16 });
const window = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' };

describe('mlso-dl files --download reuses files downloaded into another folder', () => {
  it('fetches nothing again, says how many were reused and from where, and links them with --link', async () => {
    const files = await listing(emulator(), window);
    expect(files.length).toBeGreaterThan(1);
    const stateFolder = await temporaryFolder();
    const first = await temporaryFolder();
    const firstRun = await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder: first, stateFolder }));
    expect(firstRun.status).toBe(0);
    emulator().resetStats();

    const second = await temporaryFolder();
    const json = await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder: second, stateFolder }, '--json'));
    expect(json.stderr).toBe('');
    expect(json.status).toBe(0);
    const summary = JSON.parse(json.stdout) as { downloaded: unknown[]; skipped: unknown[]; reused: { count: number; from: string[] } };
    expect(summary.reused).toEqual({ count: files.length, from: [first] });
    expect(summary.downloaded).toEqual([]);
    expect(summary.skipped).toEqual([]);
    expect(emulator().stats().downloadsStarted).toBe(0);
    await expectExactFolder(emulator(), second, files);

    const third = await temporaryFolder();
    const text = await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder: third, stateFolder }, '--link'));
    expect(text.status).toBe(0);
    expect(`${text.stdout}${text.stderr}`).toContain(`Downloaded 0 files (0 B) into ${third}`);
    // Reused from two folders now: the first run's and the second's hold the same files.
    expect(`${text.stdout}${text.stderr}`).toMatch(new RegExp(`${files.length} reused (from ${first.replaceAll('/', '\\/')}|from 2 folders)`));
    expect(emulator().stats().downloadsStarted).toBe(0);
    const linked = await stat(path.join(third, files[0]!.filename));
    expect(linked.nlink).toBeGreaterThan(1);
    await expectExactFolder(emulator(), third, files);
  });

  it('campaign sync --link takes the files from the folder files --download filled, and its report says so', async () => {
    const files = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const first = await temporaryFolder();
    expect((await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder: first, stateFolder }))).status).toBe(0);
    emulator().resetStats();

    const folder = path.join(await temporaryFolder(), 'mirror');
    const cli = (...args: string[]) => ['--base-url', emulator().url, 'campaign', ...args, '--state-dir', stateFolder];
    const range = ['-s', window['start-date'], '-e', window['end-date']];
    expect((await runBuiltCli(cli('create', 'mirror', '-i', 'kcor', '-p', 'pb', ...range, '--output-dir', folder))).status).toBe(0);
    const sync = await runPiped(cli('sync', 'mirror', '-u', DEMO_EMAIL, '--link', '--json'), 'cat');
    expect(sync.statuses).toEqual([0, 0]);
    const report = JSON.parse(sync.output.toString()) as { reused: { count: number; from: string[] }; total: { onDisk: number } };
    expect(report.reused).toEqual({ count: files.length, from: [first] });
    expect(report.total.onDisk).toBe(files.length);
    expect(emulator().stats().downloadsStarted).toBe(0);
    const [from, to] = await Promise.all([stat(path.join(first, files[0]!.filename)), stat(path.join(folder, files[0]!.filename))]);
    expect(to.ino).toBe(from.ino);

    const text = await runBuiltCli(cli('sync', 'mirror', '-u', DEMO_EMAIL));
    expect(text.status).toBe(0);
    // Nothing to reuse the second time: the files are there.
    expect(text.stderr).toContain(`Synced "mirror": 0 downloaded, ${files.length} already there, 0 failed.`);
    const verify = await runBuiltCli(cli('verify', 'mirror', '--json'));
    expect(verify.status).toBe(0);
  });
});
