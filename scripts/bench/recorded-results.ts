// The bench's committed record (bench/results.json, written with --record): every part of the bench with what it
// measures, and the tables of its latest recorded run with when, on which commit and Node, and under what load
// (the build machines are shared). scripts/bench/benchmarks-doc.mjs turns it into docs/benchmarks.md.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';

export interface Measurement {
  measuredAt: string;
  /** The commit measured, with "-dirty" when tracked files other than the record itself were changed. */
  commit: string;
  node: string;
  platform: string;
  cpus: number;
  /** os.loadavg() (over 1, 5 and 15 minutes) as the part began and as it ended. */
  loadAverage: { before: number[]; after: number[] };
  runs: number;
  quick: boolean;
  seconds: number;
  /** The part's tables as the bench printed them, a line each. */
  table: string[];
}

interface RecordedPart {
  name: string;
  describe: string;
  latest?: Measurement;
}

export interface RecordedResults {
  /** The bench's --help, so the page says how to run it in the bench's own words. */
  usage: string[];
  parts: RecordedPart[];
}

export interface PartDescription {
  readonly name: string;
  readonly describe: string;
}

/**
 * The record after a run: every part the bench has, in its order, with this run's measurement where it ran and
 * the previous record's otherwise; parts the bench no longer has are dropped.
 */
export function mergeRecorded(
  previous: RecordedResults | undefined,
  parts: readonly PartDescription[],
  usage: string,
  fresh: ReadonlyMap<string, Measurement>,
): RecordedResults {
  const before = new Map((previous?.parts ?? []).map((part) => [part.name, part.latest]));
  return {
    usage: usage.split('\n'),
    parts: parts.map(({ name, describe }) => {
      const latest = fresh.get(name) ?? before.get(name);
      return latest ? { name, describe, latest } : { name, describe };
    }),
  };
}

export async function readRecorded(file: string): Promise<RecordedResults | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as RecordedResults;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Collects each part's measurement as the bench prints its tables. */
export class PartRecorder {
  readonly measured = new Map<string, Measurement>();

  constructor(
    private readonly commit: string,
    private readonly options: { runs: number; quick: boolean },
  ) {}

  begin(): PartStart {
    return { at: new Date(), load: os.loadavg(), started: performance.now() };
  }

  end(name: string, start: PartStart, tables: readonly string[]): void {
    this.measured.set(name, {
      measuredAt: start.at.toISOString(),
      commit: this.commit,
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      cpus: os.availableParallelism(),
      loadAverage: { before: rounded(start.load), after: rounded(os.loadavg()) },
      runs: this.options.runs,
      quick: this.options.quick,
      seconds: Math.round((performance.now() - start.started) / 100) / 10,
      table: tables.join('\n\n').split('\n'),
    });
  }
}

export interface PartStart {
  at: Date;
  load: number[];
  started: number;
}

const rounded = (values: readonly number[]): number[] => values.map((value) => Math.round(value * 100) / 100);

/** HEAD's short hash, "-dirty" when tracked files other than the record and its page differ from it. */
export function measuredCommit(root: string): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short=9', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const changed = execFileSync(
      'git',
      ['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)bench/results.json', ':(exclude)docs/benchmarks.md'],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    ).trim();
    return changed === '' ? head : `${head}-dirty`;
  } catch {
    return 'unknown (git could not say)';
  }
}
