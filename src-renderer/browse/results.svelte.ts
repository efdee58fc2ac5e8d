// The last search and what is selected in it. The core keeps the search's rows (a listing can hold a million
// files), so the window holds its count and summary, and reads the pages of rows in view, as the Downloads screen
// does: the first rows show while the rest of the listing still arrives, and the count grows until it is complete.
import type { EnqueueSummary, FilesQuery } from '../../src-shared/contract/contract';
import type { DownloadedFrame } from '../../src-shared/downloads/downloaded-frames';
import { binsOf, type TimelineBins } from '../../src-shared/coverage/timeline-bins';
import type { ErrorData } from '../../src-shared/errors';
import { totalText } from '../../src-shared/format/human-size';
import { LISTING_COLUMNS, type ListingColumn } from '../../src-shared/listing/listing-columns';
import { runsOf } from '../../src-shared/search/position-runs';
import {
  RESULT_POSITIONS_MAX_ROWS,
  RESULT_SORT_KEYS,
  type PositionRun,
  type ResultPage,
  type ResultRow,
  type ResultSort,
  type ResultSortKey,
  type SearchProgress,
} from '../../src-shared/search/result-page';
import { campaignQueryOf, describeFilters, sameQuery } from '../campaigns/campaign-text';
import type { ApiClient } from '../lib/api';
import { dayOf } from '../lib/format';
import { Request } from '../lib/request.svelte';
import { RowSelection } from './row-selection.svelte';

export interface ListingSummary {
  count: number;
  /** The listing is still arriving: the count will grow. */
  arriving: boolean;
  /** Why the listing stopped before its end (the rows until then are shown), or null. */
  stoppedBecause: string | null;
  /** "2.9 GB", or "≥ 2.9 GB" when some sizes are unknown. */
  totalText: string;
  lowerBound: boolean;
  firstDay: string | null;
  lastDay: string | null;
  /** The listing's columns: the optional ones (UCoMP's wave region, say) only when some file has a value for them. */
  columns: readonly ListingColumn[];
}

function summarise(progress: SearchProgress): ListingSummary {
  const { summary } = progress;
  const optional = new Set(summary.optionalFields);
  return {
    count: progress.count,
    arriving: !progress.complete && progress.failure === null,
    stoppedBecause: progress.failure?.message ?? null,
    totalText: totalText(summary.bytes, summary.unknownSizes),
    lowerBound: summary.unknownSizes,
    firstDay: summary.firstDateObs === null ? null : dayOf(summary.firstDateObs),
    lastDay: summary.lastDateObs === null ? null : dayOf(summary.lastDateObs),
    columns: LISTING_COLUMNS.filter((column) => !column.optional || optional.has(column.field)),
  };
}

function listingEnded(progress: SearchProgress): boolean {
  return progress.complete || progress.failure !== null;
}

/** Rows in a page, the unit the window asks for and keeps. */
const RESULT_PAGE_ROWS = 100;
/** Pages kept (a few screenfuls either side of the view); the oldest read goes first. */
const PAGES_KEPT = 30;
/** The pages one request may ask for: the core's most rows a page carries. */
const PAGES_PER_REQUEST = 5;
/** How often the timeline is binned again while the listing arrives (the core counts only the rows new since). */
const TIMELINE_REFRESH_MS = 1000;
/** The listing's own order: the default, and the one a selection is sent in (its row numbers are positions). */
const LISTED: ResultSort = { key: 'listed', direction: 'ascending' };

/** The order a grid column's field sorts by, if Browse offers one (the sort keys are the listing's field names). */
export function sortKeyOf(field: string): ResultSortKey | null {
  return (RESULT_SORT_KEYS as readonly string[]).includes(field) && field !== 'listed' ? (field as ResultSortKey) : null;
}

/** A column's header clicked: ascending, then descending, then the listing's own order again. */
export function nextSort(current: ResultSort, key: ResultSortKey): ResultSort {
  if (current.key !== key) return { key, direction: 'ascending' };
  return current.direction === 'ascending' ? { key, direction: 'descending' } : LISTED;
}

const isListed = (sort: ResultSort): boolean => sort.key === 'listed';

/** A page of rows and the count the core had when it read them. */
interface LoadedPage {
  rows: ResultRow[];
  readAt: number;
}

export type EnqueueOutcome = { summary: EnqueueSummary; requested: number } | { error: ErrorData };

export class ResultsStore {
  /** The search on screen: its id, count so far and summary figures (search:progress keeps them current). */
  kept = $state.raw<SearchProgress | null>(null);
  readonly summary = $derived(this.kept ? summarise(this.kept) : null);
  /** The search's files binned in time, by the core: when it starts and when its listing is complete. */
  timeline = $state.raw<TimelineBins | null>(null);
  /** The query of the search on screen: a search that fails or is cancelled leaves it as it was. */
  query = $state.raw<FilesQuery | null>(null);
  /** The query of the search running, or of the last one started. */
  searchedFor = $state.raw<FilesQuery | null>(null);
  /**
   * The results no longer answer what the form asks (another product, other dates, a search that failed): they are
   * shown dimmed and cannot be downloaded or saved until the search runs again. The form's query is the request
   * Search would send, so one rule (the search's own normalisation, then sameQuery) decides.
   */
  readonly stale = $derived.by(() => {
    if (!this.kept || !this.query) return false;
    const asked = this.formQuery();
    return asked === null || !sameQuery(campaignQueryOf(asked), campaignQueryOf(this.query));
  });
  selection = new RowSelection();
  /** What the last "Download" did, shown until dismissed or the next search. */
  enqueueOutcome = $state.raw<EnqueueOutcome | null>(null);
  /** Goes up whenever the rows loaded change, so the table reads them again. */
  rowsVersion = $state(0);
  /** The order the rows are shown in (the listing's own until a column's header is clicked). */
  sort = $state.raw<ResultSort>(LISTED);

  private readonly client: ApiClient;
  private readonly formQuery: () => FilesQuery | null;
  /** The search whose answer is still wanted; a cancelled or superseded search's answer is dropped. */
  private readonly searchRequest = new Request<SearchProgress>();
  private readonly enqueueRequest = new Request<EnqueueSummary>();
  /** How many files the Download in flight hands to the queue. */
  private enqueueRequested = $state(0);
  // The pages are plain (not reactive): rowsVersion says when they changed.
  /** Loaded pages by number, oldest read first. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly pages = new Map<number, LoadedPage>();
  /** The rows in view (first to last), whose pages are asked for. */
  private view = { first: 0, last: -1 };
  private fetching = false;
  /**
   * When the newest timeline request went out, and whether it was answered: while the listing arrives, the timeline
   * is asked for again a while after the last answer (binning a span that grows reads every row again).
   */
  private timelineAsked: { at: number; answered: boolean } | null = null;
  /** The search whose timeline waits for its first page of rows. */
  private timelineAfterRows: string | null = null;

  /** `formQuery` is what Search would send now (null while the form cannot send one); without a form, the results' own. */
  constructor(client: ApiClient, formQuery: () => FilesQuery | null = () => this.query) {
    this.client = client;
    this.formQuery = formQuery;
    client.on('search:progress', (progress) => this.grew(progress));
  }

  get searching(): boolean {
    return this.searchRequest.loading;
  }

  /** Why the last search failed, in the service's words. */
  get error(): ErrorData | null {
    return this.searchRequest.error;
  }

  /** How many files are being handed to the queue right now (0 when idle). */
  get enqueueing(): number {
    return this.enqueueRequest.loading ? this.enqueueRequested : 0;
  }

  /**
   * The row at `index` in the order shown, if its page is loaded (read `rowsVersion` to follow changes). A page read
   * before the count last grew is shown until it is read again, so the rows do not blink while a listing arrives.
   */
  rowAt(index: number): ResultRow | undefined {
    return this.pages.get(Math.floor(index / RESULT_PAGE_ROWS))?.rows[index % RESULT_PAGE_ROWS];
  }

  /** How many files a Download would hand to the queue: the one count the buttons, the notice and the request use. */
  requestedBy(which: 'selected' | 'all'): number {
    return which === 'all' ? (this.kept?.count ?? 0) : this.selection.count;
  }

  /** Shows the rows in another order: pages are read again, the selection (of files, not rows) stays. */
  sortBy(sort: ResultSort): void {
    if (sort.key === this.sort.key && sort.direction === this.sort.direction) return;
    this.sort = sort;
    this.pages.clear();
    this.rowsVersion += 1;
    // A shift range starts from a row of the order shown; in another order that row is another file.
    this.selection.anchor = null;
    this.selection.anchorPosition = null;
    void this.loadView();
  }

  /** Click or Space: toggles the file shown at `index` (its position asked for when its page is not loaded). */
  async toggleRow(index: number): Promise<void> {
    const known = this.rowAt(index);
    if (known) {
      this.selection.toggle(known.position, index);
      return;
    }
    const runs = await this.positionsOf(index, index);
    if (runs?.length === 1) this.selection.toggle(runs[0]!.first, index);
  }

  /** Shift-click or Shift+arrow: selects the rows shown from the anchor (or `index` alone) to `index`. */
  async extendTo(index: number): Promise<void> {
    const from = this.anchorRow() ?? index;
    const runs = await this.positionsOf(Math.min(from, index), Math.max(from, index));
    if (runs) this.selection.add(runs);
  }

  /**
   * The row the anchor's file is shown at now: rows arriving in a column's order move it, so it is looked for on the
   * pages read at the current count; the row number it had when clicked otherwise.
   */
  private anchorRow(): number | null {
    const { anchor, anchorPosition } = this.selection;
    if (anchor === null || anchorPosition === null) return anchor;
    for (const [number, page] of this.pages) {
      if (!this.current(page)) continue;
      const at = page.rows.findIndex((row) => row.position === anchorPosition);
      if (at >= 0) return number * RESULT_PAGE_ROWS + at;
    }
    return anchor;
  }

  /**
   * The listing positions of the rows shown `first` to `last`, as runs; null when the search or the order changed
   * meanwhile. The listing's order needs no asking, nor do rows whose pages were read at the current count; others
   * are asked of the core, a capped range at a time, so a range over a million rows is a few small answers.
   */
  private async positionsOf(first: number, last: number): Promise<PositionRun[] | null> {
    const kept = this.kept;
    const sort = this.sort;
    if (!kept || first < 0 || last >= kept.count || last < first) return null;
    if (isListed(sort)) return [sort.direction === 'ascending' ? { first, last } : { first: kept.count - 1 - last, last: kept.count - 1 - first }];
    const loaded = this.loadedPositions(first, last);
    if (loaded) return runsOf(loaded);
    const runs: PositionRun[] = [];
    for (let from = first; from <= last; from += RESULT_POSITIONS_MAX_ROWS) {
      const to = Math.min(last, from + RESULT_POSITIONS_MAX_ROWS - 1);
      const result = await this.client.invoke('search:positions', { searchId: kept.searchId, sort, first: from, last: to });
      if (!result.ok || this.kept?.searchId !== kept.searchId || this.sort !== sort) return null;
      for (const run of result.value) runs.push(run);
    }
    return runs;
  }

  /** The positions of rows `first` to `last` when every one of them is on a page read at the current count. */
  private loadedPositions(first: number, last: number): number[] | null {
    const positions: number[] = [];
    for (let index = first; index <= last; index++) {
      const page = this.pages.get(Math.floor(index / RESULT_PAGE_ROWS));
      const row = page?.rows[index % RESULT_PAGE_ROWS];
      if (!page || !row || !this.current(page)) return null;
      positions.push(row.position);
    }
    return positions;
  }

  /**
   * Whether a page still shows what the core would answer: read at the current count, or, in the listing's own order
   * (where rows only arrive at the end), a full page. In a column's order rows arriving land anywhere.
   */
  private current(page: LoadedPage): boolean {
    const count = this.kept?.count ?? 0;
    if (page.readAt >= count) return true;
    return this.sort.key === 'listed' && this.sort.direction === 'ascending' && page.rows.length === RESULT_PAGE_ROWS;
  }

  /** The table's rows in view (first to last, overscan included): their pages are asked for if not loaded. */
  showRows(first: number, last: number): void {
    this.view = { first, last };
    void this.loadView();
  }

  async search(query: FilesQuery): Promise<void> {
    this.enqueueOutcome = null;
    this.searchedFor = query;
    const result = await this.searchRequest.run(() => this.client.invoke('search:start', query));
    if (!result?.ok) return;
    this.query = query;
    this.sort = LISTED;
    this.pages.clear();
    this.rowsVersion += 1;
    this.kept = result.value;
    this.timeline = null;
    this.selection.reset(result.value.count);
    // The first rows go first: the timeline is asked for once they are in (both take the core's time and the window's).
    this.timelineAfterRows = result.value.searchId;
    void this.loadView();
  }

  /** Stops the listing in the core (the rows so far stay), and the window stops waiting for a search not answered yet. */
  cancelSearch(): void {
    const waiting = this.searchRequest.loading;
    this.searchRequest.cancel();
    const running = this.kept && !this.kept.complete && !this.kept.failure ? this.kept.searchId : undefined;
    if (waiting || running) void this.client.invoke('search:cancel', waiting ? {} : { searchId: running });
  }

  /**
   * Queues the search's files, all or the selected rows. Only the search's id and the selected rows as ranges go to
   * the core, which keeps the rows: a million-file download does not send a million entries back.
   */
  async enqueue(which: 'selected' | 'all'): Promise<EnqueueOutcome | null> {
    const kept = this.kept;
    // One Download at a time: a second press while the first is queued would queue the files twice.
    if (!kept || this.stale || this.enqueueRequest.loading) return null;
    // "All" selected is "Download all": the core follows the listing to its end, rows still arriving included.
    const ranges = which === 'all' || this.selection.all ? undefined : this.selection.ranges();
    const requested = this.requestedBy(which);
    if (requested === 0) return null;
    this.enqueueRequested = requested;
    const result = await this.enqueueRequest.run(() =>
      this.client.invoke('downloads:enqueue', { searchId: kept.searchId, ...(ranges ? { selection: { sort: LISTED, ranges } } : {}) }),
    );
    if (!result) return null;
    const outcome: EnqueueOutcome = result.ok ? { summary: result.value, requested } : { error: result.error };
    this.enqueueOutcome = outcome;
    return outcome;
  }

  /** The search's files a finished download holds, in listing order: Play's frames. */
  async downloadedFrames(): Promise<DownloadedFrame[]> {
    const kept = this.kept;
    if (!kept) return [];
    const result = await this.client.invoke('search:downloaded', { searchId: kept.searchId });
    return result.ok ? result.value : [];
  }

  /** Forgets the results on screen (they were another server's): no file of them can be downloaded any more. */
  clear(): void {
    this.searchRequest.reset();
    this.kept = null;
    this.pages.clear();
    this.rowsVersion += 1;
    this.sort = LISTED;
    this.timeline = null;
    this.query = null;
    this.searchedFor = null;
    this.enqueueOutcome = null;
    this.selection.reset(0);
  }

  dismissError(): void {
    this.searchRequest.error = null;
  }

  dismissOutcome(): void {
    this.enqueueOutcome = null;
  }

  /** The search on screen counted more rows, or its listing ended: the pages no longer current are read again. */
  private grew(progress: SearchProgress): void {
    const kept = this.kept;
    if (!kept || progress.searchId !== kept.searchId || progress.count < kept.count) return;
    this.kept = progress;
    this.selection.grow(progress.count);
    // The timeline is binned again once the listing ends, complete or stopped early, and now and then while it arrives.
    if (listingEnded(progress)) {
      if (!listingEnded(kept)) void this.loadTimeline(progress.searchId);
    } else if (
      this.timelineAfterRows === null &&
      (!this.timelineAsked || (this.timelineAsked.answered && performance.now() - this.timelineAsked.at >= TIMELINE_REFRESH_MS))
    ) {
      void this.loadTimeline(progress.searchId);
    }
    void this.loadView();
  }

  private async loadTimeline(searchId: string): Promise<void> {
    const asked = { at: performance.now(), answered: false };
    this.timelineAsked = asked;
    const result = await this.client.invoke('search:timeline', { searchId });
    asked.answered = true;
    // Only the answer to the newest request is shown: an older one counted fewer rows.
    if (!result.ok || this.kept?.searchId !== searchId || !result.value || this.timelineAsked !== asked) return;
    const { size, edges, counts } = result.value;
    this.timeline = binsOf({ size, edges }, Uint32Array.from(counts));
  }

  /** Loads the pages in view not loaded yet, one request at a time (the newest view wins). */
  private async loadView(): Promise<void> {
    const kept = this.kept;
    if (this.fetching || !kept || kept.count === 0 || this.view.last < this.view.first) return;
    const lastRow = Math.min(this.view.last, kept.count - 1);
    const loaded = (number: number): boolean => {
      const page = this.pages.get(number);
      return page !== undefined && this.current(page);
    };
    let first = Math.floor(this.view.first / RESULT_PAGE_ROWS);
    let last = Math.floor(lastRow / RESULT_PAGE_ROWS);
    while (first <= last && loaded(first)) first++;
    while (last >= first && loaded(last)) last--;
    if (first > last) return;
    last = Math.min(last, first + PAGES_PER_REQUEST - 1);
    const sort = this.sort;
    this.fetching = true;
    try {
      const result = await this.client.invoke('search:page', {
        searchId: kept.searchId,
        offset: first * RESULT_PAGE_ROWS,
        limit: (last - first + 1) * RESULT_PAGE_ROWS,
        sort,
      });
      if (result.ok && this.kept?.searchId === kept.searchId && this.sort === sort) this.addPages(result.value);
    } finally {
      this.fetching = false;
    }
    if (this.timelineAfterRows === kept.searchId && this.kept?.searchId === kept.searchId) {
      this.timelineAfterRows = null;
      void this.loadTimeline(kept.searchId);
    }
    // The view may have moved, or the answer fallen short of it, while the page was on its way.
    if (this.kept?.searchId === kept.searchId) void this.loadView();
  }

  private addPages(page: ResultPage): void {
    const firstPage = Math.floor(page.offset / RESULT_PAGE_ROWS);
    for (let at = 0; at < page.rows.length; at += RESULT_PAGE_ROWS) {
      const number = firstPage + at / RESULT_PAGE_ROWS;
      this.pages.delete(number);
      this.pages.set(number, { rows: page.rows.slice(at, at + RESULT_PAGE_ROWS), readAt: page.count });
    }
    while (this.pages.size > PAGES_KEPT) this.pages.delete(this.pages.keys().next().value!);
    this.rowsVersion += 1;
  }
}

/** A query as one line: "kcor pb, 2025-03-24 UT · Every 30minutes". */
export function describeQuery(query: FilesQuery): string {
  return `${query.instrument} ${query.product}, ${describeFilters(campaignQueryOf(query).filters)}`;
}
