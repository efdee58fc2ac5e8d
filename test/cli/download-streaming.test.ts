// `files --download` overlaps what used to run one after another: signing in while the listing is requested, and
// downloading the first files while the rest of the listing is still arriving. A proxy in front of the emulator
// holds the listing back and notes what the client did meanwhile. A wrong e-mail still stops everything cleanly.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/run-cli';
import { LEDGER_FILE } from '../../src-main/core/state/open-state-folder';
import { openStateFile } from '../core/state/state-file';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { expectExactFolder, listing } from '../core/downloads/engine-harness';
import { Capture, listFolder, temporaryFolder, useEmulator } from '../helpers/fixtures';
import { heldListingProxy, type HeldListingProxy, type HoldRules } from './held-listing-proxy';

const emulator = useEmulator({ imageSize: 8 });
const window = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T19:00:00' }; // 240 small files

let proxy: HeldListingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

interface Run {
  status: number;
  stderr: string;
  folder: string;
  stateFolder: string;
}

async function download(rules: HoldRules, username = DEMO_EMAIL): Promise<Run> {
  proxy = await heldListingProxy(emulator().url, rules);
  const folder = await temporaryFolder();
  const stateFolder = await temporaryFolder();
  const stdout = new Capture();
  const stderr = new Capture();
  const args = ['--base-url', proxy.url, '-q', 'files', '-i', 'kcor', '-p', 'pb', '-s', window['start-date'], '-e', window['end-date']];
  const status = await runCli([...args, '-d', '-u', username, '-o', folder, '--state-dir', stateFolder], { stdout, stderr });
  return { status, stderr: stderr.text, folder, stateFolder };
}

function jobsIn(stateFolder: string): number {
  const { ledger } = openStateFile(path.join(stateFolder, LEDGER_FILE));
  try {
    return ledger.list({ includeCleared: true }).length;
  } finally {
    ledger.close();
  }
}

describe('mlso-dl files --download while the listing is on its way', () => {
  it('signs in while the listing is requested: the sign-in arrives before the listing is answered', async () => {
    const run = await download({ listingUntil: 'authenticate' });
    expect(run.status, run.stderr).toBe(0);
    expect(proxy!.events).toContain('listing:released by authenticate');
    await expectExactFolder(emulator(), run.folder, await listing(emulator(), window));
  }, 30_000);

  it('starts downloading before the last byte of the listing is sent, and still gets every file', async () => {
    const run = await download({ listingTailUntil: 'download' });
    expect(run.status, run.stderr).toBe(0);
    const events = proxy!.events;
    expect(events).toContain('listing:tail released by download');
    expect(events.indexOf('download:start')).toBeLessThan(events.indexOf('listing:end'));
    await expectExactFolder(emulator(), run.folder, await listing(emulator(), window));
  }, 30_000);

  it('with a wrong e-mail says so plainly (exit 1) and leaves nothing behind: no file, no queued job, no download', async () => {
    const run = await download({}, 'stranger@example.org');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^mlso-dl: stranger@example\.org is not registered on the demo server: sign in as demo@example\.com \(accounts for the real service are made at https:\/\/registration\.hao\.ucar\.edu\)\.\n$/,
    );
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(await listFolder(run.folder)).toEqual([]);
    expect(jobsIn(run.stateFolder)).toBe(0);
    expect(emulator().stats().downloadsStarted).toBe(0);
  }, 30_000);
});
