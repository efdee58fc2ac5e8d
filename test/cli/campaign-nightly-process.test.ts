// A lab's nightly mirror the way a timer or cron runs it: the built mlso-dl as a child process, its stdout a real
// pipe. `campaign sync --all` syncs every campaign in turn; a run that finds the state folder held by the last one
// exits at once with its own status; --quiet leaves a sync that went well silent.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { runBuiltCli, runPiped, startBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import { waitFor } from '../helpers/wait-for';

const emulator = useEmulator({ imageSize: 32 });
afterEach(stopBuiltCli);

const KCOR_DAY = ['-i', 'kcor', '-p', 'pb', '-s', '2025-03-24', '-e', '2025-03-24T23:59:59', '--every', '3hours'];
const UCOMP_DAY = ['-i', 'ucomp', '-p', 'l2', '-s', '2025-03-24', '-e', '2025-03-24T23:59:59', '--every', '3hours', '--wave-region', '1074'];

async function mlsoDl(stateDir: string, ...args: string[]) {
  return runBuiltCli(['--base-url', emulator().url, ...args, '--state-dir', stateDir]);
}

/** A state folder with two campaigns, "corona" (KCor) and "lines" (UCoMP), each in a folder of its own. */
async function twoCampaigns(): Promise<{ state: string; folders: { corona: string; lines: string } }> {
  const state = await temporaryFolder();
  const parent = await temporaryFolder();
  const folders = { corona: path.join(parent, 'corona'), lines: path.join(parent, 'lines') };
  expect(await mlsoDl(state, 'campaign', 'create', 'corona', ...KCOR_DAY, '--output-dir', folders.corona)).toMatchObject({ status: 0 });
  expect(await mlsoDl(state, 'campaign', 'create', 'lines', ...UCOMP_DAY, '--output-dir', folders.lines)).toMatchObject({ status: 0 });
  return { state, folders };
}

describe('mlso-dl campaign sync for a nightly mirror, out of process', () => {
  it('--all syncs every campaign in turn, with one JSON object per line per campaign, and exits 0', { timeout: 60_000 }, async () => {
    const { state, folders } = await twoCampaigns();
    const run = await runPiped(['--base-url', emulator().url, 'campaign', 'sync', '--all', '-u', DEMO_EMAIL, '--json', '--state-dir', state], 'cat');
    expect(run.statuses).toEqual([0, 0]);
    const lines = run.output.toString().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const reports = lines.map((line) => JSON.parse(line) as { campaign: string; total: { listed: number; onDisk: number; failed: number } });
    expect(reports.map((report) => report.campaign)).toEqual(['corona', 'lines']);
    for (const report of reports) {
      expect(report.total.listed).toBeGreaterThan(0);
      expect(report.total).toMatchObject({ onDisk: report.total.listed, failed: 0 });
      expect(await readdir(folders[report.campaign as keyof typeof folders])).toHaveLength(report.total.listed);
    }
    expect(emulator().stats().downloadsStarted).toBe(reports[0]!.total.listed + reports[1]!.total.listed);
  });

  it('--all goes on past a campaign that fails, exits 1 and names it on stderr', { timeout: 60_000 }, async () => {
    const { state } = await twoCampaigns();
    const listing = await runPiped(['--base-url', emulator().url, 'files', ...KCOR_DAY, '--json'], 'cat');
    const first = (JSON.parse(listing.output.toString()) as { files: { filename: string }[] }).files[0]!.filename;
    emulator().injectFault(first, 'status-500', 5);
    const run = await mlsoDl(state, 'campaign', 'sync', '--all', '-u', DEMO_EMAIL, '--retries', '0');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`failed: ${first}`);
    expect(run.stderr).toContain('Synced "lines"');
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe('mlso-dl: 1 of 2 campaigns did not sync cleanly: "corona".');
  });

  it('a second sync while the first holds the state folder exits 75 at once with one line, and the first goes on', { timeout: 60_000 }, async () => {
    const { state, folders } = await twoCampaigns();
    // Files large enough to take a while at this rate (a body under 4 KB goes out in one paced write).
    emulator().setOptions({ imageSize: 256, bandwidthBytesPerSecond: 20_000 });
    const first = startBuiltCli(['--base-url', emulator().url, 'campaign', 'sync', 'corona', '-u', DEMO_EMAIL, '--state-dir', state]);
    await waitFor(async () => (await readdir(folders.corona).catch(() => [])).length > 0, 'the first sync to start writing');

    const second = await mlsoDl(state, 'campaign', 'sync', '--all', '-u', DEMO_EMAIL);
    expect(second.status).toBe(75);
    expect(second.stderr).toBe(
      `mlso-dl: Another MLSO Downloader (mlso-dl campaign sync, process ${first.child.pid}) is using the state folder ${state}. Add --wait to run once it has finished, or use another --state-dir.\n`,
    );
    emulator().setOptions({ bandwidthBytesPerSecond: 0 });
    expect(await first.exited).toBe(0);
  });

  it('--quiet prints nothing when the sync goes well, and only the errors when it does not', { timeout: 60_000 }, async () => {
    const { state } = await twoCampaigns();
    expect(await mlsoDl(state, '-q', 'campaign', 'sync', 'corona', '-u', DEMO_EMAIL)).toEqual({ status: 0, stdout: '', stderr: '' });

    const listing = await runPiped(['--base-url', emulator().url, 'files', ...UCOMP_DAY, '--json'], 'cat');
    const first = (JSON.parse(listing.output.toString()) as { files: { filename: string }[] }).files[0]!.filename;
    emulator().injectFault(first, 'status-500', 5);
    const failing = await mlsoDl(state, '-q', 'campaign', 'sync', '--all', '-u', DEMO_EMAIL, '--retries', '0');
    expect(failing.status).toBe(1);
    expect(failing.stdout).toBe('');
    expect(failing.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^failed: ${first.replaceAll('.', '\\.')}: `)),
      'mlso-dl: 1 of 2 campaigns did not sync cleanly: "lines".',
    ]);
  });

  it('asks for a name or --all, not both and not neither, in one line with status 2', async () => {
    const state = await temporaryFolder();
    for (const [args, message] of [
      [[], 'mlso-dl: Name the campaign to sync, or give --all to sync every campaign.\n'],
      [['corona', '--all'], "mlso-dl: Give a campaign's name or --all, not both.\n"],
    ] as const) {
      expect(await mlsoDl(state, 'campaign', 'sync', ...args, '-u', DEMO_EMAIL)).toEqual({ status: 2, stdout: '', stderr: message });
    }
  });
});
