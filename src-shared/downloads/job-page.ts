// A page of the download list as the Downloads screen asks for it: the rows from `offset` in the chosen order,
// among the files of the chosen states and place. The core computes the order, filter and counts in SQL
// (job-pages.ts), so a queue of a million jobs never crosses to the renderer whole.
import type { JobState } from './job-state';
import type { JobCounts, JobView, OverallProgress } from './progress-types';

export const SORT_KEYS = ['state', 'name', 'product', 'dateObs', 'size', 'finishedAt'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = 'ascending' | 'descending';
export interface JobSort {
  key: SortKey;
  direction: SortDirection;
}

/** Where the list looks: one folder, or a campaign's folder with the folders its layout makes under it. */
export interface JobPlace {
  folder: string;
  nested: boolean;
}

/** The most rows one page carries. */
export const JOB_PAGE_MAX_ROWS = 500;

export interface JobPageRequest {
  offset: number;
  limit: number;
  /** null: every state. */
  states: JobState[] | null;
  /** null: every folder. */
  place: JobPlace | null;
  /** null: the work in progress first (moving, waiting, failed, finished newest first). */
  sort: JobSort | null;
  /** Also count the place's files by state (a GROUP BY over the place: asked for when the list is loaded, not per page). */
  counted: boolean;
}

export interface JobPage {
  offset: number;
  jobs: JobView[];
  /** The place's files by state, when asked for (`counted`). */
  counts: JobCounts | null;
  /** The queue's figures, when the counts were asked for (the list is loaded anew). */
  overall: OverallProgress | null;
}
