// Verify at disk speed: a campaign of 100,000 files of 32 x 32 and one of 1,000 files of 1024 x 1024 (FITS-sized
// files written directly, registered as downloaded in a state folder), verified by the built mlso-dl, in full and
// with --quick after it, next to `sha256sum` over the same files on every core (`xargs -P $(nproc)`), in the same
// run. Both read from the page cache (the files were just written or hashed), so the rows compare hashing, not the disk.
// On a shared machine one run of either side can take twice its time, so each set is measured at least MIN_RUNS
// times, the two sides alternating which goes first, and the rows are medians with their spread beside them.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { STATE_DOMAINS } from '../../src-main/core/app/open-engine';
import { kcorFileRecord, recordCampaignFiles } from './campaign-records';
import { CampaignStore } from '../../src-main/core/campaigns/campaign-store';
import { hashFiles } from '../../src-main/core/campaigns/file-hashing';
import { DownloadLedger } from '../../src-main/core/downloads/download-ledger';
import { LEDGER_FILE } from '../../src-main/core/state/open-state-folder';
import { StateDatabase } from '../../src-main/core/state/state-database';
import type { BenchContext } from './bench-context';
import { median } from './samples';
import { fixed, renderTable } from './text-table';
import { expectSuccess, runTimed } from './timed-process';

const FITS_BLOCK = 2880;
/** A float32 image of side × side pixels as a FITS file: one header block and the data padded to whole blocks. */
const fitsBytes = (side: number): number => FITS_BLOCK + Math.ceil((side * side * 4) / FITS_BLOCK) * FITS_BLOCK;

const SETS = [
  { name: 'small', files: 100_000, side: 32 },
  { name: 'large', files: 1_000, side: 1024 },
] as const;

const STEPS = ['sha256sum -P nproc', 'mlso-dl verify', 'mlso-dl verify --quick'] as const;
const MIN_RUNS = 5;
type Step = (typeof STEPS)[number];

interface VerifySetResult {
  name: string;
  files: number;
  bytes: number;
  seconds: Record<Step, number[]>;
  /** User plus system CPU seconds of each run (steadier than wall time when other work shares the cores). */
  cpuSeconds: Record<Step, number[]>;
}

export interface VerifyBenchResult {
  sets: VerifySetResult[];
}

export async function runVerifyBenchmark(ctx: BenchContext): Promise<VerifyBenchResult> {
  const sets: VerifySetResult[] = [];
  for (const set of SETS) {
    const work = await mkdtemp(path.join(ctx.workDir, `verify-${set.name}-`));
    const folder = path.join(work, 'files');
    const state = path.join(work, 'state');
    ctx.progress.step(`  verify: writing ${set.files} files of ${set.side} x ${set.side} and registering them as a campaign`);
    await downloadedCampaign(state, folder, set.files, fitsBytes(set.side));
    const result: VerifySetResult = {
      name: `${set.files} files of ${set.side} x ${set.side}`,
      files: set.files,
      bytes: set.files * fitsBytes(set.side),
      seconds: { 'sha256sum -P nproc': [], 'mlso-dl verify': [], 'mlso-dl verify --quick': [] },
      cpuSeconds: { 'sha256sum -P nproc': [], 'mlso-dl verify': [], 'mlso-dl verify --quick': [] },
    };
    const runs = Math.max(MIN_RUNS, ctx.options.runs);
    for (let run = 1; run <= runs; run += 1) {
      const timed = async (step: Step, command: string, args: string[]) => {
        const finished = expectSuccess(await runTimed(command, args, { timeoutMs: 20 * 60_000 }));
        result.seconds[step].push(finished.wallSeconds);
        if (finished.cpuSeconds !== undefined) result.cpuSeconds[step].push(finished.cpuSeconds);
        ctx.progress.step(`  verify ${set.name} ${step} (run ${run}/${runs}): ${finished.wallSeconds.toFixed(2)} s`);
      };
      const sha256sum = () =>
        timed('sha256sum -P nproc', 'bash', ['-c', 'cd "$1" && find . -type f -print0 | xargs -0 -P "$(nproc)" -n 500 sha256sum > /dev/null', 'bash', folder]);
      const verify = [ctx.cli.binPath, '-q', 'campaign', 'verify', 'bench', '--json', '--state-dir', state];
      // Alternated, so that neither side always runs first (after the other has warmed or loaded the machine).
      if (run % 2 === 1) await sha256sum();
      await timed('mlso-dl verify', process.execPath, verify);
      await timed('mlso-dl verify --quick', process.execPath, [...verify, '--quick']);
      if (run % 2 === 0) await sha256sum();
    }
    sets.push(result);
  }
  return { sets };
}

/** `count` files of `bytes` each in `folder`, in a state folder's ledger as a campaign's downloaded files with their SHA-256. */
async function downloadedCampaign(stateFolder: string, folder: string, count: number, bytes: number): Promise<void> {
  await mkdir(folder, { recursive: true });
  await mkdir(stateFolder, { recursive: true });
  const names = Array.from({ length: count }, (_, index) => `20250324_${String(index).padStart(7, '0')}_kcor_l2_pb.fts`);
  const targets = names.map((name) => path.join(folder, name));
  const body = Buffer.alloc(bytes);
  for (let index = 0; index < body.length; index += 4) body.writeUInt32LE((index * 2654435761) >>> 0, index);
  for (let start = 0; start < count; start += 200) {
    await Promise.all(
      targets.slice(start, start + 200).map((target, offset) => {
        const own = Buffer.from(body);
        own.writeUInt32LE(start + offset, 0); // every file its own bytes
        return writeFile(target, own);
      }),
    );
  }
  const digests = await hashFiles(targets);
  const state = StateDatabase.open(path.join(stateFolder, LEDGER_FILE), STATE_DOMAINS);
  const ledger = new DownloadLedger(state);
  try {
    const store = new CampaignStore(state);
    const campaign = store.create({ name: 'bench', folder, layout: '', queries: [{ instrument: 'kcor', product: 'pb', filters: {} }], autoSyncHours: null });
    const records = targets.map((target) => kcorFileRecord(target, bytes));
    const ids = recordCampaignFiles(store, ledger, campaign.id, records);
    ledger.transaction(() => ids.forEach((id, index) => ledger.markDone(id, { sha256: digests[index]!.sha256!, bytesReceived: bytes, bytesWritten: bytes })));
  } finally {
    ledger.close();
  }
}

/** The lowest and the highest of several runs' times. */
function spread(values: readonly number[]): string {
  if (values.length < 2) return '-';
  const low = values.reduce((a, b) => Math.min(a, b));
  const high = values.reduce((a, b) => Math.max(a, b));
  return `${fixed(low, 2)}-${fixed(high, 2)}`;
}

export function verifyTable(result: VerifyBenchResult, runs: number): string {
  const rows = result.sets.flatMap((set) => {
    const floor = median(set.seconds['sha256sum -P nproc']);
    const cpuFloor = median(set.cpuSeconds['sha256sum -P nproc']);
    return STEPS.map((step) => {
      const seconds = median(set.seconds[step]);
      const cpu = median(set.cpuSeconds[step]);
      return [
        `${set.name}: ${step}`,
        fixed(seconds, 2),
        spread(set.seconds[step]),
        seconds === undefined ? '-' : fixed(set.bytes / 1e6 / seconds, 0),
        seconds === undefined || floor === undefined ? '-' : fixed(seconds / floor, 2),
        fixed(cpu, 2),
        cpu === undefined || cpuFloor === undefined ? '-' : fixed(cpu / cpuFloor, 2),
      ];
    });
  });
  const measured = Math.max(MIN_RUNS, runs);
  return [
    `Verify beside sha256sum on every core (same files, same run, page cache warm), median of ${measured} alternated runs`,
    '',
    renderTable(['files: step', 'wall s', 'spread s', 'MB/s', 'x sha256sum', 'CPU s', 'CPU x sha256sum'], rows),
    '',
    'mlso-dl rows are whole processes (start, ledger, hashing, report); --quick follows a full verify, so it trusts every file.',
  ].join('\n');
}

export function verifyTargetLines(result: VerifyBenchResult): string[] {
  return result.sets.map((set) => {
    const ratio = (median(set.seconds['mlso-dl verify']) ?? NaN) / (median(set.seconds['sha256sum -P nproc']) ?? NaN);
    return `verify ${set.name}: ${ratio.toFixed(2)}x sha256sum -P nproc (target <= 1.2x) ${ratio <= 1.2 ? 'met' : 'NOT met'}`;
  });
}
