// Generic parallel downloaders on the same link, for "no slower than a generic downloader with 8 connections":
// the built-in Node one always, aria2c and curl --parallel when installed. Each saves raw gzip bodies as
// <name>.gz; the caller checks the folder against the measured body sizes.
import { mkdir, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expectSuccess, runTimed, type TimedRun } from './timed-process';
import type { NodeGetJob, NodeGetResult } from './node-get-worker';
import type { ListedFile } from './cli-summaries';

interface BaselineJob {
  files: readonly ListedFile[];
  cookie: string;
  concurrency: number;
  outputDir: string;
  /** Where the job and URL files go. */
  scratchDir: string;
}

interface BaselineRun {
  run: TimedRun;
  /** The downloader's own batch time when it reports one (Node worker); otherwise undefined: use wall time. */
  batchSeconds?: number;
}

export interface Baseline {
  label: string;
  /** What it leaves in the output folder: the raw gzip bodies as <name>.gz (the default), or decompressed FITS files. */
  output?: 'gzip' | 'fits';
  run: (job: BaselineJob) => Promise<BaselineRun>;
}

export const savedName = (file: ListedFile): string => `${file.filename}.gz`;

/** The Node floor: GET, gunzip, SHA-256, fsync and rename, nothing else (the work mlso-dl must do at the least). */
export const NODE_FLOOR_LABEL = 'node GET+gunzip+SHA-256+fsync (floor)';

export function nodeGetBaseline(workerBundle: string): Baseline {
  return { label: 'node parallel GET (baseline)', run: (job) => runNodeGetWorker(workerBundle, job, 'gzip') };
}

/** The Node baseline doing what mlso-dl must do at the least: each body gunzipped, hashed and flushed as it arrives. */
export function nodeFloorBaseline(workerBundle: string): Baseline {
  return { label: NODE_FLOOR_LABEL, output: 'fits', run: (job) => runNodeGetWorker(workerBundle, job, 'fits') };
}

/** Runs the Node worker bundle on the job: raw gzip bodies saved as <name>.gz, or decompressed FITS files. */
async function runNodeGetWorker(workerBundle: string, job: BaselineJob, output: 'gzip' | 'fits'): Promise<BaselineRun> {
  const jobFile = path.join(job.scratchDir, `node-${output}-job.json`);
  const spec: NodeGetJob = {
    cookie: job.cookie,
    concurrency: job.concurrency,
    files: job.files.map((file) => ({ url: file.url, path: path.join(job.outputDir, output === 'fits' ? file.filename : savedName(file)) })),
    ...(output === 'fits' ? { fits: true } : {}),
  };
  await writeFile(jobFile, JSON.stringify(spec));
  const run = expectSuccess(await runTimed(process.execPath, [workerBundle, jobFile]));
  const result = JSON.parse(run.stdout) as NodeGetResult;
  return { run, batchSeconds: result.batchSeconds };
}

/** aria2c with one connection per file (-x1) and 8 files at once (-j8): 8 connections, like the others. */
export function aria2cBaseline(): Baseline {
  return {
    label: 'aria2c (baseline)',
    async run(job) {
      const list = path.join(job.scratchDir, 'aria2c-input.txt');
      // An input file line is a URL; indented lines after it are options for that download (its file name here).
      await writeFile(list, job.files.map((file) => `${file.url}\n  out=${savedName(file)}\n`).join(''));
      const args = [
        `-j${job.concurrency}`,
        '-x1',
        '--header',
        `Cookie: ${job.cookie}`,
        '-i',
        list,
        '-d',
        job.outputDir,
        '--allow-overwrite=true',
        '--auto-file-renaming=false',
        // Not in the command line: aria2c's default 'prealloc' writes every file twice (zeros, then data),
        // which no streaming downloader does; leaving it on would flatter mlso-dl.
        '--file-allocation=none',
        '-q',
      ];
      return { run: expectSuccess(await runTimed('aria2c', args)) };
    },
  };
}

/** curl's own parallel mode (one process, one connection pool), from a config file naming each output. */
export function curlParallelBaseline(): Baseline {
  return {
    label: 'curl --parallel (baseline)',
    async run(job) {
      const config = path.join(job.scratchDir, 'curl-config.txt');
      await writeFile(config, job.files.map((file) => `url = "${file.url}"\noutput = "${path.join(job.outputDir, savedName(file))}"\n`).join(''));
      const args = [
        '--silent',
        '--show-error',
        '--fail',
        '--parallel',
        '--parallel-max',
        String(job.concurrency),
        '--header',
        `Cookie: ${job.cookie}`,
        '--config',
        config,
      ];
      return { run: expectSuccess(await runTimed('curl', args)) };
    },
  };
}

/** True when `command --version` runs (the tool is on PATH). */
export function installed(command: string): boolean {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** curl learned --parallel in 7.66.0. */
export function curlHasParallel(): boolean {
  const help = spawnSync('curl', ['--help', 'all'], { encoding: 'utf8' });
  return help.status === 0 && help.stdout.includes('--parallel-max');
}

/**
 * A generic downloader followed by what its user must still do to get what mlso-dl delivers: FITS files,
 * decompressed (`gzip -d`, one file after another, into a folder of its own so the gzip check still holds).
 * This is the like-for-like comparison; the raw rows only move bytes.
 */
export function thenDecompressed(baseline: Baseline): Baseline {
  return {
    label: `${baseline.label.replace(' (baseline)', '')} + gzip -d (baseline)`,
    async run(job) {
      const downloaded = await baseline.run(job);
      const fitsDir = path.join(job.scratchDir, 'decompressed');
      const script = 'mkdir -p "$2" && cd "$1" && for f in *.gz; do gzip -dc "$f" > "$2/${f%.gz}" || exit 1; done';
      const decompressed = expectSuccess(await runTimed('sh', ['-c', script, 'sh', job.outputDir, fitsDir]));
      const download = downloaded.batchSeconds ?? downloaded.run.wallSeconds;
      return {
        run: { ...downloaded.run, wallSeconds: downloaded.run.wallSeconds + decompressed.wallSeconds, cpuSeconds: sumOfCpu([downloaded.run, decompressed]) },
        batchSeconds: download + decompressed.wallSeconds,
      };
    },
  };
}

export const SHELL_WAY_LABEL = 'aria2c -j8, gzip -dc + sha256sum on 2 cores, sync';

/**
 * The shell way to what mlso-dl delivers: aria2c -j8 fetches the gzip bodies (into a scratch folder), then
 * every file is decompressed into the output folder and hashed, two files at a time (xargs -P 2, one per core of
 * this machine), then `sync` flushes it all, as mlso-dl's fsync of every file does. Its output is checked like
 * mlso-dl's, and its CPU time counts aria2c, every gzip, sha256sum and shell, and sync.
 */
export function shellWayBaseline(): Baseline {
  const aria2c = aria2cBaseline();
  return {
    label: SHELL_WAY_LABEL,
    output: 'fits',
    async run(job) {
      const bodiesDir = path.join(job.scratchDir, 'bodies');
      await mkdir(bodiesDir, { recursive: true });
      const downloaded = (await aria2c.run({ ...job, outputDir: bodiesDir })).run;
      // Eight files per shell, so the shells' own start-up does not dominate; each sha256sum appends one line.
      const perFile = 'for f; do gzip -dc "$f" > "$0/${f%.gz}" && sha256sum "$0/${f%.gz}" >> "$0.sha256" || exit 255; done';
      const script = 'cd "$1" && ls | xargs -P 2 -n 8 sh -c "$3" "$2"';
      const unpacked = expectSuccess(await runTimed('sh', ['-c', script, 'sh', bodiesDir, job.outputDir, perFile]));
      const synced = expectSuccess(await runTimed('sync', []));
      const parts = [downloaded, unpacked, synced];
      const wallSeconds = parts.reduce((sum, part) => sum + part.wallSeconds, 0);
      return { run: { ...downloaded, wallSeconds, cpuSeconds: sumOfCpu(parts) } };
    },
  };
}

/** CPU seconds of runs made one after another; undefined if any of them has none. */
function sumOfCpu(runs: readonly TimedRun[]): number | undefined {
  return runs.every((run) => run.cpuSeconds !== undefined) ? runs.reduce((sum, run) => sum + run.cpuSeconds!, 0) : undefined;
}
