// Turns the results into the printed tables, footnotes and target lines. Every column is a median over the
// runs; rates are computed per run first, then their median taken.
import { fixed, renderTable } from './text-table';
import { NODE_FLOOR_LABEL, SHELL_WAY_LABEL } from './baselines';
import { median, medianOf, type Sample } from './samples';
import type { BenchResults, RowResult, ScenarioResult } from './results';
import { BANDWIDTH_BYTES_PER_SECOND, LATENCY_SECONDS, MIB, TARGETS } from './scenario';

const GIB = 1024 * MIB;

const perSecond = (bytes: number | undefined, seconds: number): number | undefined => (bytes === undefined || seconds <= 0 ? undefined : bytes / MIB / seconds);

interface Markers {
  concurrencyIgnored: boolean;
  batchIsWall: boolean;
}

function rowCells(row: RowResult, markers: Markers): { cells: string[]; batch?: number } {
  const s = row.samples;
  const batch = medianOf(s, (x) => x.batchSeconds);
  const wallBatch = s.some((x) => x.batchSource === 'wall');
  if (!row.concurrencyApplied) markers.concurrencyIgnored = true;
  if (wallBatch) markers.batchIsWall = true;
  const cells = [
    row.label,
    `${row.concurrency}${row.concurrencyApplied ? '' : '*'}`,
    fixed(
      medianOf(s, (x) => x.files),
      0,
    ),
    fixed(
      medianOf(s, (x) => x.wallSeconds),
      2,
    ),
    `${fixed(batch, 2)}${wallBatch ? '~' : ''}`,
    fixed(
      medianOf(s, (x) => perSecond(x.wireBytes, x.batchSeconds)),
      1,
    ),
    fixed(
      medianOf(s, (x) => perSecond(x.fitsBytes, x.batchSeconds)),
      1,
    ),
    fixed(
      medianOf(s, (x) => (x.peakRssBytes === undefined ? undefined : x.peakRssBytes / MIB)),
      0,
    ),
    fixed(
      medianOf(s, (x) => x.peakActiveDownloads),
      0,
    ),
  ];
  return { cells, batch };
}

export function batchTable(scenario: ScenarioResult, runs: number): string {
  const markers: Markers = { concurrencyIgnored: false, batchIsWall: false };
  const header = ['run', 'conc', 'files', 'wall s', 'batch s', 'MB/s wire', 'MB/s FITS', 'peak RSS MB', 'conns', 'link limit s', 'batch/limit'];
  const rows = scenario.rows.map((row) => {
    const { cells, batch } = rowCells(row, markers);
    const limit = row.linkLimitSeconds;
    return [...cells, fixed(limit, 2), fixed(batch !== undefined && limit ? batch / limit : undefined, 2)];
  });
  const mean = scenario.wireMeanBytes === undefined ? '-' : (scenario.wireMeanBytes / MIB).toFixed(3);
  return [
    `${scenario.title}: ${scenario.query.instrument} ${scenario.query.product} ${scenario.query.start}..${scenario.query.end}, ` +
      `emulator ${scenario.emulatorArgs.join(' ')}${runs > 1 ? `, median of ${runs} runs` : ''}`,
    '',
    renderTable(header, rows),
    '',
    `MB = MiB (2^20 bytes) in every column, as the emulator reads 25MB/s. Mean gzip body, measured: ${mean} MiB.`,
    `link limit = ceil(files/conc) x (${LATENCY_SECONDS * 1000} ms + mean body / ${BANDWIDTH_BYTES_PER_SECOND / MIB} MiB/s).`,
    ...commonFootnotes(markers),
  ].join('\n');
}

export function bigTable(scenarios: readonly ScenarioResult[], runs: number): string {
  const markers: Markers = { concurrencyIgnored: false, batchIsWall: false };
  const header = ['run', 'conc', 'files', 'wall s', 'batch s', 'MB/s wire', 'MB/s FITS', 'peak RSS MB', 'conns', 'MiB/file'];
  const lines: string[] = [];
  const rows: string[][] = [];
  for (const scenario of scenarios) {
    lines.push(`${scenario.title}: ${scenario.query.instrument} ${scenario.query.product} ${scenario.query.start}..${scenario.query.end}`);
    for (const row of scenario.rows) {
      const { cells } = rowCells(row, markers);
      const fitsPerFile = medianOf(row.samples, (x) => (x.fitsBytes === undefined ? undefined : x.fitsBytes / x.files / MIB));
      const wirePerFile = medianOf(row.samples, (x) => (x.wireBytes === undefined ? undefined : x.wireBytes / x.files / MIB));
      rows.push([...cells, `${fixed(fitsPerFile ?? wirePerFile, 1)}${fitsPerFile === undefined ? ' gz' : ''}`]);
    }
  }
  return [
    ...lines.map((line, i) => `${i === 0 ? '' : 'then '}${line}`),
    `emulator ${scenarios[0]?.emulatorArgs.join(' ') ?? ''}${runs > 1 ? `, median of ${runs} runs` : ''}`,
    '',
    renderTable(header, rows),
    '',
    'MB = MiB. MiB/file: decompressed FITS for mlso-dl, the gzip body for the baseline.',
    ...commonFootnotes(markers),
  ].join('\n');
}

function commonFootnotes(markers: Markers): string[] {
  const notes = ['wall s: process start to exit. batch s: first file request to last file finished. conns: most downloads the emulator served at once.'];
  if (markers.concurrencyIgnored) notes.push('* this mlso-dl has no --concurrency flag yet: it ran with its own (sequential) behaviour.');
  if (markers.batchIsWall) {
    notes.push('~ the program reports no batch time, so batch s is its process wall time: aria2c and curl start in milliseconds;');
    notes.push('  an mlso-dl without stats.batchSeconds also counts Node start, listing and sign-in.');
  }
  return notes;
}

/** Rows of the end-to-end comparison: mlso-dl at concurrency 8 and the baselines, by their label in the batch table. */
const END_TO_END_ROWS: readonly { label: string; concurrency?: number; shown: string }[] = [
  { label: 'mlso-dl', concurrency: 8, shown: 'mlso-dl files --download --concurrency 8' },
  { label: 'aria2c (baseline)', shown: 'aria2c -j8 on a prepared URL list' },
  { label: NODE_FLOOR_LABEL, shown: NODE_FLOOR_LABEL },
  { label: 'aria2c + gzip -d (baseline)', shown: 'aria2c -j8, then gzip -d' },
];

const findRow = (scenario: ScenarioResult, label: string, concurrency?: number): RowResult | undefined =>
  scenario.rows.find((row) => row.label === label && (concurrency === undefined || row.concurrency === concurrency));

/**
 * One field of a row over the same field of another row, per repetition (the two ran in the same round, so drift
 * of the shared machine falls on both), then the median of those ratios.
 */
function ratioTo(
  scenario: ScenarioResult,
  row: RowResult,
  label: string,
  pick: (sample: Sample) => number | undefined = (x) => x.wallSeconds,
): number | undefined {
  const reference = findRow(scenario, label);
  if (!reference) return undefined;
  const ratios = row.samples.flatMap((sample, run) => {
    const mine = pick(sample);
    const theirs = reference.samples[run] && pick(reference.samples[run]);
    return mine !== undefined && theirs ? [mine / theirs] : [];
  });
  return median(ratios);
}

const ratioToAria2c = (scenario: ScenarioResult, row: RowResult): number | undefined => ratioTo(scenario, row, 'aria2c (baseline)');

/** CPU seconds (the whole process tree's user + system) per GiB of FITS written. */
const cpuPerGib = (sample: Sample): number | undefined =>
  sample.cpuSeconds === undefined || !sample.fitsBytes ? undefined : sample.cpuSeconds / (sample.fitsBytes / GIB);

/** Rows of the comparison with the floor: mlso-dl at concurrency 8, the plain-Node floor and the shell way. */
const FLOOR_ROWS: readonly { label: string; concurrency?: number; shown: string; short: string }[] = [
  { label: 'mlso-dl', concurrency: 8, shown: 'mlso-dl files --download --concurrency 8', short: 'mlso-dl c=8' },
  { label: NODE_FLOOR_LABEL, shown: 'node GET+gunzip+SHA-256+fsync (the floor)', short: 'the Node floor' },
  { label: SHELL_WAY_LABEL, shown: SHELL_WAY_LABEL, short: 'the shell way' },
];

/**
 * The same FITS files delivered three ways, by wall time and by CPU time (user + system of every process each way
 * ran, which is steadier than wall time on a shared machine): what mlso-dl costs above the least Node can do.
 */
export function floorTable(scenario: ScenarioResult, runs: number): string {
  const rows = FLOOR_ROWS.flatMap(({ label, concurrency, shown }) => {
    const row = findRow(scenario, label, concurrency);
    if (!row) return [];
    const ratio = (other: string, pick?: (sample: Sample) => number | undefined): string => {
      const value = label === other ? 1 : ratioTo(scenario, row, other, pick);
      return value === undefined ? '-' : `${value.toFixed(2)}x`;
    };
    const cpu = (x: Sample): number | undefined => x.cpuSeconds;
    return [
      [
        shown,
        fixed(
          medianOf(row.samples, (x) => x.wallSeconds),
          2,
        ),
        fixed(
          medianOf(row.samples, (x) => x.batchSeconds),
          2,
        ),
        fixed(medianOf(row.samples, cpu), 2),
        fixed(medianOf(row.samples, cpuPerGib), 2),
        ratio(NODE_FLOOR_LABEL),
        ratio(NODE_FLOOR_LABEL, cpu),
        ratio(SHELL_WAY_LABEL),
        ratio(SHELL_WAY_LABEL, cpu),
      ],
    ];
  });
  if (rows.length === 0) return '';
  return [
    `The same FITS files three ways: wall and CPU time of the whole process tree${runs > 1 ? `, median of ${runs} runs` : ''}`,
    '',
    renderTable(['run', 'wall s', 'batch s', 'CPU s', 'CPU s/GiB', 'wall x floor', 'CPU x floor', 'wall x shell', 'CPU x shell'], rows),
    '',
    'CPU s: user + system seconds of every process the run started (aria2c, each gzip, sha256sum and shell, sync),',
    "  read from the benchmark's own count of its finished children. CPU s/GiB: per GiB of FITS written.",
    'batch s: first request to last file; wall s - batch s is start-up, sign-in and listing (mlso-dl) or process start.',
    'x floor, x shell: medians of the ratios of runs made in the same round.',
  ].join('\n');
}

/** The end-to-end row next to the batch table: wall time of the whole process, start-up to exit, against aria2c's. */
export function endToEndTable(scenario: ScenarioResult, runs: number): string {
  const rows = END_TO_END_ROWS.flatMap(({ label, concurrency, shown }) => {
    const row = findRow(scenario, label, concurrency);
    if (!row) return [];
    const ratio = ratioToAria2c(scenario, row);
    const target = label === 'mlso-dl' ? `<= ${TARGETS.endToEndOverAria2c.toFixed(2)}x` : '';
    return [
      [
        shown,
        fixed(
          medianOf(row.samples, (x) => x.wallSeconds),
          2,
        ),
        ratio === undefined ? '-' : `${ratio.toFixed(2)}x`,
        target,
      ],
    ];
  });
  return [
    `End to end, the whole process from start to exit (mlso-dl: start-up, sign-in, listing, download, gunzip, SHA-256, fsync)${runs > 1 ? `, median of ${runs} runs` : ''}`,
    '',
    renderTable(['run', 'wall s', 'x aria2c', 'target'], rows),
    '',
    'aria2c gets a URL list and a session cookie made before it starts; x aria2c is the median of the ratios of runs made in the same round.',
    `The floor does mlso-dl's least work with that same head start, in plain Node: what remains above it is mlso-dl's own.`,
  ].join('\n');
}

/** The targets, judged from the medians: printed for a reader, never turned into a failure. */
export function targetLines(results: BenchResults): string[] {
  const lines: string[] = [];
  const batch = results.batch;
  const cliAt = (c: number): RowResult | undefined => batch?.rows.find((row) => row.label === 'mlso-dl' && row.concurrency === c);
  const eight = cliAt(8);
  const eightBatch = eight && medianOf(eight.samples, (x) => x.batchSeconds);
  if (eight && eightBatch !== undefined && eight.linkLimitSeconds) {
    const ratio = eightBatch / eight.linkLimitSeconds;
    lines.push(
      `mlso-dl c=8 batch / link limit: ${ratio.toFixed(2)} (target <= ${TARGETS.batchOverLinkLimitAtEight.toFixed(2)}): ${verdict(ratio <= TARGETS.batchOverLinkLimitAtEight)}`,
    );
    for (const row of batch!.rows.filter((r) => r.label !== 'mlso-dl')) {
      const other = medianOf(row.samples, (x) => x.batchSeconds);
      if (other === undefined) continue;
      lines.push(
        `mlso-dl c=8 vs ${row.label}: ${eightBatch.toFixed(2)} s vs ${other.toFixed(2)} s (${(eightBatch / other).toFixed(2)}x, target <= 1.00x): ${verdict(eightBatch <= other)}`,
      );
    }
  }
  if (eight && batch) for (const line of floorTargetLines(batch, eight)) lines.push(line);
  const endToEnd = eight && batch && ratioToAria2c(batch, eight);
  if (endToEnd !== undefined) {
    lines.push(
      `mlso-dl c=8 end to end / aria2c -j8 wall: ${endToEnd.toFixed(2)}x (target <= ${TARGETS.endToEndOverAria2c.toFixed(2)}x): ${verdict(endToEnd <= TARGETS.endToEndOverAria2c)}`,
    );
  }
  const cliSamples: Sample[] = [results.batch, results.big, results.bigBatch].flatMap(
    (scenario) => scenario?.rows.filter((row) => row.label === 'mlso-dl').flatMap((row) => row.samples) ?? [],
  );
  const peaks = cliSamples.map((x) => x.peakRssBytes).filter((x): x is number => x !== undefined);
  if (peaks.length > 0) {
    const worst = peaks.reduce((a, b) => Math.max(a, b));
    lines.push(
      `mlso-dl peak RSS, highest of all runs: ${(worst / MIB).toFixed(0)} MiB (target < ${TARGETS.peakRssBytes / MIB} MiB): ${verdict(worst < TARGETS.peakRssBytes)}`,
    );
  }
  return lines;
}

/** Issue 22 item 6: mlso-dl against the plain-Node floor and the shell way, wall time; CPU time per GiB beside. */
function floorTargetLines(batch: ScenarioResult, eight: RowResult): string[] {
  const lines: string[] = [];
  const judged = [
    { label: NODE_FLOOR_LABEL, shown: 'the Node floor', target: TARGETS.overNodeFloor },
    { label: SHELL_WAY_LABEL, shown: 'the shell way (aria2c, gzip -dc + sha256sum, sync)', target: TARGETS.overShellWay },
  ];
  for (const { label, shown, target } of judged) {
    const wall = ratioTo(batch, eight, label);
    if (wall === undefined) continue;
    const cpu = ratioTo(batch, eight, label, (x) => x.cpuSeconds);
    const cpuNote = cpu === undefined ? '' : ` (CPU time ${cpu.toFixed(2)}x)`;
    lines.push(`mlso-dl c=8 whole process / ${shown}, wall: ${wall.toFixed(2)}x${cpuNote} (target <= ${target.toFixed(2)}x): ${verdict(wall <= target)}`);
  }
  const perGib = FLOOR_ROWS.flatMap(({ label, concurrency, short }) => {
    const row = findRow(batch, label, concurrency);
    const value = row && medianOf(row.samples, cpuPerGib);
    return value === undefined ? [] : [`${short} ${value.toFixed(2)}`];
  });
  if (perGib.length > 0) lines.push(`CPU seconds per GiB of FITS written: ${perGib.join('; ')}`);
  return lines;
}

const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');
