// How many files a view of the download list holds, from the counts by state: the one rule for a tab's count and
// any summary of the same states, so a figure shown twice is the same figure.
import type { JobState } from './job-state';
import type { JobCounts } from './progress-types';

/** The files in the given states; null means every state (the whole list). */
export function countInStates(counts: JobCounts, states: readonly JobState[] | null): number {
  if (states === null) return counts.total;
  return states.reduce((sum, state) => sum + counts[state], 0);
}
