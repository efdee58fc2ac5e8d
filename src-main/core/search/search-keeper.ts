// The search Browse shows, kept by the core: its listing streams into a result table as it arrives (windowed and
// parsed as it comes, as `files --download` takes it), and the window reads pages of it, so the first rows show
// while the rest still arrives and no listing size limit stands between a user and a large search (the limit
// guards each answer, which the windows keep small, not the rows, which are on disk). A new search replaces the
// last: its listing is stopped and its rows dropped.
import { randomUUID } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { searchedRange } from '../../../src-shared/coverage/searched-range';
import { countPerBin, timelineScale, type TimelineScale } from '../../../src-shared/coverage/timeline-bins';
import type { FileEntry } from '../../../src-shared/api/schemas';
import type { FilesQuery } from '../../../src-shared/contract/contract';
import type { ErrorData } from '../../../src-shared/errors';
import { runsOf } from '../../../src-shared/search/position-runs';
import {
  RESULT_PAGE_MAX_ROWS,
  type PositionRun,
  type ResultPage,
  type ResultPageRequest,
  type ResultPositionsRequest,
  type ResultSelection,
  type ResultTimeline,
  type SearchProgress,
} from '../../../src-shared/search/result-page';
import type { RequestOptions } from '../api/http-transport';
import type { FilesRequest } from '../api/mlso-client';
import { InvalidInputError, toErrorData } from '../errors';
import { ReplacedSearchError, type ResultDatabase, type ResultTable } from './result-table';
import { ResultTally } from './result-tally';

/** What a search lists from: MlsoClient's streamed, windowed listing. */
export interface ListingSource {
  streamFiles(request: FilesRequest, onEntries: (entries: FileEntry[]) => Promise<void> | void, options?: RequestOptions): Promise<unknown>;
}

/** Rows binned for the timeline between two turns of the event loop. */
const TIMELINE_CHUNK = 10_000;

/** Rows whose names are looked up in the ledger at once (one query). */
const NAMES_CHUNK = 5000;

/** Entries handed to the download queue at once by "download all": a chunk is one ledger transaction. */
const ENQUEUE_CHUNK = 2000;

const CANCELLED: ErrorData = { kind: 'cancelled', message: 'The search was stopped before the listing ended; the files listed until then are shown.' };

class KeptSearch {
  readonly id = randomUUID();
  complete = false;
  failure: ErrorData | null = null;
  /** What ended the listing early, as thrown: a search that fails before any row is refused with it. */
  cause: unknown;
  readonly stop = new AbortController();
  readonly tally = new ResultTally();
  /** The timeline binned so far: its scale, counts and the rows counted into it (the listing only appends). */
  binned: { scale: TimelineScale; counts: Uint32Array; rows: number } | undefined;
  /** Called when rows arrive or the listing ends: "download all" waits on it for the rest. */
  private waiters: (() => void)[] = [];

  constructor(
    readonly query: FilesQuery,
    readonly table: ResultTable,
  ) {}

  get settled(): boolean {
    return this.complete || this.failure !== null;
  }

  progress(): SearchProgress {
    return { searchId: this.id, count: this.table.count, complete: this.complete, failure: this.failure, summary: this.tally.summary() };
  }

  changed(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  nextChange(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

export class SearchKeeper {
  private current: KeptSearch | undefined;

  /** `onProgress` hears of every batch kept and of the listing's end (the caller throttles what it shows). */
  constructor(
    private readonly results: ResultDatabase,
    private readonly listings: ListingSource,
    private readonly onProgress: (progress: SearchProgress) => void = () => {},
  ) {}

  /** Starts a search, replacing the last; its listing goes on in the background (see `whenSettled`). */
  start(query: FilesQuery): SearchProgress {
    this.current?.stop.abort();
    const search = new KeptSearch(query, this.results.newTable());
    this.current = search;
    const keep = async (entries: FileEntry[]): Promise<void> => {
      if (!(await search.table.append(entries))) throw new ReplacedSearchError();
      search.tally.add(entries);
      binArriving(search, entries, search.table.count - entries.length);
      search.changed();
      this.onProgress(search.progress());
    };
    void this.listings
      .streamFiles(query, keep, { signal: search.stop.signal })
      .then(
        () => {
          search.complete = true;
        },
        (error: unknown) => {
          search.cause = error;
          search.failure = search.stop.signal.aborted ? CANCELLED : toErrorData(error);
        },
      )
      .finally(() => {
        search.changed();
        if (this.current === search) this.onProgress(search.progress());
      });
    return search.progress();
  }

  /**
   * Stops the search's listing (the rows kept so far stay readable), or the current search's when none is named (the
   * window has no id until search:start answers, which waits for the first rows); false when it had ended or was replaced.
   */
  cancel(searchId?: string): boolean {
    const search = this.current;
    if (!search || (searchId !== undefined && search.id !== searchId) || search.settled) return false;
    search.stop.abort();
    return true;
  }

  progress(searchId: string): SearchProgress {
    return this.search(searchId).progress();
  }

  /** Resolves once the search's listing has ended, completely or not. */
  async whenSettled(searchId: string): Promise<SearchProgress> {
    const search = this.search(searchId);
    while (!search.settled) await search.nextChange();
    return search.progress();
  }

  /**
   * Resolves once the search has its first rows or its listing ended; rejects with what ended it when that was
   * before any row (a refused filter, a server that cannot be reached), as a search of the whole listing would.
   */
  async firstRows(searchId: string): Promise<SearchProgress> {
    const search = this.search(searchId);
    while (search.table.count === 0 && !search.settled) await search.nextChange();
    if (search.table.count === 0 && search.failure && search.failure.kind !== 'cancelled') throw search.cause;
    return search.progress();
  }

  /** A page in an order: the first page by a column waits for its index (ResultTable.sorted), holding up nothing else. */
  async page(request: ResultPageRequest): Promise<ResultPage> {
    await this.search(request.searchId).table.sorted(request.sort);
    const search = this.search(request.searchId);
    const limit = Math.min(request.limit, RESULT_PAGE_MAX_ROWS);
    // The count is read before the rows: a page never holds rows past the count it reports.
    const progress = search.progress();
    return { ...progress, offset: request.offset, rows: search.table.page(request.offset, Math.min(limit, progress.count - request.offset), request.sort) };
  }

  /**
   * The listing positions of the rows `first` to `last` in `sort`'s order, as runs in listing order: a shift-click
   * range over rows the window has not read. The contract caps the range (RESULT_POSITIONS_MAX_ROWS), so the answer
   * stays small whatever the order. Waits for the order's index as `page` does.
   */
  async positions(request: ResultPositionsRequest): Promise<PositionRun[]> {
    const { table } = this.search(request.searchId);
    await table.sorted(request.sort);
    return runsOf(table.positionsIn(request.sort, request.first, request.last));
  }

  /**
   * The search's files per bin of the coverage timeline over the span it covered (searched-range.ts, the window's
   * one rule), counted from the rows kept so far a chunk at a time (countPerBin, the same binning), yielding between
   * chunks so pages are answered meanwhile. Asked for again while the listing arrives, only the rows kept since are
   * counted, unless the span grew (a search without dates spans the files listed so far). Null before any row.
   */
  async timeline(searchId: string): Promise<ResultTimeline | null> {
    const search = this.search(searchId);
    const scale = scaleOf(search);
    if (scale === null) return null;
    const earlier = search.binned && sameScale(search.binned.scale, scale) ? search.binned : undefined;
    const counts = earlier ? earlier.counts.slice() : new Uint32Array(Math.max(0, scale.edges.length - 1));
    // Rows that arrive meanwhile are counted too while the span stays the same, so the count catches up with the
    // listing and the rows after it are binned as they come (binArriving).
    let rows = earlier?.rows ?? 0;
    const startedAt = search.table.count;
    for (;;) {
      const upTo = sameScale(scaleOf(search)!, scale) ? search.table.count : startedAt;
      if (rows >= upTo) break;
      const last = Math.min(upTo, rows + TIMELINE_CHUNK) - 1;
      const part = countPerBin(scale, search.table.dateObsFrom(rows, last));
      for (let bin = 0; bin < part.length; bin++) counts[bin]! += part[bin]!;
      rows = last + 1;
      await setImmediate();
    }
    // A newer call may have counted further meanwhile: the furthest count is kept.
    if (!search.binned || !sameScale(search.binned.scale, scale) || search.binned.rows <= rows) search.binned = { scale, counts, rows };
    return { size: scale.size, edges: scale.edges, counts: Array.from(counts) };
  }

  /**
   * The search's rows kept so far, a chunk at a time in listing order (their names and date-obs), yielding between
   * chunks so pages are answered meanwhile.
   */
  async *names(searchId: string): AsyncGenerator<{ filename: string; 'date-obs': string }[]> {
    const search = this.search(searchId);
    const rows = search.table.count;
    for (let first = 0; first < rows; first += NAMES_CHUNK) {
      yield search.table.namesFrom(first, Math.min(rows, first + NAMES_CHUNK) - 1);
      await setImmediate();
    }
  }

  /**
   * Hands the search's files to `add` (the download queue's enqueuer) in listing order: the rows `selection` chooses
   * (resolved here, whatever the order they were chosen in), or every one (null), following a listing still arriving
   * to its end. Rejects with why when the listing ended early: the files handed over until then stay queued.
   */
  async enqueue(searchId: string, selection: ResultSelection | null, add: (entries: FileEntry[]) => Promise<void>): Promise<number> {
    const search = this.search(searchId);
    if (selection !== null) {
      await search.table.sorted(selection.sort);
      const positions = chosenPositions(search.table, selection);
      for (let start = 0; start < positions.length; start += ENQUEUE_CHUNK) await add(search.table.entriesAt(positions.slice(start, start + ENQUEUE_CHUNK)));
      return positions.length;
    }
    let next = 0;
    for (;;) {
      const settled = search.settled;
      const entries = search.table.entriesFrom(next, ENQUEUE_CHUNK);
      if (entries.length > 0) {
        await add(entries);
        next += entries.length;
        continue;
      }
      if (settled) break;
      await search.nextChange();
    }
    if (search.failure) throw new InvalidInputError(`Only the first ${next} files were queued: ${search.failure.message}`);
    return next;
  }

  close(): void {
    this.current?.stop.abort();
    this.current = undefined;
    this.results.close();
  }

  private search(searchId: string): KeptSearch {
    const search = this.current;
    if (search?.id !== searchId) throw new ReplacedSearchError();
    return search;
  }
}

/** The positions a selection's ranges cover, each once, in listing order. */
function chosenPositions(table: ResultTable, selection: ResultSelection): number[] {
  const chosen = new Uint8Array(table.count);
  for (const { first, last } of selection.ranges) for (const position of table.positionsIn(selection.sort, first, last)) chosen[position] = 1;
  const positions: number[] = [];
  for (let position = 0; position < chosen.length; position++) if (chosen[position] === 1) positions.push(position);
  return positions;
}

const sameScale = (a: TimelineScale, b: TimelineScale): boolean =>
  a.size === b.size && a.edges.length === b.edges.length && a.edges.every((edge, at) => edge === b.edges[at]);

/** The coverage timeline's scale over what the search covered so far (searched-range.ts); null before any row. */
function scaleOf(search: KeptSearch): TimelineScale | null {
  const { firstDateObs, lastDateObs } = search.tally.summary();
  const range = firstDateObs === null || lastDateObs === null ? null : searchedRange(search.query.filters, [firstDateObs, lastDateObs]);
  return range === null ? null : timelineScale(range);
}

/**
 * Rows arriving after the timeline was first asked for are binned as they come, from the entries in hand, while the
 * span stays the same (set dates): the window's next request then reads no rows back. `before` is the count the
 * entries were appended after.
 */
function binArriving(search: KeptSearch, entries: readonly FileEntry[], before: number): void {
  const binned = search.binned;
  if (!binned || binned.rows !== before) return;
  const scale = scaleOf(search);
  if (scale === null || !sameScale(scale, binned.scale)) return;
  const part = countPerBin(
    scale,
    entries.map((entry) => entry['date-obs']),
  );
  for (let bin = 0; bin < part.length; bin++) binned.counts[bin]! += part[bin]!;
  binned.rows += entries.length;
}
