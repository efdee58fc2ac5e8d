// What every scenario of the benchmark needs.
import type { BenchOptions } from './bench-options';
import type { MlsoDlCli } from './mlso-dl-cli';
import type { Progress } from './progress';

export interface BenchContext {
  cli: MlsoDlCli;
  /** Always this checkout's mlso-dl for `mock-server`, so comparing CLI versions (--cli) keeps the same server. */
  emulatorBin: string;
  /** dist/bench/node-get-worker.js: the Node baseline's process. */
  nodeGetWorker: string;
  /** A temporary folder for this benchmark run; removed at the end. */
  workDir: string;
  options: BenchOptions;
  progress: Progress;
}
