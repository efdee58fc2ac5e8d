// mlso-dl as the benchmark runs it: always a separate process started from bin/mlso-dl.js, exactly as a user
// would, so process start, module loading and memory are the real ones.
import { expectSuccess, runTimed, type TimedRun } from './timed-process';
import { downloadSummarySchema, listingSchema, parseCliJson, type DownloadSummary, type ListedFile } from './cli-summaries';
import { DEMO_EMAIL } from '../../src-shared/api/service-facts';

export interface CliCapabilities {
  /** `files --concurrency N` (the parallel engine); without it the CLI downloads one file at a time. */
  concurrency: boolean;
  /** `files --state-dir DIR` (where the engine keeps its ledger). */
  stateDir: boolean;
}

export interface FileQuery {
  instrument: string;
  product: string;
  start: string;
  end: string;
}

export class MlsoDlCli {
  constructor(
    readonly binPath: string,
    readonly capabilities: CliCapabilities,
  ) {}

  /** Reads the flags from `files --help`, so the benchmark runs against the CLI before and after the engine lands. */
  static async detect(binPath: string): Promise<MlsoDlCli> {
    const help = expectSuccess(await runTimed(process.execPath, [binPath, 'files', '--help'], { timeoutMs: 60_000 })).stdout;
    return new MlsoDlCli(binPath, { concurrency: /--concurrency\b/.test(help), stateDir: /--state-dir\b/.test(help) });
  }

  async list(baseUrl: string, query: FileQuery): Promise<ListedFile[]> {
    const run = expectSuccess(
      await runTimed(process.execPath, [this.binPath, '--base-url', baseUrl, '-q', 'files', ...queryArgs(query), '--json'], { timeoutMs: 60_000 }),
    );
    return parseCliJson(listingSchema, run.stdout, 'mlso-dl files --json').files;
  }

  /** One measured download run. Flags this CLI lacks are left out (the run then shows the CLI's own behaviour). */
  async download(
    baseUrl: string,
    query: FileQuery,
    options: { outputDir: string; stateDir: string; concurrency: number },
  ): Promise<{ run: TimedRun; summary: DownloadSummary }> {
    const args = [
      this.binPath,
      '--base-url',
      baseUrl,
      '-q',
      'files',
      ...queryArgs(query),
      '--download',
      '--username',
      DEMO_EMAIL,
      '--output-dir',
      options.outputDir,
    ];
    if (this.capabilities.stateDir) args.push('--state-dir', options.stateDir);
    if (this.capabilities.concurrency) args.push('--concurrency', String(options.concurrency));
    args.push('--json');
    const run = expectSuccess(await runTimed(process.execPath, args));
    return { run, summary: parseCliJson(downloadSummarySchema, run.stdout, 'mlso-dl files --download --json') };
  }
}

function queryArgs(query: FileQuery): string[] {
  return ['-i', query.instrument, '-p', query.product, '-s', query.start, '-e', query.end];
}
