// The watcher's own rules, fed the events by hand: each run told once, even one seen only after it ended; a run
// cancelled whole and a pause by the user told not at all.
import { describe, expect, it } from 'vitest';
import type { OverallProgress, RunProgress } from '../../src-shared/downloads/progress-types';
import { FinishWatcher, type FinishNotice } from '../../src-shared/notices/finish-notices';

function overall(run: Partial<RunProgress>): OverallProgress {
  const counts = { total: 0, queued: 0, active: 0, paused: 0, done: 0, failed: 0, cancelled: 0 };
  return {
    ...counts,
    bytesReceived: 0,
    bytesWritten: 0,
    speed: 0,
    etaSeconds: null,
    queuePaused: false,
    pauseReason: null,
    run: { ...counts, number: 1, inProgress: false, bytesReceived: 0, bytesWritten: 0, ...run },
  };
}

function watcher(): { notices: FinishNotice[]; watch: FinishWatcher } {
  const notices: FinishNotice[] = [];
  return { notices, watch: new FinishWatcher({ notify: (notice) => notices.push(notice), showDock: () => undefined }) };
}

describe('the finish watcher', () => {
  it('tells a run seen only once it had ended, and tells it once', () => {
    const { notices, watch } = watcher();
    const ended = overall({ number: 1, total: 3, done: 3 });
    watch.observe('downloads:progress', { jobs: [], overall: ended });
    watch.observe('downloads:progress', { jobs: [], overall: ended });
    expect(notices).toEqual([{ title: 'Downloads finished', body: '3 of 3 files done', problem: false }]);
  });

  it('says nothing of a run cancelled whole, nor of a pause by the user', () => {
    const { notices, watch } = watcher();
    watch.observe('downloads:progress', { jobs: [], overall: overall({ number: 1, total: 2, cancelled: 2 }) });
    watch.observe('downloads:queue-paused', null);
    expect(notices).toEqual([]);
  });
});
