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

export async function openDownloadEngine(
  stateFolder: string,
  options: Omit<DownloadEngineOptions, 'ledger'> & { sqliteNativeBinding?: string },
): Promise<OpenedEngine> {
  const folder = path.resolve(stateFolder);
  await onFolder(folder, 'state', 'create', () => mkdir(folder, { recursive: true }));
  const { sqliteNativeBinding, ...engineOptions } = options;
  const native = sqliteNativeBinding ? { nativeBinding: sqliteNativeBinding } : {};
  const lock = lockStateFolder(folder, native);
  let ledger: DownloadLedger | undefined;
  try {
    const opened = openLedgerRecovering(path.join(folder, LEDGER_FILE), native);
    ledger = opened.ledger;
    const engine = new DownloadEngine({ ...engineOptions, ledger });
    await engine.start();
    const openLedger = ledger;
    return {
      engine,
      ledger: openLedger,
      ...(opened.recovered ? { recovered: opened.recovered } : {}),
      close: async () => {
        await engine.close();
        openLedger.close();
        lock.release();
      },
    };
  } catch (error) {
    ledger?.close();
    lock.release();
    throw error;
  }
}
