// The 100,000-file listing written through a pipe: wall time and peak RSS of `mlso-dl files`, its JSON and its
// table, into a real pipe read by `wc -c` (the way `mlso-dl files ... | jq` or `| less` runs), against the
// emulator in its own process with one KCor pB file a second over nine observing days. Then the million-entry
// listing (issue 22): six months of KCor pB every 2 s, more than one answer may hold under the 256 MB listing limit,
// which mlso-dl asks for by calendar month (listing-windows.ts) and writes as one listing.
import type { BenchContext } from './bench-context';
import { startEmulator, stopEmulator } from './emulator-process';
import { median } from './samples';
import { MIB } from './scenario';
import { fixed, renderTable } from './text-table';
import { expectSuccess, runTimed } from './timed-process';

export const LISTING = {
  emulatorArgs: ['--cadence', '1', '--days', '9', '--image-size', '8'],
  query: ['-i', 'kcor', '-p', 'pb', '-s', '2025-03-16'],
  /** Issue 8's target for both forms: the listing is streamed, never held whole. */
  peakRssBytes: 150 * MIB,
} as const;

/** Some 1,030,000 entries over six months: the windowed listing (issue 22 item 1). */
const MILLION_LISTING = {
  emulatorArgs: ['--cadence', '2', '--days', '181', '--image-size', '8'],
  query: ['-i', 'kcor', '-p', 'pb', '-s', '2024-09-24', '-e', '2025-03-25'],
} as const;

const FORMS = [
  { label: 'files --json', args: ['--json'] },
  { label: 'files (table)', args: [] },
] as const;

/**
 * bash replaces itself with mlso-dl (exec), so the measured process, and the pid whose memory is polled, is
 * mlso-dl's own; its stdout is a real pipe into `wc -c`, whose count is what the benchmark reads back.
 */
const THROUGH_A_PIPE = 'exec "$@" > >(exec wc -c)';

interface ListingSample {
  wallSeconds: number;
  peakRssBytes?: number;
  /** Bytes that came out of the pipe. */
  outputBytes: number;
}

interface ListingRow {
  label: string;
  args: string[];
  samples: ListingSample[];
}

export interface ListingResult {
  emulatorArgs: string[];
  query: string[];
  /** Entries and bytes of the listing as the emulator serves it. */
  entries: number;
  listingBytes: number;
  rows: ListingRow[];
  /** The same forms over the million-entry listing, listed in windows. */
  million?: { emulatorArgs: string[]; query: string[]; rows: ListingRow[] };
}

export async function runListingBenchmark(ctx: BenchContext): Promise<ListingResult> {
  const emulator = await startEmulator(ctx.emulatorBin, [...LISTING.emulatorArgs]);
  try {
    // Fetched once before the measured runs: the emulator builds its catalogue then, and the table can say what was listed.
    const served = await fetch(`${emulator.url}/v1/instruments/kcor/products/pb/files?start-date=2025-03-16`);
    if (!served.ok) throw new Error(`the emulator answered ${served.status} for the listing`);
    const text = await served.text();
    const entries = (JSON.parse(text) as { files: unknown[] }).files.length;
    const rows: ListingRow[] = FORMS.map((form) => ({ label: form.label, args: [...form.args], samples: [] }));
    for (let run = 1; run <= ctx.options.runs; run += 1) {
      for (const row of rows) {
        const args = [process.execPath, ctx.cli.binPath, '--base-url', emulator.url, '-q', 'files', ...LISTING.query, ...row.args];
        const timed = expectSuccess(await runTimed('bash', ['-c', THROUGH_A_PIPE, 'bash', ...args], { timeoutMs: 5 * 60_000 }));
        const outputBytes = Number(timed.stdout.trim());
        if (!(outputBytes > 0)) throw new Error(`mlso-dl ${row.label} wrote nothing into the pipe (wc -c said "${timed.stdout.trim()}")`);
        row.samples.push({ wallSeconds: timed.wallSeconds, peakRssBytes: timed.peakRssBytes, outputBytes });
        const rss = timed.peakRssBytes === undefined ? '-' : (timed.peakRssBytes / MIB).toFixed(0);
        ctx.progress.step(
          `  ${row.label} | wc -c (run ${run}): ${(outputBytes / MIB).toFixed(1)} MiB out, wall ${timed.wallSeconds.toFixed(2)} s, peak RSS ${rss} MiB`,
        );
      }
    }
    const million = await runMillionListing(ctx);
    return { emulatorArgs: [...LISTING.emulatorArgs], query: [...LISTING.query], entries, listingBytes: Buffer.byteLength(text), rows, million };
  } finally {
    await stopEmulator(emulator);
  }
}

async function runMillionListing(ctx: BenchContext): Promise<NonNullable<ListingResult['million']>> {
  const emulator = await startEmulator(ctx.emulatorBin, [...MILLION_LISTING.emulatorArgs]);
  try {
    const rows: ListingRow[] = FORMS.map((form) => ({ label: form.label, args: [...form.args], samples: [] }));
    for (const row of rows) {
      const args = [process.execPath, ctx.cli.binPath, '--base-url', emulator.url, '-q', 'files', ...MILLION_LISTING.query, ...row.args];
      const timed = expectSuccess(await runTimed('bash', ['-c', THROUGH_A_PIPE, 'bash', ...args], { timeoutMs: 10 * 60_000 }));
      const outputBytes = Number(timed.stdout.trim());
      row.samples.push({ wallSeconds: timed.wallSeconds, peakRssBytes: timed.peakRssBytes, outputBytes });
      const rss = timed.peakRssBytes === undefined ? '-' : (timed.peakRssBytes / MIB).toFixed(0);
      ctx.progress.step(`  1M ${row.label} | wc -c: ${(outputBytes / MIB).toFixed(1)} MiB out, wall ${timed.wallSeconds.toFixed(2)} s, peak RSS ${rss} MiB`);
    }
    return { emulatorArgs: [...MILLION_LISTING.emulatorArgs], query: [...MILLION_LISTING.query], rows };
  } finally {
    await stopEmulator(emulator);
  }
}

const medianRss = (row: ListingRow): number | undefined =>
  median(row.samples.flatMap((sample) => (sample.peakRssBytes === undefined ? [] : [sample.peakRssBytes])));

/** A row's label, output, wall time and peak RSS (medians). */
function measuredCells(row: ListingRow): string[] {
  const rss = medianRss(row);
  return [
    row.label,
    fixed(median(row.samples.map((sample) => sample.outputBytes / MIB)), 1),
    fixed(median(row.samples.map((sample) => sample.wallSeconds)), 2),
    fixed(rss === undefined ? undefined : rss / MIB, 0),
  ];
}

export function listingTable(result: ListingResult, runs: number): string {
  const target = LISTING.peakRssBytes / MIB;
  const rows = result.rows.map((row) => {
    const rss = medianRss(row);
    return [...measuredCells(row), `<= ${target}`, rss === undefined ? '-' : verdict(rss <= LISTING.peakRssBytes)];
  });
  return [
    `Listing through a pipe: mlso-dl files ${result.query.join(' ')} | wc -c, ${result.entries} entries ` +
      `(${(result.listingBytes / MIB).toFixed(1)} MiB of JSON as served), emulator ${result.emulatorArgs.join(' ')}${runs > 1 ? `, median of ${runs} runs` : ''}`,
    '',
    renderTable(['run', 'output MB', 'wall s', 'peak RSS MB', 'target MB', 'RSS target'], rows),
    '',
    'MB = MiB. wall s: process start to exit, Node start included (as a user runs it). peak RSS: mlso-dl alone (VmHWM).',
    ...millionLines(result),
  ].join('\n');
}

/** The million-entry listing, one run of each form: listed in month windows, written as one listing. */
function millionLines(result: ListingResult): string[] {
  const million = result.million;
  if (!million) return [];
  const rows = million.rows.map(measuredCells);
  return [
    '',
    `Million-entry listing in month windows: mlso-dl files ${million.query.join(' ')} | wc -c, emulator ${million.emulatorArgs.join(' ')} (one answer would pass the 256 MB listing limit)`,
    '',
    renderTable(['run', 'output MB', 'wall s', 'peak RSS MB'], rows),
  ];
}

/** The targets, judged from the medians: printed for a reader, never turned into a failure. */
export function listingTargetLines(result: ListingResult): string[] {
  return result.rows.map((row) => {
    const rss = medianRss(row);
    const shown = rss === undefined ? 'unknown' : `${(rss / MIB).toFixed(0)} MiB`;
    return `mlso-dl ${row.label} peak RSS over ${result.entries} entries: ${shown} (target <= ${LISTING.peakRssBytes / MIB} MiB): ${rss === undefined ? 'not measured' : verdict(rss <= LISTING.peakRssBytes)}`;
  });
}

const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');
