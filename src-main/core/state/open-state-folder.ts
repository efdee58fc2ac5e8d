// Opens a state folder: takes its lock, opens (or migrates, or replaces a damaged) ledger with every domain's
// tables, lets each domain do what it must once the file is open (the campaigns take their copies back into a
// ledger that started anew), and hands back one object to close it all again, with what was done for the front
// end to say once. Work that only reads may instead read beside the program that holds the folder.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { MlsoError } from '../errors';
import { onFolder } from '../folder-errors';
import { describeLedgerRecovery, LedgerUnavailableError, openLedgerRecovering, type LedgerRecovery } from './ledger-recovery';
import { isSqliteError } from './sqlite-errors';
import { StateDatabase } from './state-database';
import { describeHolder, StateFolderBusyError, type StateHolder } from './state-folder-busy';
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
  /** Set when the folder was opened to read beside the program holding it (openStateFolderToRead): that program. */
  heldBy?: StateHolder;
  /** What `domain` reported as the folder opened, if anything. */
  reportOf<Report>(domain: StateDomain<Report>): Report | undefined;
  /** Closes the ledger and releases the folder's lock. */
  close(): void;
}

export interface StateFolderOptions {
  /** What this program is, for the message another run gets while it holds the folder ("web mode"). */
  program?: string;
}

export async function openStateFolder(stateFolder: string, domains: readonly StateDomain[], options: StateFolderOptions = {}): Promise<OpenedStateFolder> {
  const folder = path.resolve(stateFolder);
  await onFolder(folder, 'state', 'create', () => mkdir(folder, { recursive: true }));
  const lock = lockStateFolder(folder, options);
  try {
    const { database, recovered } = openLedgerRecovering(path.join(folder, LEDGER_FILE), domains);
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

/**
 * Opens a state folder for work that only reads it. A free folder is opened as openStateFolder opens it (under its
 * lock, a damaged ledger replaced, each domain's part done). One that another program holds (the app, web mode, a
 * sync) is read beside it, read-only: no lock, no recovery, no domain's part, nothing written; a reader never
 * moves aside or mends a ledger that another program has open and writes.
 */
export async function openStateFolderToRead(
  stateFolder: string,
  domains: readonly StateDomain[],
  options: StateFolderOptions = {},
): Promise<OpenedStateFolder> {
  try {
    return await openStateFolder(stateFolder, domains, options);
  } catch (error) {
    if (!(error instanceof StateFolderBusyError)) throw error;
    const file = path.join(error.folder, LEDGER_FILE);
    let database: StateDatabase;
    try {
      database = StateDatabase.openToRead(file, domains);
    } catch (readError) {
      throw unreadableBeside(file, error.holder, readError);
    }
    return { database, heldBy: error.holder, reportOf: () => undefined, close: () => database.close() };
  }
}

/** Why the ledger could not be read beside the program holding it, naming that program and what to do. */
function unreadableBeside(file: string, holder: StateHolder, error: unknown): unknown {
  if (error instanceof MlsoError) return error;
  const holding = `${describeHolder(holder)} holds the state folder`;
  if (isSqliteError(error, 'SQLITE_CANTOPEN')) {
    return new LedgerUnavailableError(`The download ledger ${file} is not there yet, and ${holding}: try again once it has started.`);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new LedgerUnavailableError(`Cannot read the download ledger ${file} (${detail}) while ${holding}: try again once it has finished.`);
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
