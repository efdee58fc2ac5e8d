// A campaign's coverage: its files binned over their own span, each bin split by where its files stand (the
// standing the core gives each file, by the rule behind every campaign count).
import type { CampaignFileView } from '../contract/contract';
import { searchedRange } from './searched-range';
import { breakdownByState, type StateBreakdown } from './state-breakdown';
import { coverageBins, type TimelineBins } from './timeline-bins';

/** Bins and their state breakdown for a campaign's files; null when none has a date-obs. */
export function campaignCoverage(files: readonly CampaignFileView[]): { bins: TimelineBins; breakdown: StateBreakdown } | null {
  const dated = files.filter((file) => file.dateObs !== null);
  const dateObs = dated.map((file) => file.dateObs!);
  const range = searchedRange({}, dateObs);
  if (!range) return null;
  const bins = coverageBins(dateObs, range);
  return { bins, breakdown: breakdownByState(bins, dateObs, (index) => dated[index]!.standing) };
}
