// A page of a search's results as Browse asks for it: the rows from `offset` in the chosen order, with how many the
// listing has given so far and whether it has ended. The core keeps the rows (src-main/core/search/), so a listing
// of a million files never crosses to the window whole.
import type { FileEntry } from '../api/schemas';
import type { TimelineScale } from '../coverage/timeline-bins';
import type { ErrorData } from '../errors';

/** The orders Browse offers: the listing's own, or a column's (its ties in the listing's order). */
export const RESULT_SORT_KEYS = ['listed', 'date-obs', 'filename', 'filesize', 'wave-region', 'obs-plan'] as const;
export type ResultSortKey = (typeof RESULT_SORT_KEYS)[number];
export interface ResultSort {
  key: ResultSortKey;
  direction: 'ascending' | 'descending';
}

/** The most rows one page carries. */
export const RESULT_PAGE_MAX_ROWS = 500;

export interface ResultPageRequest {
  /** The search the window shows: a page of another (an earlier, replaced one) is refused. */
  searchId: string;
  offset: number;
  limit: number;
  sort: ResultSort;
}

/** What a search's rows come to so far, added up as they arrive: the summary line's figures. */
export interface ResultSummary {
  /** The listed sizes added up; a file of unknown size (0) adds nothing and makes the sum a lower bound. */
  bytes: number;
  unknownSizes: boolean;
  /** The first and last date-obs listed; null before any row. */
  firstDateObs: string | null;
  lastDateObs: string | null;
  /** The optional columns (listing-columns.ts) some row has a value for: the grid shows those. */
  optionalFields: string[];
}

/** A search's rows so far, and whether the listing has ended (and how). */
export interface SearchProgress {
  searchId: string;
  /** Rows kept so far: every row, once `complete`. */
  count: number;
  /** The listing ended and every row of it is kept. */
  complete: boolean;
  /** Why the listing stopped before its end (the rows kept until then stay readable), or null. */
  failure: ErrorData | null;
  summary: ResultSummary;
}

/** A row with its place in the listing (0 for the first file listed): what a selection and a download name. */
export interface ResultRow {
  position: number;
  entry: FileEntry;
}

/** Listing positions `first` to `last` (inclusive): a selection's run, so a million positions in a row are one. */
export interface PositionRun {
  first: number;
  last: number;
}

/** The most rows one search:positions request covers, so its answer (at most a run per row) stays small. */
export const RESULT_POSITIONS_MAX_ROWS = 100_000;

/** The rows numbered `first` to `last` (inclusive) in `sort`'s order, whose listing positions are asked for. */
export interface ResultPositionsRequest {
  searchId: string;
  sort: ResultSort;
  first: number;
  last: number;
}

/**
 * Rows chosen as the window shows them: ranges of row numbers (first to last, inclusive, from 0) in `sort`'s order.
 * A rule, not a list: "all but a few" of a million rows is a few ranges, however the list is ordered.
 */
export interface ResultSelection {
  sort: ResultSort;
  ranges: { first: number; last: number }[];
}

/** A search's files per bin of its coverage timeline (counts as a plain list, to cross as JSON). */
export interface ResultTimeline extends TimelineScale {
  counts: number[];
}

export interface ResultPage extends SearchProgress {
  offset: number;
  rows: ResultRow[];
}
