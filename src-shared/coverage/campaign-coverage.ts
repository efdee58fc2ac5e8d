// A campaign's coverage: its files binned over their own span, each bin split by where its files stand.
import type { CampaignFileView } from '../contract/contract';
import { searchedRange } from './searched-range';
import { breakdownByState, type CoverageState, type StateBreakdown } from './state-breakdown';
import { coverageBins, type TimelineBins } from './timeline-bins';

/** A campaign file's state as the timeline colours it. */
export function coverageStateOf(file: Pick<CampaignFileView, 'state'>): CoverageState {
  switch (file.state) {
    case 'done':
      return 'onDisk';
    case 'queued':
    case 'active':
    case 'paused':
      return 'queued';
    case 'failed':
      return 'failed';
    default:
      return 'missing';
  }
}

/** Bins and their state breakdown for a campaign's files; null when none has a date-obs. */
export function campaignCoverage(files: readonly CampaignFileView[]): { bins: TimelineBins; breakdown: StateBreakdown } | null {
  const dated = files.filter((file) => file.dateObs !== null);
  const dateObs = dated.map((file) => file.dateObs!);
  const range = searchedRange({}, dateObs);
  if (!range) return null;
  const bins = coverageBins(dateObs, range);
  return { bins, breakdown: breakdownByState(bins, dateObs, (index) => coverageStateOf(dated[index]!)) };
}
