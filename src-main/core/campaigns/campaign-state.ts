// The campaigns' part of the state folder: their tables (campaign-migrations.ts), and what they do each time the
// folder opens. Campaigns live in the ledger's file, so a ledger that lacks campaigns whose copies are in the state
// folder (one that started anew: replaced after damage, deleted, or simply the first; or another folder's ledger
// copied over this one's) takes them back; without this they would be lost. A ledger's own campaigns each get their
// copy, even those made before copies were kept.
import type { StateDomain } from '../state/open-state-folder';
import type { StateDatabase } from '../state/state-database';
import { CampaignBackups, describeCampaignRestore, keepOlderSharedLists, restoreCampaigns, type CampaignRestore } from './campaign-backups';
import { COUNTED_BULK_INSERTS, keepCountingCurrent } from './campaign-counting';
import { CAMPAIGN_MIGRATIONS } from './campaign-migrations';
import { CampaignStore } from './campaign-store';

export const CAMPAIGN_STATE: StateDomain<CampaignRestore> = {
  domain: 'campaigns',
  migrations: CAMPAIGN_MIGRATIONS,
  keepDerived: (db) => void keepCountingCurrent(db),
  bulkInsertWatches: COUNTED_BULK_INSERTS,
  opened: (database) => {
    const backups = CampaignBackups.beside(database);
    if (!backups) return undefined;
    // First, so that a copy out of date (or damaged) of a campaign the ledger holds is not taken for a missing one.
    tidyCopies(database, backups);
    const restore = restoreCampaigns(database, backups);
    // Said when something came back, or could not; a copy that cannot be read beside a ledger that lost nothing is
    // said when it would have mattered (a new ledger), not at every start.
    const worthSaying = restore.restored.length > 0 || (database.startedEmpty && restore.unreadable.length > 0);
    return worthSaying ? { report: restore, notice: describeCampaignRestore(restore) } : undefined;
  },
};

/**
 * A ledger's campaigns all get their copies, even those made before copies were kept, and the shared file lists of
 * those imported before lists were kept; lists a killed import left go.
 */
function tidyCopies(database: StateDatabase, backups: CampaignBackups): void {
  try {
    if (!database.startedEmpty) {
      const store = new CampaignStore(database);
      backups.keepUpWith(store.list());
      keepOlderSharedLists(store, backups);
    }
    backups.removeAbandonedLists();
  } catch {
    // Best effort, so that a start never fails here: the next change to a campaign writes its copy or says why not.
  }
}
