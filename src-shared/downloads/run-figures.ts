// A run's figures in words: the status bar's "9 of 12 files" and the desktop notice when the run ends read the
// same goal from here, so the two cannot count a run differently.
import { formatCount, plural } from '../format/counts';
import type { RunProgress } from './progress-types';

/** The files the run still aims to finish: cancelled files no longer count towards it. */
export function runGoal(run: RunProgress): number {
  return run.total - run.cancelled;
}

/** How an ended run went, failures first: "2 failed, 10 of 12 files done" (or "12 of 12 files done"). */
export function runEndText(run: RunProgress): string {
  const parts = run.failed > 0 ? [`${formatCount(run.failed)} failed`] : [];
  parts.push(`${formatCount(run.done)} of ${plural(runGoal(run), 'file')} done`);
  if (run.cancelled > 0) parts.push(`${formatCount(run.cancelled)} cancelled`);
  return parts.join(', ');
}
