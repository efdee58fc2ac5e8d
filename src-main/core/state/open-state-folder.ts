// Opens a state folder: takes its lock, opens (or migrates, or replaces a damaged) ledger with every domain's
// tables, lets each domain do what it must once the file is open (the campaigns take their copies back into a
// ledger that started anew), and hands back one object to close it all again, with what was done for the front
// end to say once.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { onFolder } from '../folder-errors';
import { describeLedgerRecovery, openLedgerRecovering, type LedgerRecovery } from './ledger-recovery';
import type { StateDatabase } from './state-database';
import { lockStateFolder } from './state-lock';
import type { StateTables } from './state-migrations';

export const LEDGER_FILE = 'downloads.sqlite';

/** What a domain did as the state folder opened, worth telling the user. */
interface DomainReport<Report> {
  report: Report;
  /** In a sentence or two. */
  notice: string;
}

/** A domain of the state folder: its tables, and what it does each time the folder opens. */
export interface StateDomain<Report = unknown> extends StateTables {
  /**
   * Runs once the ledger is open and its tables are up to date, before anything else uses it: with
   * `database.startedEmpty`, the file held nothing before (new, replaced after damage, or deleted).
   */
  readonly opened?: (database: StateDatabase) => DomainReport<Report> | undefined;
}

export interface OpenedStateFolder {
  database: StateDatabase;
  /** Set when the ledger was damaged and replaced. */
  recovered?: LedgerRecovery;
  /** Set when the ledger was replaced or a domain reported something: what to tell the user, in a sentence or two. */
  notice?: string;
  /** What `domain` reported as the folder opened, if anything. */
  reportOf<Report>(domain: StateDomain<Report>): Report | undefined;
  /** Closes the ledger and releases the folder's lock. */
  close(): void;
}

export async function openStateFolder(
  stateFolder: string,
  domains: readonly StateDomain[],
  options: { sqliteNativeBinding?: string } = {},
): Promise<OpenedStateFolder> {
  const folder = path.resolve(stateFolder);
  await onFolder(folder, 'state', 'create', () => mkdir(folder, { recursive: true }));
  const native = options.sqliteNativeBinding ? { nativeBinding: options.sqliteNativeBinding } : {};
  const lock = lockStateFolder(folder, native);
  try {
    const { database, recovered } = openLedgerRecovering(path.join(folder, LEDGER_FILE), domains, native);
    try {
      const reports = new Map<StateDomain, DomainReport<unknown>>();
      for (const domain of domains) {
        const report = domain.opened?.(database);
        if (report) reports.set(domain, report);
      }
      const notice = noticeOf(database, recovered, [...reports.values()]);
      return {
        database,
        ...(recovered ? { recovered } : {}),
        ...(notice ? { notice } : {}),
        reportOf: <Report>(domain: StateDomain<Report>) => reports.get(domain as StateDomain)?.report as Report | undefined,
        close: () => {
          database.close();
          lock.release();
        },
      };
    } catch (error) {
      database.close();
      throw error;
    }
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** The domains' sentences, after why the ledger is new when it is: replaced after damage, or missing or empty. */
function noticeOf(database: StateDatabase, recovered: LedgerRecovery | undefined, reports: readonly DomainReport<unknown>[]): string | undefined {
  const why = recovered
    ? [describeLedgerRecovery(recovered)]
    : database.startedEmpty && reports.length > 0
      ? [`The download ledger ${database.location ?? ''} was missing or empty, so a new one was started.`]
      : [];
  const sentences = [...why, ...reports.map((report) => report.notice)];
  return sentences.length > 0 ? sentences.join(' ') : undefined;
}
