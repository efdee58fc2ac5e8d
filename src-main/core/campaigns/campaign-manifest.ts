// A campaign's manifest: its resolved file set, one row per file (CSV for spreadsheets, JSON for programs), and an
// acknowledgement naming each instrument used with its DOI, ready to paste into a paper.
import type { InstrumentSummary } from '../../../src-shared/api/schemas';
import { LISTING_COLUMNS, type ListedFields, type ListingColumn } from '../../../src-shared/listing/listing-columns';
import { entryOfStored } from './campaign-paths';
import type { CampaignFileState, StoredCampaign } from './campaign-store';

/**
 * A file's row: the listing's fields that have a manifest column (listing-columns.ts: date_obs, instrument, product,
 * filename, wave_region, obs_plan, url), then where the campaign put the file and what was written.
 */
export type ManifestRow = Readonly<Record<string, string | number | null>>;

/** The manifest's own columns, after the listing's. */
interface FileOnDisk {
  local_path: string;
  /** Bytes of the file on disk as the ledger recorded them when it was written (decompressed); null when not on disk. */
  size_on_disk: number | null;
  sha256: string | null;
  downloaded_at: string | null;
}
const ON_DISK_COLUMNS: readonly (keyof FileOnDisk)[] = ['local_path', 'size_on_disk', 'sha256', 'downloaded_at'];

const listedColumns = (table: readonly ListingColumn[]): ListingColumn[] => table.filter((column) => column.manifest !== null);

/** A listed value as the manifest gives it: numbers and text as they are, null where the file has none. */
function manifestValue(value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'number' || typeof value === 'string' ? value : String(value);
}

export function manifestRows(files: readonly CampaignFileState[], table: readonly ListingColumn[] = LISTING_COLUMNS): ManifestRow[] {
  const listed = listedColumns(table);
  return files.map((file) => {
    // A shared file list may give no date: the manifest says null, where placing the file again reads ''.
    const fields: ListedFields = { ...entryOfStored(file), 'date-obs': file.dateObs };
    const onDisk = file.state === 'done';
    const local: FileOnDisk = {
      local_path: file.targetPath,
      size_on_disk: onDisk ? file.bytesWritten : null,
      sha256: onDisk ? file.sha256 : null,
      downloaded_at: onDisk ? file.finishedAt : null,
    };
    return { ...Object.fromEntries(listed.map((column) => [column.manifest, manifestValue(fields[column.field])])), ...local };
  });
}

/**
 * RFC 4180: a header line, then a line per file; a field with a comma, quote or line break is quoted. Text that a
 * spreadsheet would run as a formula (a file name `=1+2.fts`, an obs plan `=HYPERLINK(...)` from the server or a
 * shared file) is made plain text as OWASP advises for CSV injection: a `'` goes before a text cell that starts
 * with `=`, `+`, `-`, `@`, a tab or a carriage return. Numbers are left alone (the size column, and text that is
 * a plain number such as a wave region of -1.5, which no spreadsheet takes for a formula). The JSON manifest keeps
 * the exact strings.
 */
export function manifestCsv(rows: readonly ManifestRow[], table: readonly ListingColumn[] = LISTING_COLUMNS): string {
  const columns = [...listedColumns(table).map((column) => column.manifest!), ...ON_DISK_COLUMNS];
  const lines = [columns.join(',')];
  for (const row of rows) lines.push(columns.map((column) => csvField(row[column] ?? null)).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = typeof value === 'string' && FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function manifestJson(campaign: StoredCampaign, rows: readonly ManifestRow[], acknowledgement: string): string {
  return `${JSON.stringify(
    {
      campaign: campaign.name,
      folder: campaign.folder,
      layout: campaign.layout,
      queries: campaign.queries,
      exportedAt: new Date().toISOString(),
      acknowledgement,
      files: rows,
    },
    null,
    2,
  )}\n`;
}

/**
 * The acknowledgement for the instruments whose files the campaign holds, with each one's DOI as the instrument
 * endpoint gives it. An instrument the server no longer describes is named by its id alone.
 */
export function acknowledgement(instrumentIds: readonly string[], described: readonly InstrumentSummary[]): string {
  if (instrumentIds.length === 0) return 'This campaign holds no files yet, so there is no instrument to acknowledge.';
  const lines = [...new Set(instrumentIds)].sort().map((id) => {
    const instrument = described.find((candidate) => candidate.id === id);
    if (!instrument) return `- ${id.toUpperCase()} (no DOI known to the server)`;
    const named = instrument.name.toLowerCase().includes(id.toLowerCase()) ? instrument.name : `${instrument.name} (${id.toUpperCase()})`;
    return `- ${named}, ${doiText(instrument.doi)}`;
  });
  return [
    'This work uses data from the Mauna Loa Solar Observatory (MLSO), operated by the High Altitude Observatory of the',
    'NSF National Center for Atmospheric Research, obtained through the MLSO data API:',
    ...lines,
    '',
  ].join('\n');
}

/** `https://doi.org/10.5065/D69G5JV8` as `doi:10.5065/D69G5JV8 (https://doi.org/10.5065/D69G5JV8)`. */
function doiText(doi: string): string {
  const bare = /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)?(10\.\S+)$/i.exec(doi.trim())?.[1];
  return bare ? `doi:${bare} (https://doi.org/${bare})` : doi.trim();
}
