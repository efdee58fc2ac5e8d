// The benchmark's raw results: what the tables are computed from, written whole to dist/bench/last-run.json.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sample } from './samples';
import type { CliCapabilities, FileQuery } from './mlso-dl-cli';
import type { ListingResult } from './listing-benchmark';
import type { StartupResult } from './startup-benchmark';
import type { EnqueueBenchResult } from './enqueue-benchmark';

export interface RowResult {
  label: string;
  concurrency: number;
  /** False when the CLI has no --concurrency flag yet: the run used the CLI's own behaviour whatever was asked. */
  concurrencyApplied: boolean;
  /** The ideal batch time on the emulated link (batch table only). */
  linkLimitSeconds?: number;
  samples: Sample[];
}

export interface ScenarioResult {
  title: string;
  emulatorArgs: string[];
  query: FileQuery;
  files: number;
  /** Gzip body bytes of the listed files, as measured (sum and mean). */
  wireTotalBytes?: number;
  wireMeanBytes?: number;
  rows: RowResult[];
}

export interface BenchResults {
  startedAt: string;
  node: string;
  platform: string;
  cpus: number;
  options: { quick: boolean; skipBig: boolean; skipUi: boolean; runs: number; cli: string };
  cliCapabilities: CliCapabilities;
  link: { latencySeconds: number; bandwidthBytesPerSecond: number };
  batch?: ScenarioResult;
  big?: ScenarioResult;
  bigBatch?: ScenarioResult;
  listing?: ListingResult;
  startup?: StartupResult;
  enqueue?: EnqueueBenchResult;
  totalSeconds?: number;
}

export async function writeResults(file: string, results: BenchResults): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
}
