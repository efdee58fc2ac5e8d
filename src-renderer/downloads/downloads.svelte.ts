// The download queue as the engine reports it. The list can hold a million jobs, so the window never holds it whole:
// it asks the core for the pages of rows in view (ordered, filtered and counted in SQL, job-pages.ts) and keeps a few
// of them; progress events patch the rows loaded in place, and a change that moves rows (a file ending, one queued)
// reloads the rows in view, no more often than the core can afford.
import { createContext } from 'svelte';
import { countInStates } from '../../src-shared/downloads/job-counts';
import type { JobPage, JobPlace } from '../../src-shared/downloads/job-page';
import type { JobState } from '../../src-shared/downloads/job-state';
import type { JobCounts, JobView, OverallProgress, ProgressUpdate, RunProgress } from '../../src-shared/downloads/progress-types';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';
import { FIRST_DIRECTION, jobComparator, type JobSort, type SortKey } from './job-order';
import { folderWithin } from './folder-within';
import { noteOf } from './job-text';
import { Request } from '../lib/request.svelte';

export type { JobPlace };

const NO_COUNTS: JobCounts = { total: 0, queued: 0, active: 0, paused: 0, done: 0, failed: 0, cancelled: 0 };

const NO_RUN: RunProgress = { ...NO_COUNTS, number: 0, inProgress: false, bytesReceived: 0, bytesWritten: 0 };

const EMPTY_OVERALL: OverallProgress = {
  ...NO_COUNTS,
  bytesReceived: 0,
  bytesWritten: 0,
  speed: 0,
  etaSeconds: null,
  queuePaused: false,
  pauseReason: null,
  run: NO_RUN,
};

/** The list's view filters: "Active" is what is moving now (at most the concurrency), "Queued" what waits its turn. */
export const JOB_FILTERS = {
  all: { label: 'All', states: null },
  active: { label: 'Active', states: ['active'] },
  queued: { label: 'Queued', states: ['queued'] },
  paused: { label: 'Paused', states: ['paused'] },
  failed: { label: 'Failed', states: ['failed'] },
  done: { label: 'Done', states: ['done'] },
  cancelled: { label: 'Cancelled', states: ['cancelled'] },
} as const satisfies Record<string, { label: string; states: readonly JobState[] | null }>;
export type JobFilter = keyof typeof JOB_FILTERS;

type JobChannel = 'downloads:pause' | 'downloads:resume' | 'downloads:cancel' | 'downloads:retry' | 'downloads:move-to-front';
type QueueChannel = 'downloads:pause-all' | 'downloads:resume-all' | 'downloads:retry-failed' | 'downloads:clear-finished';

/** Rows in a page, the unit the window asks for and keeps. */
const PAGE_ROWS = 100;
/** Pages kept (a few screenfuls either side of the view); the oldest read goes first. */
const KEPT_PAGES = 24;
/** At most one reload of the rows in view this often, and never more than a fifth of the core's time. */
const RELOAD_MS = 300;
const RELOAD_COST_SHARE = 5;
/** How long the rows keep their places after a row's control, while the pointer stays on the list. */
export const HOLD_MS = 3_000;

const twoLines = (job: JobView | undefined): boolean => job !== undefined && noteOf(job) !== '';

/** The rows that sort the same for an order (a changed job that compares equal to its old view stays where it is). */
const sameKey = (sort: JobSort | null) => jobComparator(sort, () => 0);

export class DownloadsStore {
  overall = $state.raw<OverallProgress>(EMPTY_OVERALL);
  /** Why the engine paused the queue by itself (disk full, sign-in refused); null when running or paused by the user. */
  pauseReason = $state.raw<ErrorData | null>(null);
  /** A short note after a control did something not visible in the list (e.g. "Retrying 3 files"). */
  note = $state<string | null>(null);
  /** How many rows the list has: the files of the state tab and place chosen. */
  rowCount = $state(0);
  /** Goes up whenever loaded rows change, so the table reads them again. */
  rowsVersion = $state(0);
  /** Goes up whenever rows moved (or a row gained or lost its note line), so the table measures row heights again. */
  layoutVersion = $state(0);
  /** Every folder a job goes to, for the folder filter. */
  folders = $state.raw<string[]>([]);
  /** The state tabs' counts within the place chosen; null while the list shows every folder (the overall figures count). */
  placeCounts = $state.raw<JobCounts | null>(null);
  /** True once the list has been loaded: pages in view are asked for from then on. */
  private loaded = false;
  /** The folder list is to be asked for (at the first load, and after the finished files are cleared). */
  private foldersOwed = true;
  /** The note speaks of work under way ("Retrying 3 files."): it goes when the run doing that work ends. */
  private noteLastsWhileRunning = false;

  private filterValue = $state<JobFilter>('all');
  /** null: the work in progress first. */
  private sortValue = $state.raw<JobSort | null>(null);
  private placeValue = $state.raw<JobPlace | null>(null);

  /** The list's first rows with its counts; a failure stays on screen while it is asked for again. */
  private readonly listing = new Request<JobPage>({ keepErrorWhileLoading: true });
  /** The controls: what the last one pressed said is what the screen shows. */
  private readonly controls = new Request<unknown>();

  private readonly client: ApiClient;
  // The pages and the index of their rows are plain (not reactive): rowsVersion says when they changed.
  /** Loaded pages by number, oldest read first. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private pages = new Map<number, JobView[]>();
  /** Where each loaded job sits in the list (its row number). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private rowOf = new Map<number, number>();
  /** Numbers the list's arrangements: pages asked for under an earlier order, tab or place are dropped. */
  private arrangement = 0;
  /** The rows in view, as the table last said. */
  private view = { first: 0, last: 0 };
  private fetching = false;
  /** Rows in view may be out of date (a job moved, left or arrived): they are read again when the budget allows. */
  private stale = false;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private lastReloadAt = 0;
  private lastFetchMs = 0;
  private compare = sameKey(null);
  /** Rows changed height since the table last measured them. */
  private relaid = false;
  /**
   * The pointer moves over the list, or a row was acted on: every row keeps its place (a progress event still updates
   * each where it is) so that a click lands on the row under the pointer; the order applies again when the hold ends
   * (releaseRows).
   */
  private held = false;
  private holdTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(client: ApiClient) {
    this.client = client;
    client.on('downloads:progress', (update) => this.apply(update));
    client.on('downloads:queue-paused', (reason) => {
      this.pauseReason = reason;
      this.overall = { ...this.overall, queuePaused: true, pauseReason: reason };
    });
    client.on('downloads:queue-resumed', () => {
      this.pauseReason = null;
      this.overall = { ...this.overall, queuePaused: false, pauseReason: null };
    });
  }

  get loading(): boolean {
    return this.listing.loading;
  }

  /** A control (or the list) that failed, in the app's words. */
  get error(): ErrorData | null {
    return this.controls.error ?? this.listing.error;
  }

  get filter(): JobFilter {
    return this.filterValue;
  }

  set filter(filter: JobFilter) {
    this.filterValue = filter;
    void this.refresh();
  }

  get sort(): JobSort | null {
    return this.sortValue;
  }

  get place(): JobPlace | null {
    return this.placeValue;
  }

  /** A column's header: sorts by it, or reverses its order when it already sorts. */
  sortBy(key: SortKey): void {
    const current = this.sortValue;
    const direction = current?.key === key ? (current.direction === 'ascending' ? 'descending' : 'ascending') : FIRST_DIRECTION[key];
    this.setSort({ key, direction });
  }

  /** An order chosen whole (the Order list): null is the default, the work in progress first. */
  setSort(sort: JobSort | null): void {
    this.sortValue = sort;
    void this.refresh();
  }

  showPlace(place: JobPlace | null): void {
    this.placeValue = place;
    void this.refresh();
  }

  /** The row at `index` of the list, if its page is loaded (read `rowsVersion` to follow changes). */
  rowAt(index: number): JobView | undefined {
    return this.pages.get(Math.floor(index / PAGE_ROWS))?.[index % PAGE_ROWS];
  }

  /** The rows loaded, page by page (first to last row number): the only rows whose height can differ. */
  *loadedRanges(): Generator<{ first: number; last: number }> {
    for (const [number, rows] of this.pages) yield { first: number * PAGE_ROWS, last: number * PAGE_ROWS + rows.length - 1 };
  }

  /** How many rows the window holds now (a few pages, however long the list). */
  get heldRows(): number {
    let rows = 0;
    for (const page of this.pages.values()) rows += page.length;
    return rows;
  }

  /** The table's rows in view (first to last, overscan included): their pages are loaded if they are not. */
  showRows(first: number, last: number): void {
    this.view = { first, last };
    void this.fetchMissing();
  }

  /**
   * Loads the list again from its first rows in view, with its counts (and the queue's overall figures), then the
   * folders if they are owed: on entering the screen, after a control that changed what the list holds, or a new
   * order, tab or place.
   */
  async refresh(): Promise<void> {
    const arrangement = ++this.arrangement;
    this.endHold();
    this.compare = sameKey(this.sortValue);
    this.stale = false;
    const request = this.pageRequest(this.viewPages(), true);
    const started = performance.now();
    const result = await this.listing.run(() => this.client.invoke('downloads:page', request));
    // Asked for after the rows (the core answers one call at a time, and the rows come first), and only when owed:
    // at a million jobs the folders are a scan of the whole ledger, and the progress events bring new ones.
    if (this.foldersOwed) void this.loadFolders();
    if (!result?.ok || arrangement !== this.arrangement) return;
    this.lastFetchMs = performance.now() - started;
    const page = result.value;
    if (page.overall) this.setOverall(page.overall);
    this.placeCounts = this.placeValue === null ? null : page.counts;
    this.rowCount = this.countShown(page.counts ?? this.overall);
    this.replacePages(page);
    this.loaded = true;
    this.published();
    void this.fetchMissing();
  }

  /** The folder filter's choices: a GROUP BY over the whole list, so asked for apart from the rows. */
  private async loadFolders(): Promise<void> {
    this.foldersOwed = false;
    const folders = await this.client.invoke('downloads:folders');
    if (folders.ok) this.folders = folders.value;
    else this.foldersOwed = true;
  }

  /** Tells the table the rows changed, and whether their heights did. */
  private published(): void {
    this.rowsVersion++;
    if (this.relaid) this.layoutVersion++;
    this.relaid = false;
  }

  /**
   * A progress event: each changed job that is loaded replaces its old view in place, at a cost that follows the
   * changed jobs, never the list. A job that would move (its key in the order changed), leave the tab, or that is not
   * loaded (new, or elsewhere in the list) makes the rows in view stale: they are read again soon, not at once.
   */
  apply(update: ProgressUpdate): void {
    if (update.jobs.length > 0) {
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local set, never shown
      const copied = new Set<number>();
      let changed = false;
      const counts = this.placeCounts && { ...this.placeCounts };
      for (const job of update.jobs) {
        const row = this.rowOf.get(job.id);
        const number = row === undefined ? undefined : Math.floor(row / PAGE_ROWS);
        const page = number === undefined ? undefined : this.pages.get(number);
        const old = page?.[row! % PAGE_ROWS];
        if (!this.folders.includes(job.folder)) this.folders = [...this.folders, job.folder].sort();
        if (!page || !old || old.id !== job.id) {
          this.stale = true;
          continue;
        }
        if (!this.shows(job) || this.compare(old, job) !== 0) this.stale = true;
        // A loaded job's old state is known, so the place's counts follow it at once.
        if (counts && this.inPlace(old)) counts[old.state]--;
        if (counts && this.inPlace(job)) counts[job.state]++;
        let rows = page;
        if (!copied.has(number!)) {
          rows = page.slice();
          this.pages.set(number!, rows);
          copied.add(number!);
        }
        rows[row! % PAGE_ROWS] = job;
        changed = true;
        this.relaid ||= twoLines(old) !== twoLines(job);
      }
      if (counts) this.placeCounts = counts;
      if (changed) this.published();
    }
    this.setOverall(update.overall);
    // Every folder: the tabs count from the overall figures, and so does the list's length.
    if (this.placeValue === null && !this.fetching && !this.held) this.rowCount = this.countShown(this.overall);
    if (this.stale) this.scheduleReload();
  }

  /** The files of a listing that are downloaded (done, in the list): for the player, asked for when it opens. */
  async finishedOf(filenames: readonly string[]): Promise<JobView[]> {
    const result = await this.client.invoke('downloads:finished-of', { filenames: [...filenames] });
    if (result.ok) return result.value;
    this.controls.error = result.error;
    return [];
  }

  private pageRequest(pages: { first: number; last: number }, counted: boolean) {
    const states: readonly JobState[] | null = JOB_FILTERS[this.filterValue].states;
    return {
      offset: pages.first * PAGE_ROWS,
      limit: (pages.last - pages.first + 1) * PAGE_ROWS,
      states: states && [...states],
      place: this.placeValue,
      sort: this.sortValue,
      counted,
    };
  }

  /** The pages of the rows in view, at most five (the core's page limit). */
  private viewPages(): { first: number; last: number } {
    const first = Math.floor(this.view.first / PAGE_ROWS);
    return { first, last: Math.min(first + 4, Math.floor(this.view.last / PAGE_ROWS)) };
  }

  /** Loads the pages in view not loaded yet, one request at a time (the newest view wins). */
  private async fetchMissing(): Promise<void> {
    if (this.fetching || !this.loaded) return;
    const pages = this.viewPages();
    let first = pages.first;
    while (first <= pages.last && this.pages.has(first)) first++;
    let last = pages.last;
    while (last >= first && this.pages.has(last)) last--;
    if (first > last || first * PAGE_ROWS >= this.rowCount) return;
    await this.fetchPages({ first, last }, false);
    void this.fetchMissing();
  }

  /** Reads the rows in view again (they went stale), with the place's counts when a place is chosen. */
  private async reload(): Promise<void> {
    // The rows stay stale until the hold ends, which reloads them.
    if (this.held) return;
    if (this.fetching) return this.scheduleReload();
    this.stale = false;
    this.lastReloadAt = performance.now();
    await this.fetchPages(this.viewPages(), true);
  }

  private async fetchPages(pages: { first: number; last: number }, reloading: boolean): Promise<void> {
    const arrangement = this.arrangement;
    const counted = reloading && this.placeValue !== null;
    this.fetching = true;
    const started = performance.now();
    try {
      const result = await this.client.invoke('downloads:page', this.pageRequest(pages, counted));
      if (!result.ok || arrangement !== this.arrangement) return;
      this.lastFetchMs = performance.now() - started;
      if (counted && result.value.counts) {
        this.placeCounts = result.value.counts;
        this.rowCount = this.countShown(result.value.counts);
      } else if (this.placeValue === null) {
        this.rowCount = this.countShown(this.overall);
      }
      if (reloading) this.replacePages(result.value);
      else this.addPages(result.value);
      this.published();
    } finally {
      this.fetching = false;
    }
  }

  private scheduleReload(): void {
    if (this.reloadTimer !== undefined) return;
    const wait = Math.max(RELOAD_MS, RELOAD_COST_SHARE * this.lastFetchMs) - (performance.now() - this.lastReloadAt);
    this.reloadTimer = setTimeout(
      () => {
        this.reloadTimer = undefined;
        void this.reload();
      },
      Math.max(0, wait),
    );
  }

  /** The rows of an answer in place of every page kept (the list may have moved under the others). */
  private replacePages(page: JobPage): void {
    for (const number of [...this.pages.keys()]) this.setPage(number, undefined);
    this.addPages(page);
  }

  private addPages(page: JobPage): void {
    for (let start = 0; start < page.jobs.length; start += PAGE_ROWS) {
      const number = (page.offset + start) / PAGE_ROWS;
      this.setPage(number, undefined);
      this.setPage(number, page.jobs.slice(start, start + PAGE_ROWS));
    }
    while (this.pages.size > KEPT_PAGES) this.setPage(this.pages.keys().next().value!, undefined);
  }

  /** Puts a page in the cache (last, as the newest read) or takes it out, noting whether rows changed height. */
  private setPage(number: number, rows: JobView[] | undefined): void {
    const old = this.pages.get(number);
    old?.forEach((job, index) => {
      if (this.rowOf.get(job.id) === number * PAGE_ROWS + index) this.rowOf.delete(job.id);
    });
    this.pages.delete(number);
    if (rows) {
      this.pages.set(number, rows);
      rows.forEach((job, index) => this.rowOf.set(job.id, number * PAGE_ROWS + index));
    }
    // A row not loaded is laid out as one line: heights change where a row of two lines comes or goes.
    for (let index = 0; index < PAGE_ROWS && !this.relaid; index++) {
      if (twoLines(old?.[index]) !== twoLines(rows?.[index])) this.relaid = true;
    }
  }

  private countShown(counts: JobCounts): number {
    return countInStates(counts, JOB_FILTERS[this.filterValue].states);
  }

  private inPlace(job: JobView): boolean {
    const place = this.placeValue;
    if (place === null || job.folder === place.folder) return true;
    return place.nested && folderWithin(job.folder, place.folder);
  }

  private shows(job: JobView): boolean {
    const states: readonly JobState[] | null = JOB_FILTERS[this.filterValue].states;
    return (states === null || states.includes(job.state)) && this.inPlace(job);
  }

  /** Queue-wide controls: pause all, resume all, retry failed, clear finished. */
  async runQueue(channel: QueueChannel): Promise<void> {
    // What a control did to the list is followed even when another control was pressed before it answered.
    await this.controls.run(async () => {
      const result = await this.client.invoke(channel);
      if (!result.ok) return result;
      if (channel === 'downloads:retry-failed' && typeof result.value === 'number' && result.value > 0) {
        // The engine put the files back in the queue before answering, so every update from now on is of the run
        // retrying them; the first that says the run has ended takes the note away.
        this.showNote(`Retrying ${result.value === 1 ? '1 file' : `${result.value} files`}.`, true);
      }
      // Cleared jobs leave the engine's list, which progress events cannot say; reload it.
      if (channel === 'downloads:clear-finished') {
        // A folder whose files were all finished leaves the list with them.
        this.foldersOwed = true;
        this.showNote(`Cleared ${result.value === 1 ? '1 finished file' : `${result.value} finished files`} from the list.`, false);
        await this.refresh();
      }
      return result;
    });
  }

  async runJob(channel: JobChannel, id: number): Promise<void> {
    // Moving a file to the front asks for a new place; the other controls leave the row where it was clicked.
    if (channel !== 'downloads:move-to-front') this.holdRows();
    await this.controls.run(async () => {
      const result = await this.client.invoke(channel, { id });
      // The order of the list is the queue's order, which only a snapshot tells.
      if (result.ok && channel === 'downloads:move-to-front') await this.refresh();
      return result;
    });
  }

  /** Keeps every row in its place for HOLD_MS from now, or until releaseRows (the pointer left the list). */
  holdRows(): void {
    this.held = true;
    clearTimeout(this.holdTimer);
    this.holdTimer = setTimeout(() => this.releaseRows(), HOLD_MS);
  }

  /** Ends a hold: the rows that went stale meanwhile take the list's order (the pointer left the list, or time passed). */
  releaseRows(): void {
    if (!this.held) return;
    this.endHold();
    if (this.placeValue === null) this.rowCount = this.countShown(this.overall);
    if (this.stale) this.scheduleReload();
  }

  private endHold(): void {
    this.held = false;
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
  }

  /** Opens the download folder (or another) in the system file manager. */
  async openFolder(path?: string): Promise<void> {
    await this.controls.run(() => this.client.invoke('shell:open-folder', path === undefined ? {} : { path }));
  }

  async showFile(id: number): Promise<void> {
    await this.controls.run(() => this.client.invoke('shell:show-file', { id }));
  }

  dismissError(): void {
    this.controls.error = null;
    this.listing.error = null;
  }

  dismissNote(): void {
    this.note = null;
    this.noteLastsWhileRunning = false;
  }

  private showNote(note: string, lastsWhileRunning: boolean): void {
    this.note = note;
    this.noteLastsWhileRunning = lastsWhileRunning;
  }

  private setOverall(overall: OverallProgress): void {
    this.overall = overall;
    this.pauseReason = overall.queuePaused ? overall.pauseReason : null;
    if (this.noteLastsWhileRunning && !overall.run.inProgress) this.dismissNote();
  }
}

/** The window's DownloadsStore: App.svelte provides it, the queue's views use it (throws outside <App>). */
export const [useDownloads, provideDownloads] = createContext<DownloadsStore>();
