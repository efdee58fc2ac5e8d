// The order of the download list: by default the work in progress first (what moves, then what waits, then what
// failed, then what finished, newest first), or by a column the user picked. The core sorts the list in SQL
// (job-pages.ts, whose tests hold it to these comparators); the window uses them to tell whether a changed job moves
// (DownloadsStore.apply). Every comparator is total: ties end on the engine's queue position, which a job keeps.
import type { JobState } from '../../src-shared/downloads/job-state';
import type { JobView } from '../../src-shared/downloads/progress-types';

import type { JobSort, SortDirection, SortKey } from '../../src-shared/downloads/job-page';

export type { JobSort, SortDirection, SortKey };

/** The direction a first click sorts in: sizes and end times biggest and newest first, the rest A to Z. */
export const FIRST_DIRECTION: Record<SortKey, SortDirection> = {
  state: 'ascending',
  name: 'ascending',
  product: 'ascending',
  dateObs: 'ascending',
  size: 'descending',
  finishedAt: 'descending',
};

/** The default order's groups: moving, waiting (queued or paused, in queue order), failed, finished. */
const GROUP: Record<JobState, number> = { active: 0, queued: 1, paused: 1, failed: 2, done: 3, cancelled: 3 };
/** The State column's order: the groups, with paused after queued and cancelled after done. */
const STATE_RANK: Record<JobState, number> = { active: 0, queued: 1, paused: 2, failed: 3, done: 4, cancelled: 5 };

type Compare = (a: JobView, b: JobView) => number;

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Missing values (no date-obs, not finished yet) go last whichever the direction. */
function nullsLast<T>(value: (job: JobView) => T | null, compare: (a: T, b: T) => number, sign: number): Compare {
  return (a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return sign * compare(x, y);
  };
}

const COLUMN: Record<SortKey, (sign: number) => Compare> = {
  state: (sign) => (a, b) => sign * (STATE_RANK[a.state] - STATE_RANK[b.state]),
  name: (sign) => (a, b) => sign * byText(a.filename, b.filename),
  product: (sign) => (a, b) => sign * (byText(a.instrument, b.instrument) || byText(a.product, b.product)),
  dateObs: (sign) => nullsLast((job) => job.dateObs, byText, sign),
  size: (sign) => (a, b) => sign * (a.expectedSize - b.expectedSize),
  finishedAt: (sign) => nullsLast((job) => job.finishedAt, byText, sign),
};

/** Failed and finished files newest first; the rest keep the queue's order. */
const newestEndFirst = nullsLast((job) => job.finishedAt, byText, -1);

/** The comparator of an order; `positionOf` is the job's place in the engine's list (the queue order). */
export function jobComparator(sort: JobSort | null, positionOf: (id: number) => number): Compare {
  const byPosition: Compare = (a, b) => positionOf(a.id) - positionOf(b.id);
  if (sort === null) {
    return (a, b) => GROUP[a.state] - GROUP[b.state] || (GROUP[a.state] >= 2 ? newestEndFirst(a, b) : 0) || byPosition(a, b);
  }
  const column = COLUMN[sort.key](sort.direction === 'ascending' ? 1 : -1);
  return (a, b) => column(a, b) || byPosition(a, b);
}
