// The one table of a listing's fields: for each field the files endpoint gives (and a new instrument may add), its
// column in the command line's files table, in the app's results grid and in a campaign's manifest, and the
// folder-layout placeholders it fills. The files table (src-main/cli/output/tables.ts), the results grid
// (ResultsTable.svelte, via the listing summary), the manifest (campaign-manifest.ts) and the folder layout
// (folder-layout.ts) all read it, so a field added here shows up in each. A leaf module: the command line loads it.
import { humanFileSize } from '../format/human-size';

/** A listing entry as the columns read it: the endpoint's fields by their names, whatever the instrument adds. */
export type ListedFields = Readonly<Record<string, unknown>>;

/** A column of the command line's files table, in the layout of mlsoapi's. */
interface CliColumn {
  header: string;
  /** Place among the command line's columns: mlsoapi's order, which puts the file name last. */
  order: number;
  /** The least width; the column widens to its widest cell in the measured sample unless `fixed`. */
  width: number;
  fixed?: boolean;
  align: 'left' | 'right';
  /** The cell's text, before control characters are escaped. */
  text(entry: ListedFields): string;
}

/** A column of the app's results grid. */
interface GridColumn {
  header: string;
  /** The header's tooltip. */
  headerTitle?: string;
  /** The CSS grid track. */
  track: string;
  text(entry: ListedFields): string;
  /** Right-aligned tabular figures, in the header too. */
  numeric?: boolean;
  /** The cell's further CSS classes: app.css's (`mono`) or the grid's own (`plan`, drawn in the muted colour). */
  classes?: string;
  /** The cell's text is its tooltip too, for values cut at the column's edge. */
  titled?: boolean;
  /** Whether this entry's cell is drawn muted (an unknown size). */
  dim?(entry: ListedFields): boolean;
}

/** A folder-layout placeholder, `{name}` in a template, and the value a listed file gives it. */
interface LayoutPlaceholder {
  name: string;
  /** Place in the list of placeholders the help and the campaign form show. */
  order: number;
  value(entry: ListedFields): unknown;
}

export interface ListingColumn {
  /** The files endpoint's field. */
  field: string;
  /** Shown only when some entry of the listing has a value for it (UCoMP's wave region and observing plan). */
  optional: boolean;
  /** Its column in the command line's files table, if it has one. */
  cli: CliColumn | null;
  /** Its column in the app's results grid, if it has one. */
  grid: GridColumn | null;
  /**
   * Its column in a campaign's manifest (CSV header, JSON key), if it has one. The value is read from the campaign's
   * stored file, which keeps the fields its table has columns for (campaign-store.ts): a new field's values reach
   * the manifest once it is stored too; until then its cells are empty.
   */
  manifest: string | null;
  placeholders: readonly LayoutPlaceholder[];
}

/** A field's value as text; '' when the entry has none. */
export function fieldText(entry: ListedFields, field: string): string {
  const value = entry[field];
  return value === undefined || value === null ? '' : String(value);
}

const sizeOf = (entry: ListedFields): number => (typeof entry.filesize === 'number' ? entry.filesize : 0);
const DATE = /^(\d{4})-(\d{2})-(\d{2})/;
const datePart = (entry: ListedFields, part: 1 | 2 | 3): string | undefined =>
  typeof entry['date-obs'] === 'string' ? DATE.exec(entry['date-obs'])?.[part] : undefined;

/** In the order of the manifest's columns and the grid's; the command line orders its own (`cli.order`). */
export const LISTING_COLUMNS: readonly ListingColumn[] = [
  {
    field: 'date-obs',
    optional: false,
    cli: { header: 'Date/time', order: 1, width: 20, align: 'left', text: (entry) => fieldText(entry, 'date-obs') },
    // The app shows the timestamp (`YYYY-MM-DDTHH:MM:SS`, already UT) with a space for readability.
    grid: { header: 'Date-obs (UT)', track: '156px', text: (entry) => fieldText(entry, 'date-obs').replace('T', ' ') },
    manifest: 'date_obs',
    placeholders: [
      { name: 'yyyy', order: 3, value: (entry) => datePart(entry, 1) },
      { name: 'mm', order: 4, value: (entry) => datePart(entry, 2) },
      { name: 'dd', order: 5, value: (entry) => datePart(entry, 3) },
    ],
  },
  {
    field: 'instrument',
    optional: false,
    cli: { header: 'Instrument', order: 2, width: 10, align: 'left', text: (entry) => fieldText(entry, 'instrument') },
    grid: null,
    manifest: 'instrument',
    placeholders: [{ name: 'instrument', order: 1, value: (entry) => entry.instrument }],
  },
  {
    field: 'product',
    optional: false,
    cli: { header: 'Product', order: 3, width: 13, align: 'left', text: (entry) => fieldText(entry, 'product') },
    grid: null,
    manifest: 'product',
    placeholders: [{ name: 'product', order: 2, value: (entry) => entry.product }],
  },
  {
    field: 'filename',
    optional: false,
    cli: { header: 'Filename', order: 7, width: 8, align: 'left', text: (entry) => fieldText(entry, 'filename') },
    grid: { header: 'File name', track: 'minmax(240px, 340px)', text: (entry) => fieldText(entry, 'filename'), classes: 'mono name', titled: true },
    manifest: 'filename',
    placeholders: [],
  },
  {
    // The listing's size is of the gzip-compressed body the server sends, in binary units; 0 means unknown.
    field: 'filesize',
    optional: false,
    cli: { header: 'Size (gz)', order: 4, width: 10, fixed: true, align: 'right', text: (entry) => humanFileSize(sizeOf(entry)) },
    grid: {
      header: 'Listed size',
      headerTitle: 'The size the listing gives (as the server sends the file)',
      track: '88px',
      text: (entry) => humanFileSize(sizeOf(entry)),
      numeric: true,
      dim: (entry) => !(sizeOf(entry) > 0),
    },
    // The manifest gives the size on disk instead (campaign-manifest.ts).
    manifest: null,
    placeholders: [],
  },
  {
    field: 'wave-region',
    optional: true,
    cli: { header: 'Wave', order: 5, width: 6, fixed: true, align: 'left', text: (entry) => fieldText(entry, 'wave-region') },
    grid: { header: 'Wave region', track: '104px', text: (entry) => fieldText(entry, 'wave-region'), numeric: true },
    manifest: 'wave_region',
    placeholders: [{ name: 'wave_region', order: 6, value: (entry) => entry['wave-region'] }],
  },
  {
    field: 'obs-plan',
    optional: true,
    cli: { header: 'Obs plan', order: 6, width: 8, align: 'left', text: (entry) => fieldText(entry, 'obs-plan') },
    grid: { header: 'Observing plan', track: 'minmax(160px, 280px)', text: (entry) => fieldText(entry, 'obs-plan'), classes: 'plan', titled: true },
    manifest: 'obs_plan',
    placeholders: [{ name: 'obs_plan', order: 7, value: (entry) => entry['obs-plan'] }],
  },
  {
    field: 'url',
    optional: false,
    cli: null,
    grid: null,
    manifest: 'url',
    placeholders: [],
  },
];

/** Whether an entry has a value for the field: an empty text counts as none. */
function hasValue(entry: ListedFields, field: string): boolean {
  const value = entry[field];
  return value !== undefined && value !== null && value !== '';
}

/** The columns a listing shows: every column that is not optional, and each optional one some entry has a value for. */
export function columnsShown(entries: readonly ListedFields[], columns: readonly ListingColumn[] = LISTING_COLUMNS): ListingColumn[] {
  return columns.filter((column) => !column.optional || entries.some((entry) => hasValue(entry, column.field)));
}
