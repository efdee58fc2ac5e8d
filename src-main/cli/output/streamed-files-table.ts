// The files table written as the listing arrives. Its columns are measured on the first block of entries
// (measuring every entry would mean holding the whole listing first), every later entry is laid out as it
// comes, and the count and total close the table only once the listing is known to be complete.
import type { FileEntry } from '../../../src-shared/api/schemas';
import { listingTotal } from '../../../src-shared/format/human-size';
import { filesTableLayout, type FilesTableLayout, type TableStyle } from './tables';

/** Entries measured before the first line is written: enough for the usual widths and to see UCoMP's columns. */
export const LAYOUT_SAMPLE_SIZE = 1000;

const asLines = (lines: readonly string[]): string => (lines.length === 0 ? '' : `${lines.join('\n')}\n`);

export class StreamedFilesTable {
  private layout: FilesTableLayout | undefined;
  private sample: FileEntry[] = [];
  private count = 0;
  private knownBytes = 0;
  private someSizeUnknown = false;

  constructor(private readonly style: TableStyle = { header: true }) {}

  /** Entries taken so far. */
  get entries(): number {
    return this.count;
  }

  /** Takes the next entries; returns the lines to write now, each ending in a newline ('' while the first block gathers). */
  add(entries: readonly FileEntry[]): string {
    this.count += entries.length;
    const part = listingTotal(entries.map((file) => file.filesize));
    this.knownBytes += part.bytes;
    this.someSizeUnknown ||= part.lowerBound;
    if (this.layout) return asLines(entries.map((file) => this.layout!.row(file)));
    this.sample = this.sample.concat(entries);
    return this.sample.length >= LAYOUT_SAMPLE_SIZE ? this.startTable() : '';
  }

  /** The lines that close the table, once the whole listing was added; '' for an empty listing, which has no table. */
  end(): string {
    if (this.count === 0) return '';
    const head = this.layout ? '' : this.startTable();
    // The sum of the known sizes, and a 0 standing for "some size was unknown": the same total as the whole listing's.
    const total = listingTotal(this.someSizeUnknown ? [this.knownBytes, 0] : [this.knownBytes]);
    return head + asLines(this.layout!.foot(this.count, total));
  }

  /** Measures the sample, then writes the header and the sample's rows; the sample is let go. */
  private startTable(): string {
    const layout = filesTableLayout(this.sample);
    this.layout = layout;
    const text = asLines([...(this.style.header ? layout.head() : []), ...this.sample.map((file) => layout.row(file))]);
    this.sample = [];
    return text;
  }
}
