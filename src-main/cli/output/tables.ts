// Human tables in the layout of the official `mlsoapi`, so its users find their way at once; sizes of
// 0 are "unknown" and a total that includes one is marked as a lower bound. Every cell of server text is
// escaped before the widths are measured, so hostile text neither drives the terminal nor skews columns.
import type { FileEntry, InstrumentSummary, ProductEntry } from '../../../src-shared/api/schemas';
import { escapeControlCharacters } from '../../../src-shared/format/display-text';
import { listingTotal } from '../../../src-shared/format/human-size';
import { columnsShown, LISTING_COLUMNS, type ListingColumn } from '../../../src-shared/listing/listing-columns';

const rule = (width: number): string => '-'.repeat(width);

/** How a table is drawn. `header: false` (the command line's --quiet, as in `mlsoapi -q`) leaves out its header and the rule under it. */
export interface TableStyle {
  header: boolean;
}
const WITH_HEADER: TableStyle = { header: true };
/** The table's lines, with or without its two header lines. */
const styled = (head: readonly string[], body: readonly string[], style: TableStyle): string => [...(style.header ? head : []), ...body].join('\n');
const pad = (text: string, width: number): string => text.padEnd(width);
/** A server's value as a cell: text, control characters escaped (a newline in it too). */
const cell = (value: unknown): string => escapeControlCharacters(value === undefined || value === null ? '' : String(value));

/** The longest text of `items`, at least `least`: a loop, since spreading a 150,000-row listing into Math.max overflows the stack. */
function widest<T>(items: readonly T[], text: (item: T) => string, least: number): number {
  let width = least;
  for (const item of items) width = Math.max(width, text(item).length);
  return width;
}

export function instrumentsTable(instruments: readonly InstrumentSummary[], style: TableStyle = WITH_HEADER): string {
  const rows = instruments.map((i) => ({
    id: cell(i.id),
    name: cell(i.name),
    dates: `${cell(i['start-date'].slice(0, 10))}...${cell(i['end-date'].slice(0, 10))}`,
  }));
  const nameWidth = widest(rows, (row) => row.name, 44);
  const head = [`${pad('ID', 8)} ${pad('Instrument name', nameWidth)} Dates available`, `${rule(8)} ${rule(nameWidth)} ${rule(23)}`];
  return styled(
    head,
    rows.map((row) => `${pad(row.id, 8)} ${pad(row.name, nameWidth)} ${row.dates}`),
    style,
  );
}

/** A plain table of text columns, left-aligned and two spaces apart (the last one unpadded); every cell escaped. */
export function columnsTable(head: readonly string[], rows: readonly (readonly string[])[], style: TableStyle = WITH_HEADER): string {
  const cells = rows.map((row) => row.map(cell));
  const widths = head.map((title, column) => widest(cells, (row) => row[column] ?? '', title.length));
  const line = (values: readonly string[]): string =>
    values.map((value, column) => (column === values.length - 1 ? value : pad(value, widths[column]!))).join('  ');
  return styled([line(head), line(widths.map(rule))], cells.map(line), style);
}

/** Wraps text at word boundaries to `width` columns. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line.length > 0 ? `${line} ${word}` : word;
    }
  }
  if (line.length > 0 || lines.length === 0) lines.push(line);
  return lines;
}

export function productsTable(products: readonly ProductEntry[], style: TableStyle = WITH_HEADER): string {
  // The description is wrapped at its own white space first; the words are escaped after.
  const rows = products.map((p) => ({ id: cell(p.id), title: cell(p.title), description: wrap(p.description, 55).map(cell) }));
  const idWidth = widest(rows, (row) => row.id, 13);
  const titleWidth = widest(rows, (row) => row.title, 22);
  const head = [`${pad('ID', idWidth)} ${pad('Title', titleWidth)} Description`, `${rule(idWidth)} ${rule(titleWidth)} ${rule(55)}`];
  const lines: string[] = [];
  for (const row of rows) {
    row.description.forEach((part, index) => {
      const id = index === 0 ? row.id : '';
      const title = index === 0 ? row.title : '';
      lines.push(`${pad(id, idWidth)} ${pad(title, titleWidth)} ${part}`.trimEnd());
    });
  }
  return styled(head, lines, style);
}

/** A listing's total: its sum, and whether an unknown size (0) makes it a lower bound. */
type ListingTotal = ReturnType<typeof listingTotal>;

/** The lines of a files table; its columns are measured once, on a sample of the entries. */
export interface FilesTableLayout {
  /** The header and the rule under it. */
  head(): string[];
  row(file: FileEntry): string;
  /** The closing rule, the count with the total, and the note when the total is a lower bound. */
  foot(count: number, total: ListingTotal): string[];
}

/** What the total under a files table is: compressed bytes in binary units, not what the saved files take. */
const TOTAL_LABEL = 'compressed (KB = 1024 B); files are saved decompressed';

/** The listing field whose column the total stands under. */
const TOTAL_UNDER = 'filesize';

/**
 * The layout of mlsoapi's files table, measured on `sample` (a streamed listing's first block), with the columns of
 * the listing's column table (listing-columns.ts) in their command-line order; an optional one (UCoMP's wave region)
 * only when an entry of the sample has a value for it. A later, wider cell pushes only its own row along; the file
 * name is the last column, so only the rules depend on it.
 */
export function filesTableLayout(sample: readonly FileEntry[], table: readonly ListingColumn[] = LISTING_COLUMNS): FilesTableLayout {
  const shown = columnsShown(sample, table)
    .flatMap((column) => (column.cli ? [{ ...column.cli, field: column.field }] : []))
    .sort((a, b) => a.order - b.order);
  // Server text escaped, so the widths are those of the text shown.
  const cellsOf = (file: FileEntry): string[] => shown.map((column) => cell(column.text(file)));
  const rows = sample.map(cellsOf);
  // mlsoapi's widths, widened only for an odd value (escaped text, an unusual instrument), so columns stay aligned.
  const widths = shown.map((column, index) => (column.fixed ? column.width : widest(rows, (row) => row[index]!, column.width)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((text, index) => {
        if (index === cells.length - 1) return text;
        return shown[index]!.align === 'right' ? text.padStart(widths[index]!) : pad(text, widths[index]!);
      })
      .join(' ');
  const separator = line(widths.map(rule));
  // The count spans the columns before the size column, and the total stands under it.
  const totalAt = shown.findIndex((column) => column.field === TOTAL_UNDER);
  const countWidth = widths.slice(0, Math.max(totalAt, 0)).reduce((sum, width) => sum + width + 1, -1);
  return {
    // The sizes are the listing's: of the gzip-compressed bodies the server sends, in binary units. The files are
    // saved decompressed, so larger; the header and the total say which sizes these are (the app's Downloads
    // table names both, Received and On disk).
    head: () => [line(shown.map((column) => column.header)), separator],
    row: (file) => line(cellsOf(file)),
    foot: (count, total) => [
      separator,
      `${pad(`${count} ${count === 1 ? 'file' : 'files'}`, countWidth)} ${total.text.padStart(widths[totalAt] ?? 0)} ${TOTAL_LABEL}`,
      ...(total.lowerBound ? ['(some sizes are unknown, so the total is a lower bound)'] : []),
    ],
  };
}
