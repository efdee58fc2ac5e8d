// One measured run of mlso-dl or of a baseline against a running emulator: fresh folders, the emulator's
// counters reset, the process timed from outside, the folder checked, then the downloads deleted again.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { emulatorCounters, resetEmulatorStats, type EmulatorProcess } from './emulator-process';
import { checkFitsFolder, checkGzipFolder } from './folder-checks';
import { savedName, type Baseline } from './baselines';
import type { ListedFile } from './cli-summaries';
import type { FileQuery, MlsoDlCli } from './mlso-dl-cli';
import type { Sample } from './samples';

/** What is being fetched, from where, and what is known about it. */
export interface Workload {
  emulator: EmulatorProcess;
  query: FileQuery;
  files: readonly ListedFile[];
  /** Gzip body bytes per listed name, once measured (undefined for streamed big files before the first baseline). */
  wireBytes?: ReadonlyMap<string, number>;
  /** Smallest acceptable decompressed size of each file. */
  minFitsBytes: number;
  /** Parent of the runs' temporary folders. */
  workDir: string;
}

async function freshFolder(parent: string, name: string): Promise<string> {
  const folder = path.join(parent, name);
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  return folder;
}

export async function measureCli(cli: MlsoDlCli, work: Workload, concurrency: number, runName: string): Promise<Sample> {
  const runDir = await freshFolder(work.workDir, runName);
  try {
    const outputDir = await freshFolder(runDir, 'out');
    // A fresh state folder too: a ledger from an earlier run would turn downloads into skips.
    const stateDir = await freshFolder(runDir, 'state');
    await resetEmulatorStats(work.emulator);
    const { run, summary } = await cli.download(work.emulator.url, work.query, { outputDir, stateDir, concurrency });
    const counters = await emulatorCounters(work.emulator);
    const expected = work.files.length;
    if (summary.failed.length > 0 || summary.skipped.length > 0 || summary.downloaded.length !== expected) {
      const firstFailure = summary.failed[0];
      throw new Error(
        `mlso-dl (${runName}) downloaded ${summary.downloaded.length} of ${expected} files, skipped ${summary.skipped.length}, failed ${summary.failed.length}` +
          (firstFailure ? ` (first: ${firstFailure.filename}: ${firstFailure.reason})` : ''),
      );
    }
    const folder = await checkFitsFolder(
      outputDir,
      work.files.map((file) => file.filename),
      work.minFitsBytes,
    );
    const measuredWire = work.wireBytes ? sumOf(work.files.map((file) => work.wireBytes!.get(file.filename))) : undefined;
    const wireBytes = summary.stats?.bytesReceived ?? measuredWire;
    return {
      wallSeconds: run.wallSeconds,
      batchSeconds: summary.stats?.batchSeconds ?? run.wallSeconds,
      batchSource: summary.stats ? 'cli-stats' : 'wall',
      files: folder.files,
      wireBytes,
      wireSource: summary.stats ? 'cli-stats' : 'measured',
      fitsBytes: folder.totalBytes,
      peakRssBytes: run.peakRssBytes,
      ...(run.cpuSeconds !== undefined ? { cpuSeconds: run.cpuSeconds } : {}),
      peakActiveDownloads: counters.peakActiveDownloads,
      leftovers: folder.leftovers,
    };
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

/** Runs a baseline; also returns the body size of each file it saved (the wire sizes of streamed files). */
export async function measureBaseline(
  baseline: Baseline,
  work: Workload,
  concurrency: number,
  runName: string,
  cookie: string,
): Promise<{ sample: Sample; wireBytes: Map<string, number> }> {
  const runDir = await freshFolder(work.workDir, runName);
  try {
    const outputDir = await freshFolder(runDir, 'out');
    const scratchDir = await freshFolder(runDir, 'scratch');
    await resetEmulatorStats(work.emulator);
    const { run, batchSeconds } = await baseline.run({ files: work.files, cookie, concurrency, outputDir, scratchDir });
    const counters = await emulatorCounters(work.emulator);
    const common = {
      wallSeconds: run.wallSeconds,
      batchSeconds: batchSeconds ?? run.wallSeconds,
      batchSource: batchSeconds === undefined ? 'wall' : 'worker',
      peakRssBytes: run.peakRssBytes,
      ...(run.cpuSeconds !== undefined ? { cpuSeconds: run.cpuSeconds } : {}),
      peakActiveDownloads: counters.peakActiveDownloads,
    } as const;
    if (baseline.output === 'fits') {
      // Decompressed like mlso-dl's: checked the same way, and the wire bytes are the measured body sizes.
      const folder = await checkFitsFolder(
        outputDir,
        work.files.map((file) => file.filename),
        work.minFitsBytes,
      );
      const wireBytes = new Map(work.files.map((file) => [file.filename, work.wireBytes?.get(file.filename) ?? 0]));
      const sample: Sample = {
        ...common,
        files: folder.files,
        wireBytes: sumOf(work.files.map((file) => work.wireBytes?.get(file.filename))),
        wireSource: 'measured',
        fitsBytes: folder.totalBytes,
        leftovers: folder.leftovers,
      };
      return { sample, wireBytes };
    }
    const expectedBytes = work.wireBytes && new Map(work.files.map((file) => [savedName(file), work.wireBytes!.get(file.filename)!]));
    const folder = await checkGzipFolder(outputDir, work.files.map(savedName), expectedBytes);
    const wireBytes = new Map(work.files.map((file) => [file.filename, folder.bytesByName.get(savedName(file))!]));
    return {
      sample: { ...common, files: folder.files, wireBytes: folder.totalBytes, wireSource: 'measured', leftovers: folder.leftovers },
      wireBytes,
    };
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

function sumOf(values: readonly (number | undefined)[]): number | undefined {
  return values.every((value) => value !== undefined) ? values.reduce<number>((sum, value) => sum + value!, 0) : undefined;
}
