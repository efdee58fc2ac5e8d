// Opens the engine on a state folder: takes the folder's lock, opens (or migrates, or replaces a damaged)
// ledger, and hands back one object to close it all again, with what was done about a damaged ledger.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DownloadEngine, type DownloadEngineOptions } from './download-engine';
import type { DownloadLedger } from './download-ledger';
import { onFolder } from './folder-errors';
import { openLedgerRecovering, type LedgerRecovery } from './ledger-recovery';
import { lockStateFolder } from './state-lock';

export { describeLedgerRecovery, type LedgerRecovery } from './ledger-recovery';

export const LEDGER_FILE = 'downloads.sqlite';

export { defaultStateFolder } from './state-folder';

export interface OpenedEngine {
  engine: DownloadEngine;
  ledger: DownloadLedger;
  /** Set when the ledger was damaged and replaced: each front end tells the user once. */
  recovered?: LedgerRecovery;
  close(): Promise<void>;
}

export interface OpenedLedger {
  ledger: DownloadLedger;
  recovered?: LedgerRecovery;
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
    return {
      ledger: opened.ledger,
      ...(opened.recovered ? { recovered: opened.recovered } : {}),
      close: () => {
        opened.ledger.close();
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
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
