// A campaign's timeline shows each bin's files by state. The counts come per state per bin, on the same scale as
// the bins they split, so the timeline can stack them; a bin's states add up to its count.
import { FILE_STANDINGS, type FileStanding } from '../campaigns/file-standing';
import { formatCount } from '../format/counts';
import { binFinder, type TimelineScale } from './timeline-bins';

/** Where a campaign's file can stand, in the order the timeline stacks them (bottom first). */
export const COVERAGE_STATES = FILE_STANDINGS;
export type CoverageState = FileStanding;

export const COVERAGE_STATE_LABELS: Readonly<Record<CoverageState, string>> = {
  onDisk: 'on disk',
  differs: 'differ from the shared list',
  queued: 'queued',
  failed: 'failed',
  changed: 'changed on disk',
  missing: 'missing',
  noLongerListed: 'no longer listed',
};

/** Per state, the files of each bin (arrays as long as the scale has bins). */
export type StateBreakdown = Readonly<Record<CoverageState, ArrayLike<number>>>;

/** Counts files by state and bin in one pass: `stateOf(i)` is the state of the file whose date-obs is `dateObs[i]`. */
export function breakdownByState(scale: TimelineScale, dateObs: readonly string[], stateOf: (index: number) => CoverageState): StateBreakdown {
  const bins = Math.max(0, scale.edges.length - 1);
  const counts = Object.fromEntries(COVERAGE_STATES.map((state) => [state, new Uint32Array(bins)])) as Record<CoverageState, Uint32Array>;
  const binOf = binFinder(scale.edges);
  for (let i = 0; i < dateObs.length; i++) {
    const found = binOf(dateObs[i] ?? '');
    if (found < 0) continue;
    const perBin = counts[stateOf(i)];
    perBin[found] = (perBin[found] ?? 0) + 1;
  }
  return counts;
}

/** The states of the files in bins `first` to `last` (inclusive), e.g. "200 on disk, 30 queued, 10 failed"; empty states are left out. */
export function describeStates(breakdown: StateBreakdown, first: number, last: number): string {
  const parts: string[] = [];
  for (const state of COVERAGE_STATES) {
    let count = 0;
    for (let bin = Math.min(first, last); bin <= Math.max(first, last); bin++) count += breakdown[state][bin] ?? 0;
    if (count > 0) parts.push(`${formatCount(count)} ${COVERAGE_STATE_LABELS[state]}`);
  }
  return parts.join(', ');
}
