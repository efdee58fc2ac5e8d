// A campaign's counts in words, the same on the card, in the Verify report, in the sync's summary and on the
// command line: one function per sentence over the one set of counts (campaignCounts), so two places cannot word
// or pick the numbers differently.
import { formatCount } from '../format/counts';
import type { CampaignCounts } from './campaign-types';

type Counts = Omit<CampaignCounts, 'files'>;

/** One figure of a campaign's counts: `alert` when it needs the user (red), `quiet` when it is only news (grey). */
export interface CountFigure {
  key: keyof Counts;
  count: number;
  text: string;
  tone: 'plain' | 'alert' | 'quiet';
}

/**
 * Where the files stand: on disk, then what needs attention. Missing and failed are always named once a sync has
 * run (a zero says all is well); a campaign never synced says "not yet synced" instead of missing, in grey, since
 * nothing is wrong with it; the rarer figures show only when there are some.
 */
export function countFigures(counts: Counts): CountFigure[] {
  const figure = (key: keyof Counts, label: string, tone: CountFigure['tone'] = counts[key] > 0 ? 'alert' : 'plain'): CountFigure => ({
    key,
    count: counts[key],
    text: `${formatCount(counts[key])} ${label}`,
    tone,
  });
  const never = counts.notSynced > 0;
  return [
    figure('onDisk', 'on disk', 'plain'),
    ...(counts.differs > 0 ? [figure('differs', 'differ from the shared list')] : []),
    ...(counts.changed > 0 ? [figure('changed', 'changed on disk')] : []),
    ...(never ? [figure('notSynced', 'not yet synced', 'quiet')] : []),
    ...(!never || counts.missing > 0 ? [figure('missing', 'missing')] : []),
    figure('failed', 'failed'),
    ...(counts.queued > 0 ? [figure('queued', 'queued', 'plain')] : []),
  ];
}

/**
 * What a sync did, as its summary says it: "24 downloaded, 0 already there, 0 failed", with what is still queued
 * while the files move and what is still wrong (missing, changed, differing) when there is some.
 */
export function syncSummary(counts: Counts): string {
  const parts = [`${formatCount(counts.downloaded)} downloaded`, `${formatCount(counts.alreadyThere)} already there`, `${formatCount(counts.failed)} failed`];
  if (counts.queued > 0) parts.push(`${formatCount(counts.queued)} queued`);
  if (counts.changed > 0) parts.push(`${formatCount(counts.changed)} changed on disk`);
  if (counts.missing > 0) parts.push(`${formatCount(counts.missing)} missing`);
  if (counts.differs > 0) parts.push(`${formatCount(counts.differs)} differ from the shared list`);
  return parts.join(', ');
}
