// The files table written as the listing arrives: nothing until the first block is measured, then a row per
// entry as it comes, and the count and total only once the listing is complete.
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { listingTotal } from '../../../src-shared/format/human-size';
import { LAYOUT_SAMPLE_SIZE, StreamedFilesTable } from '../../../src-main/cli/output/streamed-files-table';

function entry(index: number, more: Record<string, unknown> = {}): FileEntry {
  const seconds = String(index % 60).padStart(2, '0');
  return {
    'date-obs': `2025-03-24T21:03:${seconds}`,
    filename: `20250324_2103${seconds}_kcor_l2_pb.fts`,
    filesize: 2_582_027,
    instrument: 'kcor',
    product: 'pb',
    url: `http://example.invalid/download?file=${index}`,
    ...more,
  } as FileEntry;
}

const entries = (count: number, from = 0, more: Record<string, unknown> = {}): FileEntry[] => Array.from({ length: count }, (_, i) => entry(from + i, more));
const linesOf = (text: string): string[] => text.split('\n').slice(0, -1);

describe('StreamedFilesTable', () => {
  it('writes nothing until the first block is in, then the header and its rows, then each batch as it comes, the total last', () => {
    const table = new StreamedFilesTable();
    expect(table.add(entries(LAYOUT_SAMPLE_SIZE - 1))).toBe('');
    const first = linesOf(table.add(entries(1, LAYOUT_SAMPLE_SIZE - 1)));
    expect(first).toHaveLength(2 + LAYOUT_SAMPLE_SIZE);
    expect(first[0]).toMatch(/^Date\/time\s+Instrument\s+Product\s+Size \(gz\)\s+Filename$/);
    expect(first[1]).toMatch(/^-+ -+ -+ -+ -+$/);
    const next = table.add(entries(3, LAYOUT_SAMPLE_SIZE));
    expect(linesOf(next)).toHaveLength(3);
    expect(next.endsWith('_kcor_l2_pb.fts\n')).toBe(true);
    expect(next).not.toMatch(/files\s/);
    const end = linesOf(table.end());
    expect(end).toEqual([first[1], expect.stringMatching(/^1003 files\s+2\.4 GB compressed \(KB = 1024 B\); files are saved decompressed$/)]);
    expect(table.entries).toBe(1003);
  });

  it('lays out a listing smaller than the first block whole at the end', () => {
    const table = new StreamedFilesTable();
    expect(table.add(entries(2))).toBe('');
    expect(table.add(entries(1, 2))).toBe('');
    const lines = linesOf(table.end());
    expect(lines).toHaveLength(2 + 3 + 2);
    // mlsoapi's widths: date 20, instrument 10, product 13, size 10 (right-aligned), then the name.
    expect(lines[2]).toBe(
      `${'2025-03-24T21:03:00'.padEnd(20)} ${'kcor'.padEnd(10)} ${'pb'.padEnd(13)} ${'2.5 MB'.padStart(10)} 20250324_210300_kcor_l2_pb.fts`,
    );
    expect(lines.at(-1)).toMatch(/^3 files\s+7\.4 MB compressed \(KB = 1024 B\); files are saved decompressed$/);
  });

  it('an empty listing has no table at all', () => {
    const table = new StreamedFilesTable();
    expect(table.add([])).toBe('');
    expect(table.end()).toBe('');
  });

  it('totals every entry, unknown sizes (0) making it a lower bound with its note, even when they come after the first block', () => {
    const table = new StreamedFilesTable();
    const sizes: number[] = [];
    let text = '';
    for (let batch = 0; batch < 5; batch += 1) {
      const files = entries(400, batch * 400).map((file, i) => ({ ...file, filesize: batch === 4 && i === 7 ? 0 : 1000 + batch * 400 + i }));
      for (const file of files) sizes.push(file.filesize);
      text += table.add(files);
    }
    const lines = linesOf(text + table.end());
    expect(lines.filter((line) => line.includes(' unknown 20250324_'))).toHaveLength(1);
    expect(lines.at(-2)).toMatch(new RegExp(`^2000 files\\s+${listingTotal(sizes).text} compressed \\(KB = 1024 B\\); files are saved decompressed$`));
    expect(listingTotal(sizes).text.startsWith('≥ ')).toBe(true);
    expect(lines.at(-1)).toBe('(some sizes are unknown, so the total is a lower bound)');
  });

  it('decides the UCoMP columns and the widths on the first block: a wider cell later pushes only its own row', () => {
    const ucomp = { instrument: 'ucomp', product: 'l2', 'wave-region': '1074', 'obs-plan': 'synoptic' };
    const table = new StreamedFilesTable();
    const head = linesOf(table.add(entries(LAYOUT_SAMPLE_SIZE, 0, ucomp)));
    expect(head[0]).toMatch(/Size \(gz\)\s+Wave\s+Obs plan\s+Filename$/);
    const later = linesOf(table.add([entry(5000, { ...ucomp, 'obs-plan': 'a-much-longer-observing-plan' })]))[0]!;
    // The plan column was measured as 8 wide; the longer plan moves its file name along, and no other row.
    expect(later).toMatch(/ 1074 {3}a-much-longer-observing-plan 20250324_/);
    expect(later.indexOf('20250324_')).toBeGreaterThan(head[2]!.indexOf('20250324_'));
    expect(later.indexOf('1074')).toBe(head[2]!.indexOf('1074'));
  });

  it('shows no UCoMP columns when only entries after the first block have them (the header was written already)', () => {
    const table = new StreamedFilesTable();
    const head = linesOf(table.add(entries(LAYOUT_SAMPLE_SIZE)));
    expect(head[0]).toMatch(/Size \(gz\)\s+Filename$/);
    expect(linesOf(table.add([entry(5000, { 'wave-region': '1074', 'obs-plan': 'synoptic' })]))[0]).toMatch(/2\.5 MB 20250324_\S+$/);
  });
});
