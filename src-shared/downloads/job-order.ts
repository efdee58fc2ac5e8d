// The order of the download list, written once: by default the work in progress first (what moves, then what waits,
// then what failed, then what finished, newest first), or by a column the user picked. The core turns these tables
// into SQL (src-main/core/downloads/job-pages.ts); the renderer sorts with the comparator below to tell whether a
// changed job moves (DownloadsStore.apply). Ties end on the queue's own order, which a job keeps.
import type { JobState } from './job-state';
import type { JobSort, SortKey } from './job-page';
import type { JobView } from './progress-types';

/** A group of the default order: its states, and whether its jobs go newest end first (else in queue order). */
export interface WorkGroup {
  states: readonly JobState[];
  ended: boolean;
}

/** The default order's groups: moving, waiting (queued or paused, in queue order), failed, finished. */
export const WORK_GROUPS: readonly WorkGroup[] = [
  { states: ['active'], ended: false },
  { states: ['queued', 'paused'], ended: false },
  { states: ['failed'], ended: true },
  { states: ['done', 'cancelled'], ended: true },
];

/** The State column's order: the groups' states in turn (paused after queued, cancelled after done). */
export const STATE_RANK = Object.fromEntries(WORK_GROUPS.flatMap((group) => group.states).map((state, rank) => [state, rank])) as Record<JobState, number>;

/** A job's group in the default order. */
export const GROUP_OF = Object.fromEntries(WORK_GROUPS.flatMap((group, index) => group.states.map((state) => [state, index]))) as Record<JobState, number>;

/** A value an order compares: how a job's view gives it, and whether it may be missing (then last either way). */
interface OrderValue {
  of: (job: JobView) => string | number | null;
  missing: boolean;
}

/** The values the orders compare; the core says where each is in the jobs table (job-pages.ts COLUMN_OF). */
export const ORDER_VALUES = {
  stateRank: { of: (job) => STATE_RANK[job.state], missing: false },
  filename: { of: (job) => job.filename, missing: false },
  instrument: { of: (job) => job.instrument, missing: false },
  product: { of: (job) => job.product, missing: false },
  dateObs: { of: (job) => job.dateObs, missing: true },
  expectedSize: { of: (job) => job.expectedSize, missing: false },
  finishedAt: { of: (job) => job.finishedAt, missing: true },
} satisfies Record<string, OrderValue>;
export type OrderValueName = keyof typeof ORDER_VALUES;

/** Each column's values, compared in turn, all in the direction the user picked. */
export const SORT_TERMS: Record<SortKey, readonly OrderValueName[]> = {
  state: ['stateRank'],
  name: ['filename'],
  product: ['instrument', 'product'],
  dateObs: ['dateObs'],
  size: ['expectedSize'],
  finishedAt: ['finishedAt'],
};

type Compare = (a: JobView, b: JobView) => number;

/** One value's comparator in a direction (1 or -1); a missing value goes last whichever the direction. */
function byValue(name: OrderValueName, sign: number): Compare {
  const { of } = ORDER_VALUES[name];
  return (a, b) => {
    const x = of(a);
    const y = of(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return x < y ? -sign : x > y ? sign : 0;
  };
}

const newestEndFirst = byValue('finishedAt', -1);

/** The comparator of an order; `positionOf` is the job's place in the engine's list (the queue order). */
export function jobComparator(sort: JobSort | null, positionOf: (id: number) => number): Compare {
  const byPosition: Compare = (a, b) => positionOf(a.id) - positionOf(b.id);
  if (sort === null) {
    return (a, b) => {
      const group = GROUP_OF[a.state];
      return group - GROUP_OF[b.state] || (WORK_GROUPS[group]!.ended ? newestEndFirst(a, b) : 0) || byPosition(a, b);
    };
  }
  const terms = SORT_TERMS[sort.key].map((name) => byValue(name, sort.direction === 'ascending' ? 1 : -1));
  return (a, b) => {
    for (const term of terms) {
      const order = term(a, b);
      if (order !== 0) return order;
    }
    return byPosition(a, b);
  };
}
