// The download queue as the engine reports it: a snapshot on entry, then progress events that carry only the
// jobs that changed. Queues can hold thousands of jobs, so updates patch a raw array in place of a deep proxy.
import type { ResultOf } from '../../src-shared/contract/contract';
import type { JobState } from '../../src-shared/downloads/job-state';
import type { JobCounts, JobView, OverallProgress, ProgressUpdate, RunProgress } from '../../src-shared/downloads/progress-types';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';
import { FIRST_DIRECTION, insertionIndex, jobComparator, type JobSort, type SortKey } from '../lib/job-order';
import { noteOf } from '../lib/job-text';
import { Request } from '../lib/request.svelte';

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
  done: { label: 'Done', states: ['done', 'cancelled'] },
} as const satisfies Record<string, { label: string; states: readonly JobState[] | null }>;
export type JobFilter = keyof typeof JOB_FILTERS;

type JobChannel = 'downloads:pause' | 'downloads:resume' | 'downloads:cancel' | 'downloads:retry' | 'downloads:move-to-front';
type QueueChannel = 'downloads:pause-all' | 'downloads:resume-all' | 'downloads:retry-failed' | 'downloads:clear-finished';

/** Where the list looks: one folder, or a campaign's folder with the folders its layout makes under it. */
export interface JobPlace {
  folder: string;
  nested: boolean;
}

export class DownloadsStore {
  /** The engine's list, in its (queue) order. */
  jobs = $state.raw<JobView[]>([]);
  overall = $state.raw<OverallProgress>(EMPTY_OVERALL);
  /** Why the engine paused the queue by itself (disk full, sign-in refused); null when running or paused by the user. */
  pauseReason = $state.raw<ErrorData | null>(null);
  /** A short note after a control did something not visible in the list (e.g. "Retrying 3 files"). */
  note = $state<string | null>(null);
  /** The rows shown: the list filtered by state tab and place, in the chosen order. */
  visibleJobs = $state.raw<JobView[]>([]);
  /** Goes up whenever rows moved (or a row gained or lost its note line), so the table measures row heights again. */
  layoutVersion = $state(0);
  /** Every folder a job goes to, for the folder filter. */
  folders = $state.raw<string[]>([]);
  /** The state tabs' counts within the place chosen; null while the list shows every folder (the overall figures count). */
  placeCounts = $state.raw<JobCounts | null>(null);
  /** The note speaks of work under way ("Retrying 3 files."): it goes when the run doing that work ends. */
  private noteLastsWhileRunning = false;

  private filterValue = $state<JobFilter>('all');
  /** null: the work in progress first. */
  private sortValue = $state.raw<JobSort | null>(null);
  private placeValue = $state.raw<JobPlace | null>(null);

  /** The engine's list; a failure stays on screen while it is asked for again. */
  private readonly snapshot = new Request<ResultOf<'downloads:snapshot'>>({ keepErrorWhileLoading: true });
  /** The controls: what the last one pressed said is what the screen shows. */
  private readonly controls = new Request<unknown>();

  private readonly client: ApiClient;
  /** Where each job id sits in `jobs`; `jobs` itself is the reactive value, this index is not. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private positions = new Map<number, number>();
  private compare = jobComparator(null, (id) => this.positions.get(id) ?? 0);

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
    return this.snapshot.loading;
  }

  /** A control (or the list) that failed, in the app's words. */
  get error(): ErrorData | null {
    return this.controls.error ?? this.snapshot.error;
  }

  get filter(): JobFilter {
    return this.filterValue;
  }

  set filter(filter: JobFilter) {
    this.filterValue = filter;
    this.arrange();
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
    this.sortValue = { key, direction };
    this.arrange();
  }

  /** An order chosen whole (the Order list): null is the default, the work in progress first. */
  setSort(sort: JobSort | null): void {
    this.sortValue = sort;
    this.arrange();
  }

  showPlace(place: JobPlace | null): void {
    this.placeValue = place;
    this.arrange();
  }

  async refresh(): Promise<void> {
    const result = await this.snapshot.run(() => this.client.invoke('downloads:snapshot'));
    if (!result?.ok) return;
    this.jobs = result.value.jobs;
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- see `positions`
    this.positions = new Map(result.value.jobs.map((job, index) => [job.id, index]));
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a temporary set, only to drop repeats
    this.folders = [...new Set(result.value.jobs.map((job) => job.folder))].sort();
    this.arrange();
    this.setOverall(result.value.overall);
  }

  /**
   * A progress event: each changed job replaces its old view in place, and moves (a binary search out, another in)
   * only when its place in the order changed. Nothing is sorted again, so an event costs little even for a queue of
   * 100,000 files (a renderer test measures it).
   */
  apply(update: ProgressUpdate): void {
    if (update.jobs.length > 0) {
      const jobs = this.jobs.slice();
      const rows = this.visibleJobs.slice();
      const counts = this.placeCounts && { ...this.placeCounts };
      let relaid = false;
      for (const job of update.jobs) {
        let old: JobView | undefined;
        const position = this.positions.get(job.id);
        if (position === undefined) {
          this.positions.set(job.id, jobs.length);
          jobs.push(job);
          if (!this.folders.includes(job.folder)) this.folders = [...this.folders, job.folder].sort();
        } else {
          old = jobs[position];
          jobs[position] = job;
        }
        if (counts) {
          if (old && this.inPlace(old)) counts[old.state]--;
          if (this.inPlace(job)) counts[job.state]++;
          if (!old && this.inPlace(job)) counts.total++;
        }
        relaid = this.moveRow(rows, old, job) || relaid;
      }
      this.jobs = jobs;
      this.visibleJobs = rows;
      if (counts) this.placeCounts = counts;
      if (relaid) this.layoutVersion++;
    }
    this.setOverall(update.overall);
  }

  /** Puts `job` where `old` was in `rows`, or where it now belongs; true when rows moved or changed height. */
  private moveRow(rows: JobView[], old: JobView | undefined, job: JobView): boolean {
    const shown = this.shows(job);
    if (old && this.shows(old)) {
      let index = insertionIndex(rows, old, this.compare);
      if (rows[index] !== old) index = rows.indexOf(old);
      if (index >= 0) {
        const before = rows[index - 1];
        const after = rows[index + 1];
        if (shown && (!before || this.compare(before, job) < 0) && (!after || this.compare(job, after) < 0)) {
          rows[index] = job;
          return (noteOf(old) === '') !== (noteOf(job) === '');
        }
        rows.splice(index, 1);
      }
    } else if (!shown) {
      return false;
    }
    if (shown) rows.splice(insertionIndex(rows, job, this.compare), 0, job);
    return true;
  }

  private inPlace(job: JobView): boolean {
    const place = this.placeValue;
    if (place === null || job.folder === place.folder) return true;
    return place.nested && (job.folder.startsWith(`${place.folder}/`) || job.folder.startsWith(`${place.folder}\\`));
  }

  private shows(job: JobView): boolean {
    const states: readonly JobState[] | null = JOB_FILTERS[this.filterValue].states;
    return (states === null || states.includes(job.state)) && this.inPlace(job);
  }

  /** Filters and sorts the whole list: when it is loaded, or the order, tab or place changes. */
  private arrange(): void {
    this.compare = jobComparator(this.sortValue, (id) => this.positions.get(id) ?? 0);
    if (this.placeValue === null) {
      this.placeCounts = null;
    } else {
      const counts = { ...NO_COUNTS };
      for (const job of this.jobs) {
        if (!this.inPlace(job)) continue;
        counts.total++;
        counts[job.state]++;
      }
      this.placeCounts = counts;
    }
    this.visibleJobs = this.jobs.filter((job) => this.shows(job)).sort(this.compare);
    this.layoutVersion++;
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
        this.showNote(`Cleared ${result.value === 1 ? '1 finished file' : `${result.value} finished files`} from the list.`, false);
        await this.refresh();
      }
      return result;
    });
  }

  async runJob(channel: JobChannel, id: number): Promise<void> {
    await this.controls.run(async () => {
      const result = await this.client.invoke(channel, { id });
      // The order of the list is the queue's order, which only a snapshot tells.
      if (result.ok && channel === 'downloads:move-to-front') await this.refresh();
      return result;
    });
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
    this.snapshot.error = null;
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
