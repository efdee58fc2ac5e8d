// A state folder's database opened as the app opens it, with every domain's tables (STATE_DOMAINS), but without the
// folder's lock or the damaged-file recovery: for tests that look into a ledger after a run, or that need the
// campaigns' tables beside the jobs.
import { STATE_DOMAINS } from '../../../src-main/core/app/open-engine';
import { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import { StateDatabase } from '../../../src-main/core/state/state-database';

export function openStateFile(file: string): { state: StateDatabase; ledger: DownloadLedger } {
  const state = StateDatabase.open(file, STATE_DOMAINS);
  return { state, ledger: new DownloadLedger(state) };
}

/** The download ledger of such a database (a file, or ':memory:'), closed with its database by ledger.close(). */
export function openLedgerFile(file: string): DownloadLedger {
  return openStateFile(file).ledger;
}
