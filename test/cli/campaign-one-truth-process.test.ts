// One truth per campaign on the command line (issue 21, item 4), the built mlso-dl through real pipes: the sync's
// table has a Downloaded (and an Already there) column and a summary line saying what it downloaded, found already
// there and failed; `campaign list --json`, `campaign show --json`, `campaign verify --json` and the sync's total
// carry the same counts, before a sync, after it, after a file is deleted and verified, and after the next sync.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { runPiped, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 32 });
afterEach(stopBuiltCli);

const DAY = ['-s', '2025-03-24', '-e', '2025-03-24T23:59:59', '--every', '2hours'];
const SHARED = ['onDisk', 'downloaded', 'reused', 'alreadyThere', 'differs', 'changed', 'queued', 'failed', 'missing', 'notSynced'] as const;

/** The counts the card, the lists, verify and the sync's total all carry. */
const sharedOf = (counts: Record<string, number>) => Object.fromEntries(SHARED.map((key) => [key, counts[key]]));

describe('mlso-dl campaign: one set of counts everywhere', () => {
  it('the sync table counts what it downloaded, and list/show/verify --json carry the same counts as its total', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'eclipse');
    const cli = async (...args: string[]) => {
      const run = await runPiped(['--base-url', emulator().url, ...args, '--state-dir', state], 'cat');
      return { ...run, stdout: run.output.toString() };
    };
    const json = async (...args: string[]) => JSON.parse((await cli(...args, '--json')).stdout);
    expect((await cli('campaign', 'create', 'eclipse', '-i', 'kcor', '-p', 'pb', ...DAY, '--output-dir', folder)).statuses).toEqual([0, 0]);

    // Never synced: nothing listed yet, nothing missing.
    const before = await json('campaign', 'show', 'eclipse');
    expect(before.counts).toMatchObject({ files: 0, missing: 0, notSynced: 0 });

    const sync = await cli('campaign', 'sync', 'eclipse', '-u', DEMO_EMAIL);
    expect(sync.statuses).toEqual([0, 0]);
    expect(sync.stdout).toMatch(/^Query +Listed +New +Downloaded +Already there +Queued +Failed +Missing$/m);
    const total = Number(/^Total +(\d+) /m.exec(sync.stdout)?.[1]);
    expect(total).toBeGreaterThan(2);
    expect(sync.stdout).toMatch(new RegExp(`^Total +${total} +${total} +${total} +0 +0 +0 +0$`, 'm'));
    expect(sync.stderr).toContain(`Synced "eclipse": ${total} downloaded, 0 already there, 0 failed.`);

    const [listed] = await json('campaign', 'list');
    const shown = await json('campaign', 'show', 'eclipse');
    expect(listed.counts).toMatchObject({ files: total, onDisk: total, downloaded: total, alreadyThere: 0, missing: 0, notSynced: 0 });
    expect(shown.counts).toEqual(listed.counts);
    // The last sync's summary, as `show --json` carries it, is the card's counts.
    expect(sharedOf(shown.lastSync.total)).toEqual(sharedOf(listed.counts));

    // A file deleted behind the tool's back: verify finds it, and list --json says the same from then on.
    const files = JSON.parse((await cli('campaign', 'export', 'eclipse', '--format', 'json', '--out', '-')).stdout).files as { local_path: string }[];
    await rm(files[0]!.local_path);
    const verified = await json('campaign', 'verify', 'eclipse');
    expect(verified).toMatchObject({ onDisk: total - 1, missing: 1, changed: 0, failed: 0 });
    const [afterVerify] = await json('campaign', 'list');
    expect(sharedOf(afterVerify.counts)).toEqual(sharedOf(verified));

    // The next sync fetches that one file and finds the rest already there; its --json total is list --json's counts.
    const again = await json('campaign', 'sync', 'eclipse', '-u', DEMO_EMAIL);
    expect(again.total).toMatchObject({ downloaded: 1, alreadyThere: total - 1, failed: 0, missing: 0 });
    const [afterSync] = await json('campaign', 'list');
    expect(sharedOf(afterSync.counts)).toEqual(sharedOf(again.total));
  });
});
