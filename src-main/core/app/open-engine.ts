// Opens the engine on a state folder, with every domain that keeps its tables in the ledger's file: the downloads
// and the campaigns. They are named together here, above both, so that neither needs the other; the opening itself
// (lock, damaged-ledger recovery, each domain's part) is state/open-state-folder.ts.
import type { CampaignRestore } from '../campaigns/campaign-backups';
import { CAMPAIGN_STATE } from '../campaigns/campaign-state';
import { DownloadEngine, type DownloadEngineOptions } from '../downloads/download-engine';
import { DownloadLedger } from '../downloads/download-ledger';
import { DOWNLOAD_TABLES } from '../downloads/ledger-migrations';
import type { LedgerRecovery } from '../state/ledger-recovery';
import { openStateFolder, openStateFolderToRead, type OpenedStateFolder, type StateDomain, type StateFolderOptions } from '../state/open-state-folder';
import type { StateDatabase } from '../state/state-database';
import type { StateHolder } from '../state/state-folder-busy';

/** Every domain with tables in the state folder's database, each with its own migrations. */
export const STATE_DOMAINS: readonly StateDomain[] = [DOWNLOAD_TABLES, CAMPAIGN_STATE];

/** What was done to make the ledger usable, and the sentences each front end tells the user once. */
interface LedgerOpening {
  /** Set when the ledger was damaged and replaced. */
  recovered?: LedgerRecovery;
  /** Set when a ledger that started anew took campaigns back in from their copies (or found copies it could not read). */
  campaignRestore?: CampaignRestore;
  /** Set when either of the above happened: what to tell the user, in a sentence or two. */
  notice?: string;
}

export interface OpenedEngine extends LedgerOpening {
  engine: DownloadEngine;
  ledger: DownloadLedger;
  /** The database the ledger shares with the campaigns. */
  state: StateDatabase;
  close(): Promise<void>;
}

export interface OpenedLedger extends LedgerOpening {
  ledger: DownloadLedger;
  /** The database the ledger shares with the campaigns. */
  state: StateDatabase;
  /** Set when it was opened to read beside the program holding the state folder (readStateLedger): that program. */
  heldBy?: StateHolder;
  close(): void;
}

/**
 * The state folder's ledger alone, under the folder's lock, for work that queues nothing (a campaign's list, its
 * verify or export): no engine starts, so no crash recovery runs in folders the user did not name.
 */
export async function openStateLedger(stateFolder: string, options: StateFolderOptions = {}): Promise<OpenedLedger> {
  return ledgerOf(await openStateFolder(stateFolder, STATE_DOMAINS, options));
}

/**
 * The same for work that only reads (a campaign's list, show, export): read-only beside the program that holds the
 * state folder (the app, web mode, a sync) when one does (openStateFolderToRead), so that it works while that runs.
 */
export async function readStateLedger(stateFolder: string, options: StateFolderOptions = {}): Promise<OpenedLedger> {
  return ledgerOf(await openStateFolderToRead(stateFolder, STATE_DOMAINS, options));
}

function ledgerOf(opened: OpenedStateFolder): OpenedLedger {
  const campaignRestore = opened.reportOf(CAMPAIGN_STATE);
  return {
    ledger: new DownloadLedger(opened.database),
    state: opened.database,
    ...(opened.recovered ? { recovered: opened.recovered } : {}),
    ...(campaignRestore ? { campaignRestore } : {}),
    ...(opened.notice ? { notice: opened.notice } : {}),
    ...(opened.heldBy ? { heldBy: opened.heldBy } : {}),
    close: () => opened.close(),
  };
}

export async function openDownloadEngine(stateFolder: string, options: Omit<DownloadEngineOptions, 'ledger'> & StateFolderOptions): Promise<OpenedEngine> {
  const { program, ...engineOptions } = options;
  const state = await openStateLedger(stateFolder, program ? { program } : {});
  try {
    const engine = new DownloadEngine({ ...engineOptions, ledger: state.ledger });
    await engine.start();
    return {
      engine,
      ledger: state.ledger,
      state: state.state,
      ...(state.recovered ? { recovered: state.recovered } : {}),
      ...(state.campaignRestore ? { campaignRestore: state.campaignRestore } : {}),
      ...(state.notice ? { notice: state.notice } : {}),
      close: async () => {
        await engine.close();
        state.close();
      },
    };
  } catch (error) {
    state.close();
    throw error;
  }
}
