// Listing positions as runs (first to last, in listing order): how a selection of rows crosses between the window and
// the core, so that "all but a few" of a million rows, or a sorted range that lands anywhere in the listing, stays a
// short list. One rule for both sides: the core answers search:positions with it, the window's selection uses it.
import type { PositionRun } from './result-page';

/** The positions (any order, repeats allowed) as runs in listing order. */
export function runsOf(positions: ArrayLike<number>): PositionRun[] {
  // A typed array sorts by number, without a comparator called per pair.
  const sorted = Float64Array.from(positions).sort();
  const runs: PositionRun[] = [];
  for (const position of sorted) {
    const run = runs.at(-1);
    if (run && position <= run.last + 1) run.last = Math.max(run.last, position);
    else runs.push({ first: position, last: position });
  }
  return runs;
}
