// Command-line options of the benchmark (`npm run bench -- --quick`, `--skip-big`, `--runs 3`).
import path from 'node:path';
import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Fewer files and only concurrency 8: a smoke run that still goes through every code path but the big batch. */
  quick: boolean;
  skipBig: boolean;
  /** Skip the 100,000-row results table measurement (needs Chromium and the renderer build). */
  skipUi: boolean;
  /** Skip the 100,000-entry listing through a pipe (--json and the table). */
  skipListing: boolean;
  /** Skip the 5,000-file campaign (sync, sync again, verify, manifest). */
  skipCampaign: boolean;
  /** Skip the soak (a 5,000-file campaign sync through 10 % faults, memory and descriptors sampled). */
  skipSoak: boolean;
  /** Sections (bench-sections.ts) left out by name (`--skip NAME`, repeatable). */
  skip: string[];
  /** When given, only these sections run (`--only NAME`, repeatable), and none of the fixed measurements. */
  only: string[];
  /** Each measurement is repeated this many times; the tables show medians, the JSON every sample. */
  runs: number;
  /** Leave the temporary folder (downloads, logs) in place for inspection. */
  keep: boolean;
  /** Another mlso-dl entry script to measure (e.g. an older checkout's bin/mlso-dl.js, to compare versions). */
  cli?: string;
  /** Write the tables of the parts that ran into bench/results.json and docs/benchmarks.md (docs/benchmarks.md). */
  record: boolean;
}

export const USAGE = `Usage: npm run bench -- [options]

Measures mlso-dl against the bundled emulator (40 ms latency, 25 MiB/s per connection) and prints tables.

Options:
  --quick      20 files at concurrency 8 only, no big-file batch (a fast smoke run)
  --skip-big   skip the 256 MiB file runs
  --skip-ui    skip the 100,000-row results table measurement in Chromium
  --skip-listing  skip the 100,000-entry listing through a pipe (files --json and the table)
  --skip-campaign skip the 5,000-file campaign (sync, sync again, verify, CSV manifest)
  --skip-soak  skip the soak (5,000 files synced through 10 % faults, RSS and open descriptors sampled)
  --skip NAME  skip the section NAME (repeatable): see the list printed at the start
  --only NAME  run only the section NAME (repeatable), none of the fixed measurements
               sections: verify (100,000 files of 32 x 32 and 1,000 of 1024 x 1024 beside sha256sum, about 5 GB)
               quicklook-load (the quick-look of a 1024 x 1024 KCor file in Chromium, idle and under stress-ng --cpu 2)
  --runs N     repeat every measurement N times and report medians (default 1)
  --keep       keep the temporary folder with downloads and logs
  --cli PATH   measure another mlso-dl entry script (default: this checkout's bin/mlso-dl.js)
  --record     write the tables of the parts that ran into bench/results.json and docs/benchmarks.md
  -h, --help   show this help`;

/** The options, or undefined when help was asked for. Throws on unknown or malformed options. */
export function parseBenchOptions(argv: readonly string[]): BenchOptions | undefined {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean', default: false },
      'skip-big': { type: 'boolean', default: false },
      'skip-ui': { type: 'boolean', default: false },
      'skip-listing': { type: 'boolean', default: false },
      'skip-campaign': { type: 'boolean', default: false },
      'skip-soak': { type: 'boolean', default: false },
      skip: { type: 'string', multiple: true, default: [] },
      only: { type: 'string', multiple: true, default: [] },
      runs: { type: 'string', default: '1' },
      keep: { type: 'boolean', default: false },
      cli: { type: 'string' },
      record: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return undefined;
  const runs = Number(values.runs);
  if (!/^\d+$/.test(values.runs) || runs < 1 || runs > 50) throw new Error(`--runs must be a whole number from 1 to 50, got "${values.runs}"`);
  // The record holds this checkout's figures; another CLI's belong in a comparison, not in the docs.
  if (values.record && values.cli) throw new Error('--record measures this checkout only: leave out --cli, or leave out --record to compare');
  return {
    quick: values.quick,
    skipBig: values['skip-big'],
    skipUi: values['skip-ui'],
    skipListing: values['skip-listing'],
    skipCampaign: values['skip-campaign'],
    skipSoak: values['skip-soak'],
    skip: values.skip,
    only: values.only,
    runs,
    keep: values.keep,
    record: values.record,
    ...(values.cli ? { cli: path.resolve(values.cli) } : {}),
  };
}
