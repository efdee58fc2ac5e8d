// What a campaign remembers of its listings, window by window (migration 7), and the rule for which windows a sync
// lists again. A window's listing can still change while the archive may still add files to it: a window that
// reaches into the last `settleDays` days (late files, reprocessing), and one that was listed before it had been
// closed that long. A window listed completely after that is settled: a sync does not list it again unless asked
// for everything (`--full`), and trusts the ledger for its files (verify is where the disk is checked).
import { createHash } from 'node:crypto';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { SETTING_DEFINITIONS } from '../../../src-shared/settings/setting-definitions';
import type { CampaignQuery } from '../../../src-shared/campaigns/campaign-types';

/** A window's last listing, as the campaign remembers it. */
export interface ListedWindow {
  start: string;
  end: string;
  /** When its listing began (ISO 8601). */
  listedAt: string;
  /** The listing reached its end (not cancelled, no error half-way) and refused none of its files. */
  complete: boolean;
  entries: number;
  digest: string | null;
  /** The API's base URL the listing came from (its files' addresses are on it); null when listed before this was kept. */
  listedFrom: string | null;
}

/** Days after which the archive is taken to no longer change a window, unless the settings say otherwise. */
export const DEFAULT_SETTLE_DAYS = SETTING_DEFINITIONS.settleDays.default;

const DAY_MS = 24 * 60 * 60 * 1000;
const LINES_AT_ONCE = 1000;

/**
 * A query's key among the campaign's windows: its content, not its place in the list, so reordering the queries
 * keeps what their windows were and changing a query starts its windows anew.
 */
export function queryKey(query: CampaignQuery): string {
  const filters = Object.fromEntries(Object.entries(query.filters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return createHash('sha256')
    .update(JSON.stringify([query.instrument, query.product, filters]))
    .digest('hex');
}

/** Whether a window's last listing still stands: complete, of the same bounds, and made once it had settled. */
export function isSettled(last: ListedWindow | undefined, window: { end: string }, settleDays: number): boolean {
  if (!last?.complete || last.end !== window.end) return false;
  return Date.parse(last.listedAt) >= Date.parse(`${window.end}Z`) + settleDays * DAY_MS;
}

/**
 * A digest of what a window's listing held: SHA-256 over its entries' names, sizes and observation times, sorted,
 * so the same files give the same digest whatever order the answer had them in. A listing nearly always comes in
 * that order already: its lines are then kept a thousand to a string (a month of KCor is 170,000 lines: as many
 * strings for V8 to mark at every collection) and hashed as they are; the first line out of order (or holding a
 * newline) turns them back into lines, to be sorted at the end.
 */
export class WindowDigest {
  /** While in order: the lines so far, a thousand to a string, each followed by a newline. */
  private readonly joined: string[] = [];
  private gathering: string[] = [];
  /** Once out of order: every line, to be sorted. */
  private lines: string[] | undefined;
  private last = '';
  private count = 0;

  add(entry: FileEntry): void {
    const line = `${entry.filename}\t${entry.filesize}\t${entry['date-obs']}`;
    this.count += 1;
    if (this.lines) {
      this.lines.push(line);
      return;
    }
    if (line < this.last || line.includes('\n')) {
      this.lines = [...this.joined.flatMap((text) => text.slice(0, -1).split('\n')), ...this.gathering, line];
      this.joined.length = 0;
      this.gathering = [];
      return;
    }
    this.last = line;
    this.gathering.push(line);
    if (this.gathering.length === LINES_AT_ONCE) this.join();
  }

  get entries(): number {
    return this.count;
  }

  digest(): string {
    const hash = createHash('sha256');
    if (this.lines) {
      const lines = this.lines.sort();
      for (let from = 0; from < lines.length; from += LINES_AT_ONCE) hash.update(`${lines.slice(from, from + LINES_AT_ONCE).join('\n')}\n`);
    } else {
      this.join();
      for (const text of this.joined) hash.update(text);
    }
    return hash.digest('hex');
  }

  private join(): void {
    if (this.gathering.length === 0) return;
    this.joined.push(`${this.gathering.join('\n')}\n`);
    this.gathering = [];
  }
}
