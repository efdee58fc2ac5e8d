// A campaign's counts in words, the same on the card, in the Verify report, in the sync's summary and on the
// command line: one function per sentence over the one set of counts (campaignCounts), so two places cannot word
// or pick the numbers differently.
import { reusedWording } from '../downloads/reused-files';
import { formatCount, plural } from '../format/counts';
import type { CampaignCounts, VerifyReport } from './campaign-types';

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
 * nothing is wrong with it; the rarer figures show only when there are some, files the archive no longer lists
 * last and in grey.
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
    // Only news: the archive dropped them, and nothing the user does brings them back.
    ...(counts.noLongerListed > 0 ? [figure('noLongerListed', 'no longer listed', 'quiet')] : []),
  ];
}

/**
 * What a sync did, as its summary says it: "24 downloaded, 0 already there, 0 failed", with the files copied or
 * linked from another folder instead ("4 reused from /data/kcor": `reusedFrom` are the folders, when known), what
 * is still queued while the files move, what is still wrong (missing, changed, differing) when there is some, and
 * the files the archive no longer lists.
 */
export function syncSummary(counts: Counts, reusedFrom: readonly string[] = []): string {
  const parts = [`${formatCount(counts.downloaded)} downloaded`];
  if (counts.reused > 0) parts.push(reusedWording({ count: counts.reused, from: [...reusedFrom] }));
  parts.push(`${formatCount(counts.alreadyThere)} already there`, `${formatCount(counts.failed)} failed`);
  if (counts.queued > 0) parts.push(`${formatCount(counts.queued)} queued`);
  if (counts.changed > 0) parts.push(`${formatCount(counts.changed)} changed on disk`);
  if (counts.missing > 0) parts.push(`${formatCount(counts.missing)} missing`);
  if (counts.differs > 0) parts.push(`${formatCount(counts.differs)} differ from the shared list`);
  if (counts.noLongerListed > 0) parts.push(`${formatCount(counts.noLongerListed)} no longer listed`);
  return parts.join(', ');
}

/**
 * Files of the set a sync still has to fetch: queued, failed, missing, changed on disk or not yet synced; not those
 * that differ from a shared list (fetching them again gives the same bytes).
 */
function stillToDownload(counts: Counts): number {
  return counts.queued + counts.failed + counts.missing + counts.changed + counts.notSynced;
}

/** "3 of 12 files on disk, 9 still to download": where a campaign's files stand when its sync stops short. */
export function filesLeftText(counts: CampaignCounts): string {
  return `${formatCount(counts.onDisk)} of ${plural(counts.files, 'file')} on disk, ${formatCount(stillToDownload(counts))} still to download`;
}

/**
 * What a verify comes to, in one line: `problems` when it found any (its figures then say which), `incomplete`
 * when every file it could check is intact but some are still to download (a sync under way): "4 of 9 on disk and
 * intact; 5 still to download", and `good` only when every file of the set is on disk as downloaded.
 */
export function verifyVerdict(report: VerifyReport): { tone: 'good' | 'incomplete' | 'problems'; text: string } {
  if (report.problems.length > 0) return { tone: 'problems', text: 'Verify found problems' };
  // With no problem found, a file of the set not on disk is one still queued.
  const left = stillToDownload(report);
  if (left > 0) {
    return {
      tone: 'incomplete',
      text: `${formatCount(report.onDisk)} of ${formatCount(report.files)} on disk and intact; ${formatCount(left)} still to download`,
    };
  }
  const unlisted = report.noLongerListed > 0 ? `; ${formatCount(report.noLongerListed)} no longer listed by the archive` : '';
  return { tone: 'good', text: `All good: ${plural(report.onDisk, 'file')} on disk, each as downloaded${unlisted}` };
}
