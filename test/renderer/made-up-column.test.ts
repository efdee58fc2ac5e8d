// A field a new instrument might add, made up here ("polarization"), added to the one column table of the listing
// and seen in the three places that read it: the command line's files table, the window's results grid and a
// campaign's manifest. Each is handed the table with the extra row, as the code hands them LISTING_COLUMNS.
import { render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src-shared/api/schemas';
import { columnsShown, fieldText, LISTING_COLUMNS, type ListingColumn } from '../../src-shared/listing/listing-columns';
import { filesTableLayout } from '../../src-main/cli/output/tables';
import { manifestCsv, manifestRows } from '../../src-main/core/campaigns/campaign-manifest';
import type { CampaignFileState } from '../../src-main/core/campaigns/campaign-store';
import ResultsTable from '../../src-renderer/browse/ResultsTable.svelte';
import { keptResults } from './kept-results';

const POLARIZATION: ListingColumn = {
  field: 'polarization',
  optional: true,
  cli: { header: 'Pol', order: 4.5, width: 5, align: 'left', text: (entry) => fieldText(entry, 'polarization') },
  grid: { header: 'Polarization', track: '96px', text: (entry) => fieldText(entry, 'polarization') },
  manifest: 'polarization',
  placeholders: [],
};
/** The table with the made-up field after the size, before the wave region and the url. */
const TABLE = [...LISTING_COLUMNS.filter((column) => column.field !== 'url'), POLARIZATION, ...LISTING_COLUMNS.filter((column) => column.field === 'url')];

const entry = (second: number, polarization?: string): FileEntry => ({
  'date-obs': `2025-03-24T21:03:0${second}`,
  filename: `20250324_21030${second}_newi_l2.fts`,
  filesize: 2048,
  instrument: 'newi',
  product: 'l2',
  url: `https://api.example.org/${second}`,
  ...(polarization === undefined ? {} : { polarization }),
});
const FILES = [entry(1, 'Q'), entry(2, 'U')];

describe('a made-up listing field added to the column table', () => {
  it('is a column of the command line’s files table, after the size', () => {
    const layout = filesTableLayout(FILES, TABLE);
    expect(layout.head()[0]).toBe('Date/time            Instrument Product        Size (gz) Pol   Filename');
    expect(layout.row(FILES[1]!)).toBe('2025-03-24T21:03:02  newi       l2                2.0 KB U     20250324_210302_newi_l2.fts');
    // Optional: a listing without it has no such column.
    expect(filesTableLayout([entry(3)], TABLE).head()[0]).not.toContain('Pol');
  });

  it('is a column of the results grid, with its own track', async () => {
    const { results } = await keptResults([...FILES]);
    render(ResultsTable, { props: { results, count: FILES.length, selection: results.selection, columns: columnsShown(FILES, TABLE) } });
    const grid = screen.getByRole('grid', { name: 'Files found' });
    const headers = within(grid)
      .getAllByRole('columnheader')
      .map((header) => header.textContent?.trim());
    expect(headers).toEqual(['', 'Date-obs (UT)', 'File name', 'Listed size', 'Polarization']);
    expect(grid.style.getPropertyValue('--columns')).toBe('32px 156px minmax(240px, 340px) 88px 96px minmax(0, 1fr)');
    const lastCell = (): string | undefined => within(grid.querySelector<HTMLElement>('#file-row-0')!).getAllByRole('gridcell').at(-1)!.textContent?.trim();
    await waitFor(() => expect(lastCell()).toBe('Q'));
  });

  it('is a column of the campaign manifest, before the url', () => {
    const stored: CampaignFileState = {
      relativePath: 'a.fts',
      targetPath: '/data/a.fts',
      filename: 'a.fts',
      url: 'https://api.example.org/a',
      instrument: 'newi',
      product: 'l2',
      dateObs: '2025-03-24T21:03:01',
      waveRegion: null,
      obsPlan: null,
      filesize: 2048,
      expectedSha256: null,
      firstSeenAt: '2025-04-01T10:00:00.000Z',
      jobId: null,
      state: null,
      sha256: null,
      bytesWritten: 0,
      startedAt: null,
      finishedAt: null,
      lastError: null,
      lastErrorKind: null,
      writtenMtimeMs: null,
      checkedMtimeMs: null,
      reusedFrom: null,
      noLongerListed: false,
    };
    const rows = manifestRows([stored], TABLE);
    expect(Object.keys(rows[0]!)).toEqual([
      'date_obs',
      'instrument',
      'product',
      'filename',
      'wave_region',
      'obs_plan',
      'polarization',
      'url',
      'local_path',
      'size_on_disk',
      'sha256',
      'downloaded_at',
    ]);
    // A campaign keeps only the fields its tables have columns for, so the made-up one's value is not known.
    expect(rows[0]!.polarization).toBeNull();
    expect(manifestCsv(rows, TABLE).split('\r\n').slice(0, 2)).toEqual([
      'date_obs,instrument,product,filename,wave_region,obs_plan,polarization,url,local_path,size_on_disk,sha256,downloaded_at',
      '2025-03-24T21:03:01,newi,l2,a.fts,,,,https://api.example.org/a,/data/a.fts,,,',
    ]);
  });
});
