// What the app tells a user whose window is not in front: a run of downloads ended (failures first), a campaign's
// sync ended, or the queue stopped by itself (a full disk, a lost session); and what the dock or taskbar shows meanwhile
// (the run's progress, the failed files). Read from the events the window gets, so a notice's numbers are the window's
// own, worded by the same functions. Plain data: the desktop app's main side and web mode's page both use it.
import type { EventChannel, EventChannels } from '../contract/contract';
import type { CampaignCounts } from '../campaigns/campaign-types';
import { syncSummary } from '../campaigns/count-text';
import { runEndText, runGoal } from '../downloads/run-figures';
import { formatCount } from '../format/counts';
import { displayName } from '../format/display-text';

export interface FinishNotice {
  title: string;
  body: string;
  /** Something went wrong (failures, a stopped queue, a failed sync): the platform may show it more insistently. */
  problem: boolean;
}

/** What the dock or taskbar shows: the run's share done (null when no run goes on), and the failed files. */
export interface DockState {
  fraction: number | null;
  paused: boolean;
  failed: number;
}

export interface FinishWatcherOptions {
  notify(notice: FinishNotice): void;
  showDock(state: DockState): void;
}

/** Follows the core's events; `observe` is given every event the window gets. */
export class FinishWatcher {
  /** The last run whose end was told (each is told once). */
  private lastRunTold = 0;
  /** Campaigns whose sync listed and queued, told once their files are no longer queued. */
  private readonly syncsEnding = new Set<string>();
  private lastDock = '';

  constructor(private readonly options: FinishWatcherOptions) {}

  observe<E extends EventChannel>(event: E, payload: EventChannels[E]): void {
    switch (event) {
      case 'downloads:progress':
        this.onProgress(payload as EventChannels['downloads:progress']);
        break;
      case 'downloads:queue-paused':
        this.onQueuePaused(payload as EventChannels['downloads:queue-paused']);
        break;
      case 'campaigns:sync-progress':
        this.onSyncProgress(payload as EventChannels['campaigns:sync-progress']);
        break;
      case 'campaigns:changed':
        this.onCampaignsChanged(payload as EventChannels['campaigns:changed']);
        break;
    }
  }

  private onProgress({ overall }: EventChannels['downloads:progress']): void {
    const { run } = overall;
    const goal = runGoal(run);
    this.dock({ fraction: run.inProgress && goal > 0 ? run.done / goal : null, paused: overall.queuePaused, failed: overall.failed });
    // Runs are numbered from 1 since the engine started; a short one may be seen only once it has ended.
    if (run.inProgress || run.number <= this.lastRunTold) return;
    this.lastRunTold = run.number;
    // A run the user cancelled whole has nothing to tell.
    if (run.done + run.failed === 0) return;
    const title = run.failed > 0 ? 'Downloads finished with failures' : 'Downloads finished';
    this.options.notify({ title, body: runEndText(run), problem: run.failed > 0 });
  }

  private onQueuePaused(reason: EventChannels['downloads:queue-paused']): void {
    // A pause by the user has no reason and needs no notice.
    if (reason === null) return;
    this.options.notify({ title: 'Downloads stopped', body: reason.message, problem: true });
  }

  private onSyncProgress({ campaign, phase, message }: EventChannels['campaigns:sync-progress']): void {
    if (phase === 'downloading' || phase === 'done') this.syncsEnding.add(campaign);
    if (phase !== 'failed') return;
    this.syncsEnding.delete(campaign);
    this.options.notify({ title: `${displayName(campaign)}: the sync failed`, body: message ?? 'The sync failed.', problem: true });
  }

  private onCampaignsChanged(overviews: EventChannels['campaigns:changed']): void {
    for (const overview of overviews) {
      if (!this.syncsEnding.has(overview.name) || overview.syncing || overview.counts.queued > 0) continue;
      this.syncsEnding.delete(overview.name);
      this.options.notify(campaignNotice(overview.name, overview.counts));
    }
  }

  private dock(state: DockState): void {
    // Progress arrives ten times a second; the dock is told only when what it shows changes.
    const key = JSON.stringify({ ...state, fraction: state.fraction === null ? null : Math.floor(state.fraction * 100) });
    if (key === this.lastDock) return;
    this.lastDock = key;
    this.options.showDock(state);
  }
}

function campaignNotice(name: string, counts: CampaignCounts): FinishNotice {
  // Failures first: the title names them, the body is the sync's summary as the campaign card words it.
  const problem = counts.failed > 0;
  const outcome = problem ? `${formatCount(counts.failed)} failed` : 'synced';
  return { title: `${displayName(name)}: ${outcome}`, body: syncSummary(counts), problem };
}
