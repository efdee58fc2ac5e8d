// The human tables at the sizes listings reach, and with server text that must not drive the terminal.
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { columnsTable, instrumentsTable, productsTable } from '../../../src-main/cli/output/tables';
import { LAYOUT_SAMPLE_SIZE, StreamedFilesTable } from '../../../src-main/cli/output/streamed-files-table';

function kcorEntry(index: number): FileEntry {
  const seconds = String(index % 60).padStart(2, '0');
  return {
    'date-obs': `2025-03-24T21:03:${seconds}`,
    filename: `20250324_2103${seconds}_kcor_l2_pb_${index}.fts`,
    filesize: 2_582_027,
    instrument: 'kcor',
    product: 'pb',
    url: `http://example.invalid/download?file=${index}`,
  } as FileEntry;
}

/** The whole table of `files`, streamed in batches of 250 entries, as a listing arrives in pieces. */
function filesTable(files: readonly FileEntry[]): string {
  const table = new StreamedFilesTable();
  let text = '';
  for (let start = 0; start < files.length; start += 250) text += table.add(files.slice(start, start + 250));
  return text + table.end();
}

/** Raw control characters (any C0 but our own newline, DEL, C1) and bidirectional overrides. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must not be printed
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('the files table', () => {
  it('lays out 200,000 entries (a listing too large to spread into Math.max)', () => {
    const files = Array.from({ length: 200_000 }, (_, index) => kcorEntry(index));
    const lines = filesTable(files).trimEnd().split('\n');
    expect(lines).toHaveLength(200_000 + 4);
    expect(lines[0]).toMatch(/^Date\/time\s+Instrument\s+Product\s+Size \(gz\)\s+Filename$/);
    expect(lines.at(-1)).toMatch(/^200000 files\s+\d+\.\d GB compressed \(KB = 1024 B\); files are saved decompressed$/);
    // Streamed, the name column is measured on the first block: the rules are as wide as its longest name
    // (index 999), and a longer name later only makes its own row longer, starting in the same column.
    expect(LAYOUT_SAMPLE_SIZE).toBe(1000);
    expect(lines[1]!.endsWith(` ${'-'.repeat('20250324_210339_kcor_l2_pb_999.fts'.length)}`)).toBe(true);
    expect(lines[200_001]!.indexOf('20250324_')).toBe(lines[2]!.indexOf('20250324_'));
    expect(lines[200_001]!.length).toBeGreaterThan(lines[1]!.length);
  });

  it('shows control characters and bidi overrides in server text escaped, columns still aligned', () => {
    const hostile = {
      ...kcorEntry(1),
      'date-obs': '2025-03-24T21:03:01\u0007',
      filename: 'evil\u001b]0;owned\u0007\u202egnp.fts',
      instrument: 'kc\u0000or',
      product: 'p\u009b2Jb',
      'obs-plan': 'syn\u0085optic',
    } as FileEntry;
    const table = filesTable([hostile, kcorEntry(2)]);
    expect(table).not.toMatch(RAW_CONTROL);
    expect(table).toContain('evil\\u001b]0;owned\\u0007\\u202egnp.fts');
    expect(table).toContain('2025-03-24T21:03:01\\u0007');
    expect(table).toContain('kc\\u0000or');
    expect(table).toContain('p\\u009b2Jb');
    expect(table).toContain('syn\\u0085optic');
    const lines = table.split('\n');
    // Widths count the escaped text, so the next row's name starts where the hostile row's does.
    expect(lines[2]!.indexOf('evil')).toBe(lines[3]!.indexOf('20250324'));
  });

  it('escapes the instruments and products tables too', () => {
    const instruments = instrumentsTable([
      { id: 'kc\u001bor', name: 'K-Cor\u202e', 'start-date': '2013-09-30T00:00:00', 'end-date': '2025-03-24T00:00:00' } as never,
    ]);
    expect(instruments).not.toMatch(RAW_CONTROL);
    expect(instruments).toContain('kc\\u001bor');
    const products = productsTable([{ id: 'p\u009bb', title: 'pB\u0007', description: 'polarization\u001b[2J brightness' } as never]);
    expect(products).not.toMatch(RAW_CONTROL);
    expect(products).toContain('polarization\\u001b[2J');
  });
});

describe('a plain table of columns', () => {
  it('pads every column but the last to its widest escaped cell, and drops the header when asked', () => {
    const rows = [
      ['2024 eclipse', '12', '/data/eclipse'],
      ['bell\u0007', '3', '/x'],
    ];
    expect(columnsTable(['Campaign', 'Files', 'Folder'], rows).split('\n')).toEqual([
      'Campaign      Files  Folder',
      '------------  -----  -------------',
      '2024 eclipse  12     /data/eclipse',
      'bell\\u0007    3      /x',
    ]);
    expect(columnsTable(['Campaign', 'Files', 'Folder'], rows, { header: false }).split('\n')).toHaveLength(2);
  });
});
