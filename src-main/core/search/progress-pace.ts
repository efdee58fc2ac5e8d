// A search's progress as the window hears of it: at most one announcement per interval while rows arrive (each
// batch of a thousand would be hundreds a second), the latest one at the end of the interval, and the listing's end
// at once, since a count that says "complete" must not wait.
import type { SearchProgress } from '../../../src-shared/search/result-page';

const PROGRESS_INTERVAL_MS = 100;

export function pacedProgress(announce: (progress: SearchProgress) => void, intervalMs = PROGRESS_INTERVAL_MS): (progress: SearchProgress) => void {
  let lastAt = -Infinity;
  let pending: SearchProgress | undefined;
  let timer: NodeJS.Timeout | undefined;
  const send = (progress: SearchProgress): void => {
    clearTimeout(timer);
    timer = undefined;
    pending = undefined;
    lastAt = performance.now();
    announce(progress);
  };
  return (progress) => {
    if (progress.complete || progress.failure !== null || performance.now() - lastAt >= intervalMs) {
      send(progress);
      return;
    }
    pending = progress;
    timer ??= setTimeout(() => send(pending!), intervalMs - (performance.now() - lastAt)).unref();
  };
}
