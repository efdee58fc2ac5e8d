// A search's summary added up as its rows arrive, so the summary line's figures cost nothing to ask for, however
// many rows there are. The optional columns are those columnsShown (listing-columns.ts) shows, the grid's one rule.
import type { FileEntry } from '../../../src-shared/api/schemas';
import { columnsShown, LISTING_COLUMNS } from '../../../src-shared/listing/listing-columns';
import type { ResultSummary } from '../../../src-shared/search/result-page';

export class ResultTally {
  private bytes = 0;
  private unknownSizes = false;
  private firstDateObs: string | null = null;
  private lastDateObs: string | null = null;
  /** The optional columns no row has had a value for yet: each batch is checked only for these. */
  private unseen = LISTING_COLUMNS.filter((column) => column.optional);
  private readonly seen: string[] = [];

  add(entries: readonly FileEntry[]): void {
    for (const entry of entries) {
      if (entry.filesize > 0) this.bytes += entry.filesize;
      else this.unknownSizes = true;
      // The service's timestamps have one form, so text order is time order (as searched-range.ts reads them).
      const dateObs = entry['date-obs'];
      if (this.firstDateObs === null || dateObs < this.firstDateObs) this.firstDateObs = dateObs;
      if (this.lastDateObs === null || dateObs > this.lastDateObs) this.lastDateObs = dateObs;
    }
    if (this.unseen.length === 0) return;
    const shown = columnsShown(entries, this.unseen);
    if (shown.length === 0) return;
    for (const column of shown) this.seen.push(column.field);
    this.unseen = this.unseen.filter((column) => !shown.includes(column));
  }

  summary(): ResultSummary {
    return {
      bytes: this.bytes,
      unknownSizes: this.unknownSizes,
      firstDateObs: this.firstDateObs,
      lastDateObs: this.lastDateObs,
      optionalFields: LISTING_COLUMNS.filter((column) => this.seen.includes(column.field)).map((column) => column.field),
    };
  }
}
