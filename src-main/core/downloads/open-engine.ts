// Opens the engine on a state folder: takes the folder's lock, opens (or migrates, or replaces a damaged)
// ledger, takes the campaigns' copies back into a ledger that started anew, and hands back one object to
// close it all again, with what was done for the front end to say once.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CampaignBackups, describeCampaignRestore, restoreCampaigns, type CampaignRestore } from '../campaigns/campaign-backups';
import { CampaignStore } from '../campaigns/campaign-store';
import { DownloadEngine, type DownloadEngineOptions } from './download-engine';
import type { DownloadLedger } from './download-ledger';
import { onFolder } from '../folder-errors';
import { describeLedgerRecovery, openLedgerRecovering, type LedgerRecovery } from './ledger-recovery';
import { lockStateFolder } from '../state/state-lock';

export { describeLedgerRecovery, type LedgerRecovery } from './ledger-recovery';

export const LEDGER_FILE = 'downloads.sqlite';

export { defaultStateFolder } from '../state/state-folder';

/** What was done to make the ledger usable, and the sentences each front end tells the user once. */
export interface LedgerOpening {
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
  close(): Promise<void>;
}

export interface OpenedLedger extends LedgerOpening {
  ledger: DownloadLedger;
  close(): void;
}

/**
 * The state folder's ledger alone, under the folder's lock, for work that queues nothing (a campaign's list, its
 * verify or export): no engine starts, so no crash recovery runs in folders the user did not name.
 */
export async function openStateLedger(stateFolder: string, options: { sqliteNativeBinding?: string } = {}): Promise<OpenedLedger> {
  const folder = path.resolve(stateFolder);
  await onFolder(folder, 'state', 'create', () => mkdir(folder, { recursive: true }));
  const native = options.sqliteNativeBinding ? { nativeBinding: options.sqliteNativeBinding } : {};
  const lock = lockStateFolder(folder, native);
  try {
    const opened = openLedgerRecovering(path.join(folder, LEDGER_FILE), native);
    try {
      return {
        ledger: opened.ledger,
        ...describedOpening(opened.ledger, opened.recovered),
        close: () => {
          opened.ledger.close();
          lock.release();
        },
      };
    } catch (error) {
      opened.ledger.close();
      throw error;
    }
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * A ledger that started anew (replaced, deleted, or simply the first) takes back the campaigns whose copies are
 * in the state folder: campaigns live in the ledger's file, and without this a replaced ledger would lose them.
 */
function describedOpening(ledger: DownloadLedger, recovered: LedgerRecovery | undefined): LedgerOpening {
  const backups = CampaignBackups.beside(ledger);
  if (backups && !ledger.startedEmpty) keepCopies(ledger, backups);
  const restore = backups && ledger.startedEmpty ? restoreCampaigns(new CampaignStore(ledger), backups) : undefined;
  const campaignRestore = restore && (restore.restored.length > 0 || restore.unreadable.length > 0) ? restore : undefined;
  const sentences = [
    ...(recovered ? [describeLedgerRecovery(recovered)] : campaignRestore ? [`The download ledger ${ledger.location ?? ''} was missing or empty, so a new one was started.`] : []),
    ...(campaignRestore ? [describeCampaignRestore(campaignRestore)] : []),
  ];
  return {
    ...(recovered ? { recovered } : {}),
    ...(campaignRestore ? { campaignRestore } : {}),
    ...(sentences.length > 0 ? { notice: sentences.join(' ') } : {}),
  };
}

export async function openDownloadEngine(
  stateFolder: string,
  options: Omit<DownloadEngineOptions, 'ledger'> & { sqliteNativeBinding?: string },
): Promise<OpenedEngine> {
  const { sqliteNativeBinding, ...engineOptions } = options;
  const state = await openStateLedger(stateFolder, sqliteNativeBinding ? { sqliteNativeBinding } : {});
  try {
    const engine = new DownloadEngine({ ...engineOptions, ledger: state.ledger });
    await engine.start();
    return {
      engine,
      ledger: state.ledger,
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

/** A ledger's campaigns all get their copies, even those made before copies were kept. */
function keepCopies(ledger: DownloadLedger, backups: CampaignBackups): void {
  try {
    backups.keepUpWith(new CampaignStore(ledger).list());
  } catch {
    // Best effort, so that a start never fails here: the next change to a campaign writes its copy or says why not.
  }
}
