// The download queue as the engine reports it: a snapshot on entry, then progress events that carry only the
// jobs that changed. Queues can hold thousands of jobs, so updates patch a raw array in place of a deep proxy.
import type { ResultOf } from '../../src-shared/contract/contract';
import type { JobState } from '../../src-shared/downloads/job-state';
import type { JobCounts, JobView, OverallProgress, ProgressUpdate, RunProgress } from '../../src-shared/downloads/progress-types';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';
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

export class DownloadsStore {
  jobs = $state.raw<JobView[]>([]);
  overall = $state.raw<OverallProgress>(EMPTY_OVERALL);
  /** Why the engine paused the queue by itself (disk full, sign-in refused); null when running or paused by the user. */
  pauseReason = $state.raw<ErrorData | null>(null);
  filter = $state<JobFilter>('all');
  /** A short note after a control did something not visible in the list (e.g. "Retrying 3 files"). */
  note = $state<string | null>(null);
  /** The note speaks of work under way ("Retrying 3 files."): it goes when the run doing that work ends. */
  private noteLastsWhileRunning = false;

  visibleJobs = $derived.by(() => {
    const states: readonly JobState[] | null = JOB_FILTERS[this.filter].states;
    return states === null ? this.jobs : this.jobs.filter((job) => states.includes(job.state));
  });

  /** The engine's list; a failure stays on screen while it is asked for again. */
  private readonly snapshot = new Request<ResultOf<'downloads:snapshot'>>({ keepErrorWhileLoading: true });
  /** The controls: what the last one pressed said is what the screen shows. */
  private readonly controls = new Request<unknown>();

  private readonly client: ApiClient;
  /** Where each job id sits in `jobs`; `jobs` itself is the reactive value, this index is not. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private positions = new Map<number, number>();

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

  async refresh(): Promise<void> {
    const result = await this.snapshot.run(() => this.client.invoke('downloads:snapshot'));
    if (!result?.ok) return;
    this.jobs = result.value.jobs;
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- see `positions`
    this.positions = new Map(result.value.jobs.map((job, index) => [job.id, index]));
    this.setOverall(result.value.overall);
  }

  apply(update: ProgressUpdate): void {
    if (update.jobs.length > 0) {
      const jobs = this.jobs.slice();
      for (const job of update.jobs) {
        const position = this.positions.get(job.id);
        if (position === undefined) {
          this.positions.set(job.id, jobs.length);
          jobs.push(job);
        } else {
          jobs[position] = job;
        }
      }
      this.jobs = jobs;
    }
    this.setOverall(update.overall);
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
