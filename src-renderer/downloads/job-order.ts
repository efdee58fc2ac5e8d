// The order of the download list as the screen uses it: the comparator and its tables are written once, in
// src-shared/downloads/job-order.ts (the core's SQL is made from the same tables); here is what only the screen
// needs, the direction a column's first click sorts in.
import type { JobSort, SortDirection, SortKey } from '../../src-shared/downloads/job-page';

export { jobComparator } from '../../src-shared/downloads/job-order';
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
