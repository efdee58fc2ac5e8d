// What an interrupted run says is left (issue 29, item 12), the built mlso-dl stopped by SIGINT against the emulator:
// `files --download` counts what it downloaded apart from what was already complete, and counts as still to do the
// files listed but not queued yet; `campaign sync --all` says where the campaign under way stands and which were not
// synced; verify then says how many are on disk and intact and how many are still to download.
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { downloadArgs } from '../core/downloads/cli-process';
import { listing } from '../core/downloads/engine-harness';
import { runBuiltCli, startBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { oddServer, temporaryFolder, useEmulator } from '../helpers/fixtures';
import { waitFor } from '../helpers/wait-for';
import { heldListingProxy } from './held-listing-proxy';

const emulator = useEmulator({ imageSize: 64 });
afterEach(stopBuiltCli);

const WINDOW = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' };
/** The first files of WINDOW: downloaded before the run that is interrupted. */
const FIRST_PART = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:00:20' };
/** Slow enough that a file is still on its way when the test stops the run. */
const SLOW = { bandwidthBytesPerSecond: 1_000 };

const fitsFilesIn = async (folder: string): Promise<number> => (await readdir(folder, { recursive: true })).filter((name) => name.endsWith('.fts')).length;

const INTERRUPTED_DOWNLOAD =
  /^Interrupted: (\d+) downloaded, (\d+) already complete, 0 failed, (\d+) still to do(.*)\. Run the same command again to continue\.$/m;

describe('an interrupted run says what is left', () => {
  it('files --download counts what it downloaded apart from what was already complete, and the rest as still to do', async () => {
    const files = await listing(emulator(), WINDOW);
    const already = await listing(emulator(), FIRST_PART);
    expect(already.length).toBeGreaterThan(0);
    expect(files.length).toBeGreaterThan(already.length + 1);
    const state = await temporaryFolder();
    const folder = await temporaryFolder();
    const run = { baseUrl: emulator().url, folder, stateFolder: state };
    expect((await runBuiltCli(downloadArgs({ ...run, window: FIRST_PART }))).status).toBe(0);

    emulator().setOptions(SLOW);
    emulator().resetStats();
    const started = startBuiltCli(downloadArgs({ ...run, window: WINDOW }, '--concurrency', '1'));
    await waitFor(() => emulator().stats().downloadsStarted > 0, 'a download to start');
    started.child.kill('SIGINT');
    expect(await started.exited).toBe(130);

    const said = INTERRUPTED_DOWNLOAD.exec(started.stderr());
    expect(said, started.stderr()).not.toBeNull();
    const [downloaded, complete, toDo] = [Number(said![1]), Number(said![2]), Number(said![3])];
    expect(complete).toBe(already.length);
    expect(downloaded).toBe((await fitsFilesIn(folder)) - already.length);
    expect(downloaded + complete + toDo).toBe(files.length);
    expect(said![4]).toBe('');
  });

  it('files --download counts the files listed but not yet queued as still to do', async () => {
    const files = await listing(emulator(), WINDOW);
    // The sign-in is held: the listing arrives, and its files wait for the queue.
    let listingServed = false;
    let signInAsked = false;
    const proxy = await oddServer((req, res) => {
      res.on('error', () => undefined);
      if ((req.url ?? '').startsWith('/v1/authenticate')) {
        signInAsked = true;
        return;
      }
      const upstream = httpRequest(new URL(req.url ?? '/', emulator().url), { method: req.method, headers: req.headers }, (answer) => {
        answer.on('error', () => res.destroy());
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        if (/\/files\/?(\?|$)/.test(req.url ?? '')) res.on('finish', () => (listingServed = true));
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    try {
      const folder = await temporaryFolder();
      const started = startBuiltCli(downloadArgs({ baseUrl: proxy.url, window: WINDOW, folder, stateFolder: await temporaryFolder() }));
      await waitFor(() => listingServed && signInAsked, 'the listing to arrive while the sign-in is held');
      started.child.kill('SIGINT');
      expect(await started.exited).toBe(130);
      const said = INTERRUPTED_DOWNLOAD.exec(started.stderr());
      expect(said, started.stderr()).not.toBeNull();
      expect([Number(said![1]), Number(said![2]), Number(said![3])]).toEqual([0, 0, files.length]);
      expect(await fitsFilesIn(folder)).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('campaign sync --all says where the campaign under way stands and which were not synced, and verify agrees', async () => {
    const files = await listing(emulator(), WINDOW);
    const state = await temporaryFolder();
    const root = await temporaryFolder();
    const cli = (...args: string[]) => ['--base-url', emulator().url, 'campaign', ...args, '--state-dir', state];
    const range = ['-s', WINDOW['start-date'], '-e', WINDOW['end-date']];
    for (const name of ['a-first', 'b-second']) {
      expect((await runBuiltCli(cli('create', name, '-i', 'kcor', '-p', 'pb', ...range, '--output-dir', path.join(root, name)))).status).toBe(0);
    }

    emulator().setOptions(SLOW);
    emulator().resetStats();
    const started = startBuiltCli(cli('sync', '--all', '-u', DEMO_EMAIL, '--concurrency', '1'));
    await waitFor(() => emulator().stats().downloadsStarted > 0, 'a download to start');
    started.child.kill('SIGINT');
    expect(await started.exited).toBe(130);

    const said =
      /^Interrupted: "a-first" has (\d+) of (\d+) files? on disk, (\d+) still to download; not synced: "b-second"\. Run the same command again to continue\.$/m.exec(
        started.stderr(),
      );
    expect(said, started.stderr()).not.toBeNull();
    const [onDisk, total, left] = [Number(said![1]), Number(said![2]), Number(said![3])];
    expect(total).toBe(files.length);
    expect(onDisk).toBe(await fitsFilesIn(path.join(root, 'a-first')));
    expect(onDisk + left).toBe(total);

    // The files stopped on their way are queued again: verify says so, not "all good" and not missing.
    const verify = await runBuiltCli(cli('verify', 'a-first'));
    expect(verify.stderr).toContain(`${onDisk} of ${total} on disk and intact; ${left} still to download.`);
    expect(verify.status).toBe(1);
  });

  it('campaign sync stopped while listing says so, not that nothing is left', async () => {
    const proxy = await heldListingProxy(emulator().url, { listingUntil: 'download' }, 60_000);
    try {
      const state = await temporaryFolder();
      const cli = (...args: string[]) => ['--base-url', proxy.url, 'campaign', ...args, '--state-dir', state];
      const range = ['-s', WINDOW['start-date'], '-e', WINDOW['end-date']];
      expect((await runBuiltCli(cli('create', 'held', '-i', 'kcor', '-p', 'pb', ...range, '--output-dir', await temporaryFolder()))).status).toBe(0);
      const started = startBuiltCli(cli('sync', 'held', '-u', DEMO_EMAIL));
      await waitFor(() => proxy.events.includes('listing:start'), 'the listing to be asked for');
      started.child.kill('SIGINT');
      expect(await started.exited).toBe(130);
      expect(started.stderr()).toContain('Interrupted: "held" has no files listed yet. Run the same command again to continue.');
    } finally {
      await proxy.close();
    }
  });
});
