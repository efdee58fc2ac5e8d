// A million-file campaign (issue 22 items 2, 3 and 8): six months of KCor pB every 2 s up to yesterday (UT), one
// open-ended query, the way a lab mirrors the archive. Three syncs, each a process of its own
// (campaign-million-probe.ts): the first into a paused queue (the enqueue's time and peak RSS; the downloads' outcome
// is then written into the ledger, see the probe), a second with nothing new (its time with the queue running, and
// the emulator's download counter), and one after the emulator has added today (the files fetched). The 10,000-file
// versions run in `npm test`: the first sync in test/core/campaigns/first-sync-many-files.test.ts, the second and the
// new day in test/core/campaigns/incremental-sync.test.ts.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './bench-context';
import type { CampaignProbeJob, CampaignProbeResult } from './campaign-million-probe';
import { emulatorCounters, resetEmulatorStats, startEmulator, stopEmulator, type EmulatorProcess } from './emulator-process';
import { MIB } from './scenario';
import { fixed, renderTable } from './text-table';
import { expectSuccess, runTimed } from './timed-process';

const DAY_MS = 24 * 60 * 60 * 1000;
const DAYS = 181;
const TARGETS = { firstSeconds: 30, firstPeakRssBytes: 300 * MIB, againSeconds: 10 };

interface SyncRow extends CampaignProbeResult {
  label: string;
  /** Downloads the emulator counted during the sync. */
  downloads: number;
  polledPeakRssBytes?: number;
}

export interface CampaignMillionResult {
  emulatorArgs: string[];
  rows: SyncRow[];
}

const dayOf = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 10);

export async function runCampaignMillion(ctx: BenchContext): Promise<CampaignMillionResult> {
  const lastDay = dayOf(Date.now() - DAY_MS);
  const emulatorArgs = ['--cadence', '2', '--days', String(DAYS), '--last-day', lastDay, '--image-size', '8'];
  const emulator = await startEmulator(ctx.emulatorBin, emulatorArgs);
  const runDir = path.join(ctx.workDir, 'campaign-million');
  try {
    await rm(runDir, { recursive: true, force: true });
    await mkdir(runDir, { recursive: true });
    const base = {
      baseUrl: emulator.url,
      stateDir: path.join(runDir, 'state'),
      folder: path.join(runDir, 'mirror'),
      startDate: dayOf(Date.now() - DAYS * DAY_MS),
    };
    // Built before the measured runs: the emulator makes its catalogue on the first listing.
    const warm = await fetch(`${emulator.url}/v1/instruments/kcor/products/pb/files/?start-date=${lastDay}&end-date=${lastDay}`);
    await warm.arrayBuffer();
    const rows: SyncRow[] = [];
    rows.push(await measuredSync(ctx, emulator, runDir, { ...base, phase: 'first' }, 'first sync (into a paused queue: the enqueue)'));
    rows.push(await measuredSync(ctx, emulator, runDir, { ...base, phase: 'again' }, 'second sync, nothing new (queue running)'));
    // The archive adds today: the emulator's days are the same ones and one more (its catalogue of a day depends only
    // on the seed and the day).
    await setEmulatorDays(emulator, dayOf(Date.now()), DAYS + 1);
    rows.push(await measuredSync(ctx, emulator, runDir, { ...base, phase: 'again' }, 'sync after one new day (queue running)'));
    return { emulatorArgs, rows };
  } finally {
    await stopEmulator(emulator);
    await rm(runDir, { recursive: true, force: true });
  }
}

async function measuredSync(ctx: BenchContext, emulator: EmulatorProcess, runDir: string, job: CampaignProbeJob, label: string): Promise<SyncRow> {
  await resetEmulatorStats(emulator);
  const jobFile = path.join(runDir, 'job.json');
  await writeFile(jobFile, JSON.stringify(job));
  const timed = expectSuccess(await runTimed(process.execPath, [probeBundle(), jobFile], { timeoutMs: 20 * 60_000 }));
  const result = JSON.parse(timed.stdout) as CampaignProbeResult;
  const { downloadsStarted } = await emulatorCounters(emulator);
  const row: SyncRow = {
    ...result,
    label,
    downloads: downloadsStarted,
    ...(timed.peakRssBytes !== undefined ? { polledPeakRssBytes: timed.peakRssBytes } : {}),
  };
  ctx.progress.step(
    `  ${label}: ${result.listed} listed (${result.new} new) in ${result.seconds.toFixed(2)} s (CPU ${result.cpuSeconds.toFixed(2)} s), peak RSS ${(peakRss(row) / MIB).toFixed(0)} MiB, windows ${result.windows.listed} listed / ${result.windows.settled} settled, ${downloadsStarted} downloads`,
  );
  return row;
}

/** The probe's bundle, built beside this one (scripts/build-bench.mjs). */
function probeBundle(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), 'campaign-million-probe.js');
}

async function setEmulatorDays(emulator: EmulatorProcess, lastDay: string, days: number): Promise<void> {
  const response = await fetch(`${emulator.url}/__emulator/options`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ lastDay, days }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`POST /__emulator/options answered ${response.status}`);
}

/**
 * The probe's own peak RSS when the sync ended (VmHWM, ownPeakRssBytes): the first probe goes on to write the downloads' outcome
 * into the ledger, which the peak polled from outside (kept in the raw results) would count too.
 */
const peakRss = (row: SyncRow): number => row.peakRssBytes;

export function campaignMillionTable(result: CampaignMillionResult): string {
  const rows = result.rows.map((row) => [
    row.label,
    fixed(row.listed, 0),
    fixed(row.new, 0),
    `${row.windows.listed} / ${row.windows.settled}`,
    fixed(row.seconds, 2),
    fixed(row.cpuSeconds, 2),
    fixed(peakRss(row) / MIB, 0),
    fixed(row.downloads, 0),
    fixed(row.onDisk, 0),
  ]);
  return [
    `A million-file campaign: KCor pB from ${DAYS} days ago, open-ended, emulator ${result.emulatorArgs.join(' ')} (one run)`,
    renderTable(['sync', 'listed', 'new', 'windows listed / settled', 'seconds', 'CPU s', 'peak RSS MiB', 'downloads', 'files done'], rows),
  ].join('\n');
}

export function campaignMillionTargetLines(result: CampaignMillionResult): string[] {
  const [first, again, newDay] = result.rows;
  if (!first || !again || !newDay) return ['campaign-million: did not run'];
  return [
    `campaign first sync (enqueue of ${first.listed} files): target <= ${TARGETS.firstSeconds} s / <= ${TARGETS.firstPeakRssBytes / MIB} MiB; measured ${first.seconds.toFixed(1)} s / ${(peakRss(first) / MIB).toFixed(0)} MiB`,
    `campaign second sync, nothing new: target <= ${TARGETS.againSeconds} s / 0 downloads; measured ${again.seconds.toFixed(1)} s / ${again.downloads} downloads`,
    `campaign sync after one new day: lists ${newDay.windows.listed} window(s), fetches the day's ${newDay.new} files: measured ${newDay.seconds.toFixed(1)} s / ${newDay.downloads} downloads`,
  ];
}
