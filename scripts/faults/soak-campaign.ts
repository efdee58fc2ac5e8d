// The soak: a campaign of many small files synced by the built mlso-dl, as child processes, from an emulator that
// fails a share of the downloads (server errors and resets, from a seed). The sync's resident memory and open file
// descriptors are sampled all along; at the end `campaign verify` must pass and the folder must keep the promises of
// folder-invariants.ts. The short version runs in `npm test` (test/faults/soak.test.ts), the full one in
// `npm run bench` (scripts/bench/soak-benchmark.ts); both judge the same things, so it lives under scripts/ (which
// imports nothing from test/) and the test imports it from here.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { openStateLedger } from '../../src-main/core/app/open-engine';
import { DEMO_EMAIL, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator';
import { checkFolderInvariants, type FolderReport } from './folder-invariants';
import { judgeTrend, ProcessSampler, type FlatLimits, type ProcessSample, type TrendVerdict } from './process-sampler';

/** Random failures (500, 503, 429) and resets mid-body that together hit 10 % of download requests. */
export function faultRates(share: number, failureRate = share / 2): Pick<EmulatorOptions, 'failureRate' | 'resetRate'> {
  // A request is reset only when it was not failed first: solve failure + (1 - failure) * reset = share.
  return { failureRate, resetRate: (share - failureRate) / (1 - failureRate) };
}

export interface SoakPlan {
  /** bin/mlso-dl.js of the build under test. */
  cliBin: string;
  emulator: RunningEmulator;
  /** An empty folder for the state folder and the campaign's files. */
  workDir: string;
  /** The campaign's query, e.g. ['-i', 'kcor', '-p', 'pb', '-s', '2025-03-22']. */
  query: readonly string[];
  concurrency: number;
  retries: number;
  sampleIntervalMs?: number;
  /** Options for Node itself before the script (the short soak caps the heap: see soak.test.ts). */
  nodeOptions?: readonly string[];
  /** What counts as flat (FLAT_LIMITS unless given). */
  flatLimits?: FlatLimits;
  /** Each child process as it starts, so the caller can stop it however the run ends. */
  onChild?: (child: ChildProcess) => void;
}

interface CliStep {
  status: number | string;
  seconds: number;
  stdout: string;
  stderr: string;
}

export interface SoakResult {
  create: CliStep;
  sync: CliStep;
  verify: CliStep;
  /** The sync's `--json` totals. */
  synced?: { listed: number; onDisk: number; queued: number; failed: number; missing: number };
  samples: ProcessSample[];
  trend?: TrendVerdict;
  folder: FolderReport;
  server: { downloadsStarted: number; downloadsCompleted: number; downloadsAborted: number; authentications: number };
}

const LAYOUT = '{instrument}/{yyyy}/{mm}/{dd}';

export async function runSoak(plan: SoakPlan): Promise<SoakResult> {
  const state = path.join(plan.workDir, 'state');
  const files = path.join(plan.workDir, 'files');
  const mlsoDl = (args: readonly string[], sample = false): Promise<{ step: CliStep; samples: ProcessSample[] }> =>
    runCli(plan, ['--base-url', plan.emulator.url, '-q', 'campaign', ...args, '--state-dir', state], sample);

  const create = await mlsoDl(['create', 'soak', ...plan.query, '--output-dir', files, '--layout', LAYOUT]);
  if (create.step.status !== 0) throw new Error(`mlso-dl campaign create failed (${create.step.status}): ${create.step.stderr.trim()}`);
  plan.emulator.resetStats();
  const sync = await mlsoDl(
    ['sync', 'soak', '-u', DEMO_EMAIL, '--concurrency', String(plan.concurrency), '--retries', String(plan.retries), '--retry-delay', '50ms', '--json'],
    true,
  );
  const server = plan.emulator.stats();
  const verify = await mlsoDl(['verify', 'soak', '--json']);

  const ledger = await openStateLedger(state);
  let folder: FolderReport;
  try {
    folder = await checkFolderInvariants({
      folder: files,
      ledger: ledger.ledger,
      expectedBytes: (instrument, name) => plan.emulator.fileBytes(instrument, name),
    });
  } finally {
    ledger.close();
  }
  return {
    create: create.step,
    sync: sync.step,
    verify: verify.step,
    ...syncedTotals(sync.step.stdout),
    samples: sync.samples,
    trend: judgeTrend(sync.samples, plan.flatLimits),
    folder,
    server: {
      downloadsStarted: server.downloadsStarted,
      downloadsCompleted: server.downloadsCompleted,
      downloadsAborted: server.downloadsAborted,
      authentications: server.authentications,
    },
  };
}

function syncedTotals(stdout: string): Pick<SoakResult, 'synced'> {
  try {
    const total = (JSON.parse(stdout) as { total?: SoakResult['synced'] }).total;
    return total ? { synced: total } : {};
  } catch {
    return {};
  }
}

async function runCli(plan: SoakPlan, args: readonly string[], sample: boolean): Promise<{ step: CliStep; samples: ProcessSample[] }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...(plan.nodeOptions ?? []), plan.cliBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  plan.onChild?.(child);
  const sampler = sample && child.pid !== undefined ? new ProcessSampler(child.pid, plan.sampleIntervalMs) : undefined;
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdout.on('error', () => undefined);
  child.stderr.on('error', () => undefined);
  const status = await new Promise<number | string>((resolve) => {
    child.once('error', (error) => resolve(error.message));
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const samples = (await sampler?.stop()) ?? [];
  return {
    step: { status, seconds: (performance.now() - started) / 1000, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() },
    samples,
  };
}
