// A campaign whose server moved still completes (issue 29, item 2): synced against one address, then against another
// (`--base-url` changed, as when the service moves to https or to a mirror), a file of a settled window that must be
// fetched again is fetched from the server the campaign syncs against now, without asking to allow other servers;
// what a server lists on a genuinely other host is still refused. The built mlso-dl against two emulators of the
// same archive.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { runBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder } from '../helpers/fixtures';
import { otherServer, type OtherServer } from '../helpers/other-server';

// One long-settled month window: its listing is not asked for again unless a file of it must be fetched.
const ARCHIVE = { imageSize: 32, lastDay: '2025-03-24', days: 1, cadenceSeconds: 900, zeroFilesizeRate: 0 };
const NAME = 'moved';

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await stopBuiltCli();
  await Promise.all(started.splice(0).map((server) => server.close()));
});

async function emulatorOfTheArchive(): Promise<RunningEmulator> {
  const emulator = await createEmulator(ARCHIVE);
  started.push(emulator);
  return emulator;
}

const mlsoDl = (server: RunningEmulator, state: string, ...args: string[]) => runBuiltCli(['--base-url', server.url, ...args, '--state-dir', state]);

describe('mlso-dl campaign sync after its server moved', () => {
  it('fetches a file of a settled window from the new server, and refuses only what a server lists elsewhere', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), NAME);
    const before = await emulatorOfTheArchive();
    const window = ['-s', '2025-03-24T20:00:00', '-e', '2025-03-24T21:45:00'];
    expect((await mlsoDl(before, state, 'campaign', 'create', NAME, '-i', 'kcor', '-p', 'pb', ...window, '--output-dir', folder)).status).toBe(0);
    const first = await mlsoDl(before, state, 'campaign', 'sync', NAME, '-u', DEMO_EMAIL, '--json');
    expect(first.status, first.stderr).toBe(0);
    const exported = await mlsoDl(before, state, 'campaign', 'export', NAME, '--format', 'json', '--out', '-');
    const files = (JSON.parse(exported.stdout) as { files: { local_path: string; filename: string }[] }).files;
    expect(files.length).toBeGreaterThanOrEqual(5);
    await before.close();

    const after = await emulatorOfTheArchive();
    expect(after.url).not.toBe(before.url);
    const elsewhere: OtherServer = await otherServer(() => after, 'another port');
    started.push(elsewhere);
    const [moved, foreign, unlisted] = [files[0]!, files[1]!, files[2]!];
    for (const file of [moved, foreign, unlisted]) await rm(file.local_path);
    // The new server lists one file on another host, and no longer lists another.
    after.transformListing = (listing) => {
      const entries = listing['files'] as { filename: string; url: string }[];
      return {
        ...listing,
        files: entries
          .filter((entry) => entry.filename !== unlisted.filename)
          .map((entry) => (entry.filename === foreign.filename ? { ...entry, url: `${elsewhere.url}/v1/download?filename=${entry.filename}` } : entry)),
      };
    };

    const again = await mlsoDl(after, state, 'campaign', 'sync', NAME, '-u', DEMO_EMAIL);
    // Two files are not fetched (refused), so the sync does not end clean.
    expect(again.status).toBe(1);
    expect(Object.keys(after.stats().downloadsByFile)).toEqual([moved.filename]);
    expect(elsewhere.requests).toEqual([]);
    expect(again.stderr).toContain(`Synced "${NAME}": 1 downloaded, ${files.length - 3} already there, 0 failed, 2 missing.`);
    const refusals = again.stderr.split('\n').filter((line) => line.startsWith('refused: '));
    expect(refusals).toHaveLength(2);
    // The listed address on another host: refused as before, with the way to allow it.
    expect(refusals.find((line) => line.startsWith(`refused: ${foreign.filename}: `))).toContain('--allow-other-hosts');
    // The campaign's own file the new server does not list: said so, and never "allow other hosts".
    const unlistedLine = refusals.find((line) => line.startsWith(`refused: ${unlisted.filename}: `));
    expect(unlistedLine).toBe(
      `refused: ${unlisted.filename}: its address is on ${new URL(before.url).host}, where this campaign was synced from before, and ${new URL(after.url).host} does not list it now`,
    );
  });
});
