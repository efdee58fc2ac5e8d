// `mlso-dl campaign sync` lists again only what can still change (issue 22, item 2), the way a nightly mirror runs
// it: the built mlso-dl as a child process, --json through a real pipe, --verbose naming every request on stderr.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { runBuiltCli, runPiped, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 10);
// Seventy days of KCor ending yesterday, a file every quarter of an hour: about a thousand files over three or four
// months, of which only the last (or the last two, early in a month) can still change.
const LAST_DAY = dayOf(Date.now() - DAY_MS);
const DAYS = 70;
const FIRST_DAY = dayOf(Date.now() - DAYS * DAY_MS);

const emulator = useEmulator({ imageSize: 32, lastDay: LAST_DAY, days: DAYS, cadenceSeconds: 900, zeroFilesizeRate: 0 });
afterEach(stopBuiltCli);

/**
 * The month windows from FIRST_DAY to now, those still unsettled after 7 days for a listing made at `at`, and the
 * first instant of the earliest of those.
 */
function windows(at: number): { all: number; unsettled: number; unsettledFrom: number } {
  let all = 0;
  let unsettled = 0;
  let unsettledFrom = Number.POSITIVE_INFINITY;
  const first = new Date(`${FIRST_DAY}T00:00:00Z`);
  for (let month = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1); month <= Date.now(); all += 1) {
    const start = new Date(month);
    const end = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
    if (at < end + 7 * DAY_MS) {
      unsettled += 1;
      unsettledFrom = Math.min(unsettledFrom, month);
    }
    month = end;
  }
  return { all, unsettled, unsettledFrom };
}

async function sync(state: string, ...options: string[]) {
  const run = await runBuiltCli([
    '--base-url',
    emulator().url,
    '--verbose',
    'campaign',
    'sync',
    'mirror',
    '-u',
    DEMO_EMAIL,
    '--json',
    '--state-dir',
    state,
    ...options,
  ]);
  expect(run.status, run.stderr).toBe(0);
  // --verbose names each listing request (the files endpoint) on stderr.
  const urls = run.stderr.split('\n').filter((line) => /\/files\/?\?/.test(line));
  // Where each listing began (its start-date, which a window sends one second before its first instant).
  const starts = urls.map((url) => Date.parse(`${new URL(url.replace(/^GET /, '')).searchParams.get('start-date')!.slice(0, 19)}Z`) + 1000);
  return { report: JSON.parse(run.stdout), listings: urls.length, starts };
}

describe('mlso-dl campaign sync, incremental, out of process', () => {
  it('lists only the windows that can still change and downloads nothing; --full and --settle-days list every window', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'mirror');
    const created = await runBuiltCli([
      '--base-url',
      emulator().url,
      'campaign',
      'create',
      'mirror',
      '-i',
      'kcor',
      '-p',
      'pb',
      '-s',
      FIRST_DAY,
      '--output-dir',
      folder,
      '--state-dir',
      state,
    ]);
    expect(created.status, created.stderr).toBe(0);

    const first = await runPiped(['--base-url', emulator().url, 'campaign', 'sync', 'mirror', '-u', DEMO_EMAIL, '--json', '--state-dir', state], 'cat');
    expect(first.statuses).toEqual([0, 0]);
    const total = JSON.parse(first.output.toString()).total;
    expect(total.listed).toBeGreaterThan(500);
    expect(total).toMatchObject({ new: total.listed, onDisk: total.listed, queued: 0, failed: 0, missing: 0 });
    const { all, unsettled, unsettledFrom } = windows(Date.now());
    expect(all).toBeGreaterThan(unsettled);

    emulator().resetStats();
    const second = await sync(state);
    expect(second.listings).toBe(unsettled);
    // None of them reaches back into a settled month.
    expect(second.starts.filter((start) => start < unsettledFrom)).toEqual([]);
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(second.report.total).toMatchObject({ new: 0, onDisk: total.listed, queued: 0, missing: 0 });

    const full = await sync(state, '--full');
    expect(full.listings).toBe(all);
    expect(full.report.total).toMatchObject({ listed: total.listed, new: 0, onDisk: total.listed });
    const longSettling = await sync(state, '--settle-days', '3650');
    expect(longSettling.listings).toBe(all);
    expect(emulator().stats().downloadsStarted).toBe(0);

    const wrong = await runBuiltCli(['campaign', 'sync', 'mirror', '-u', DEMO_EMAIL, '--settle-days', 'soon', '--state-dir', state]);
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr).toContain('Use a whole number from 0 to 3650.');
  });
});
