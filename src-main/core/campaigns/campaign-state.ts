// The campaigns' part of the state folder: their tables (campaign-migrations.ts), and what they do each time the
// folder opens. Campaigns live in the ledger's file, so a ledger that started anew (replaced after damage, deleted,
// or simply the first) takes back the campaigns whose copies are in the state folder; without this a replaced
// ledger would lose them. A ledger that kept them gives each its copy, even those made before copies were kept.
import type { StateDomain } from '../state/open-state-folder';
import type { StateDatabase } from '../state/state-database';
import { CampaignBackups, describeCampaignRestore, restoreCampaigns, type CampaignRestore } from './campaign-backups';
import { CAMPAIGN_MIGRATIONS } from './campaign-migrations';
import { CampaignStore } from './campaign-store';

export const CAMPAIGN_STATE: StateDomain<CampaignRestore> = {
  domain: 'campaigns',
  migrations: CAMPAIGN_MIGRATIONS,
  opened: (database) => {
    const backups = CampaignBackups.beside(database);
    if (!backups) return undefined;
    if (!database.startedEmpty) {
      keepCopies(database, backups);
      return undefined;
    }
    const restore = restoreCampaigns(new CampaignStore(database), backups);
    // Said only when there was something to take back, or a copy that could not be.
    return restore.restored.length > 0 || restore.unreadable.length > 0 ? { report: restore, notice: describeCampaignRestore(restore) } : undefined;
  },
};

/** A ledger's campaigns all get their copies, even those made before copies were kept. */
function keepCopies(database: StateDatabase, backups: CampaignBackups): void {
  try {
    backups.keepUpWith(new CampaignStore(database).list());
  } catch {
    // Best effort, so that a start never fails here: the next change to a campaign writes its copy or says why not.
  }
}
