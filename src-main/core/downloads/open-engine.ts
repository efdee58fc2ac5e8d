// Opens the engine on a state folder: takes the folder's lock, opens (or migrates) the ledger, and
// hands back one object to close it all again.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import { DownloadEngine, type DownloadEngineOptions } from './download-engine';
import { DownloadLedger } from './download-ledger';
import { lockStateFolder } from './state-lock';

export const LEDGER_FILE = 'downloads.sqlite';

/** The per-user data folder (e.g. ~/.local/share/mlso-downloader on Linux). */
export function defaultStateFolder(): string {
  return envPaths('mlso-downloader', { suffix: '' }).data;
}

export interface OpenedEngine {
  engine: DownloadEngine;
  ledger: DownloadLedger;
  close(): Promise<void>;
}

export async function openDownloadEngine(
  stateFolder: string,
  options: Omit<DownloadEngineOptions, 'ledger'> & { sqliteNativeBinding?: string },
): Promise<OpenedEngine> {
  const folder = path.resolve(stateFolder);
  mkdirSync(folder, { recursive: true });
  const lock = lockStateFolder(folder);
  let ledger: DownloadLedger | undefined;
  try {
    const { sqliteNativeBinding, ...engineOptions } = options;
    ledger = DownloadLedger.open(path.join(folder, LEDGER_FILE), sqliteNativeBinding ? { nativeBinding: sqliteNativeBinding } : {});
    const engine = new DownloadEngine({ ...engineOptions, ledger });
    await engine.start();
    const opened = ledger;
    return {
      engine,
      ledger: opened,
      close: async () => {
        await engine.close();
        opened.close();
        lock.release();
      },
    };
  } catch (error) {
    ledger?.close();
    lock.release();
    throw error;
  }
}
