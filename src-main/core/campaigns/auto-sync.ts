// "Sync automatically every N hours while the app is open": a campaign whose last sync is older than its period is
// synced, one at a time, while someone is signed in. Checked once a minute; a tick is also what tests call.
import type { StoredCampaign } from './campaign-store';

export interface AutoSyncDeps {
  campaigns(): StoredCampaign[];
  canSync(): Promise<boolean>;
  isSyncing(name: string): boolean;
  sync(name: string): Promise<unknown>;
}

const CHECK_EVERY_MS = 60_000;
const HOUR_MS = 3_600_000;

export class AutoSync {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly deps: AutoSyncDeps) {}

  start(): void {
    this.timer ??= setInterval(() => void this.tick(Date.now()), CHECK_EVERY_MS);
    // The app quits when its window closes: this timer must not keep it alive.
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Syncs the campaigns that are due at `nowMs`; the names synced. A tick while one runs does nothing. */
  async tick(nowMs: number): Promise<string[]> {
    if (this.running) return [];
    const synced: string[] = [];
    const work = (async () => {
      const due = this.deps.campaigns().filter((campaign) => isDue(campaign, nowMs) && !this.deps.isSyncing(campaign.name));
      if (due.length === 0 || !(await this.deps.canSync())) return;
      for (const campaign of due) {
        // One failing campaign (the server away, a full disk) does not stop the others; its error is on its events.
        await this.deps.sync(campaign.name).then(
          () => synced.push(campaign.name),
          () => undefined,
        );
      }
    })();
    this.running = work;
    try {
      await work;
    } finally {
      this.running = undefined;
    }
    return synced;
  }
}

export function isDue(campaign: Pick<StoredCampaign, 'autoSyncHours' | 'lastSyncAt'>, nowMs: number): boolean {
  if (campaign.autoSyncHours === null) return false;
  if (campaign.lastSyncAt === null) return true;
  return nowMs - Date.parse(campaign.lastSyncAt) >= campaign.autoSyncHours * HOUR_MS;
}
