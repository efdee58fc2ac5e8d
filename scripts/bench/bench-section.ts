// A part of the benchmark in a module of its own: what it measures, how it prints, and the flag that skips it.
// main.ts runs the sections listed in bench-sections.ts after the fixed ones; `--only NAME` runs those alone.
import type { BenchContext } from './bench-context';

export interface BenchSection<Result = unknown> {
  /** Short and unique: `--skip NAME` leaves it out, `--only NAME` runs it (and the other --only ones) alone. */
  readonly name: string;
  /** One line for the progress log, before it runs. */
  readonly describe: string;
  run(ctx: BenchContext): Promise<Result>;
  table(result: Result, runs: number): string;
  /** "target: measured" lines for the summary at the end. */
  targetLines(result: Result): string[];
}

/** Sections of different result types in one list (each section's own functions agree on its type). */
export function section<Result>(each: BenchSection<Result>): BenchSection {
  return each as BenchSection;
}
