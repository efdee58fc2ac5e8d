// The files table line by line, exactly as the command line prints it: mlsoapi's columns, the optional wave region
// and observing plan of UCoMP, widths widened by long values, the count and total under the size column.
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { StreamedFilesTable } from '../../../src-main/cli/output/streamed-files-table';

const kcor = (second: number, filesize: number): FileEntry => ({
  'date-obs': `2025-03-24T21:03:${String(second).padStart(2, '0')}`,
  filename: `20250324_2103${String(second).padStart(2, '0')}_kcor_l2_pb.fts`,
  filesize,
  instrument: 'kcor',
  product: 'pb',
  url: `https://example.invalid/${second}`,
});

const ucomp = (second: number, wave: string | undefined, plan: string | null | undefined): FileEntry => ({
  'date-obs': `2025-03-24T20:06:${String(second).padStart(2, '0')}`,
  filename: `20250324.2006${String(second).padStart(2, '0')}.ucomp.${wave ?? 'x'}.l2.fts`,
  filesize: 31_501_440,
  instrument: 'ucomp',
  product: 'l2',
  url: `https://example.invalid/u${second}`,
  ...(wave === undefined ? {} : { 'wave-region': wave }),
  ...(plan === undefined ? {} : { 'obs-plan': plan }),
  wavelengths: 5,
});

function table(files: readonly FileEntry[], header = true): string {
  const streamed = new StreamedFilesTable({ header });
  return streamed.add(files) + streamed.end();
}

describe('the files table, exactly', () => {
  it('lays out KCor, an unknown size making the total a lower bound', () => {
    expect(table([kcor(4, 2_582_027), kcor(19, 0), kcor(34, 999)])).toMatchInlineSnapshot(`
      "Date/time            Instrument Product        Size (gz) Filename
      -------------------- ---------- ------------- ---------- ------------------------------
      2025-03-24T21:03:04  kcor       pb                2.5 MB 20250324_210304_kcor_l2_pb.fts
      2025-03-24T21:03:19  kcor       pb               unknown 20250324_210319_kcor_l2_pb.fts
      2025-03-24T21:03:34  kcor       pb                 999 B 20250324_210334_kcor_l2_pb.fts
      -------------------- ---------- ------------- ---------- ------------------------------
      3 files                                         ≥ 2.5 MB compressed (KB = 1024 B); files are saved decompressed
      (some sizes are unknown, so the total is a lower bound)
      "
    `);
  });

  it('adds the wave region and observing plan for UCoMP, widening the plan column to its longest value', () => {
    expect(table([ucomp(52, '789', 'synoptic-original-lines.cbk'), ucomp(53, '1074-1079', 'waves'), ucomp(54, '1074', null)])).toMatchInlineSnapshot(`
      "Date/time            Instrument Product        Size (gz) Wave   Obs plan                    Filename
      -------------------- ---------- ------------- ---------- ------ --------------------------- --------------------------------------
      2025-03-24T20:06:52  ucomp      l2               30.0 MB 789    synoptic-original-lines.cbk 20250324.200652.ucomp.789.l2.fts
      2025-03-24T20:06:53  ucomp      l2               30.0 MB 1074-1079 waves                       20250324.200653.ucomp.1074-1079.l2.fts
      2025-03-24T20:06:54  ucomp      l2               30.0 MB 1074                               20250324.200654.ucomp.1074.l2.fts
      -------------------- ---------- ------------- ---------- ------ --------------------------- --------------------------------------
      3 files                                          90.1 MB compressed (KB = 1024 B); files are saved decompressed
      "
    `);
  });

  it('shows only the optional column some entry has a value for, and drops the header when asked', () => {
    expect(table([ucomp(1, '1079', ''), ucomp(2, undefined, undefined), { ...kcor(3, 10), product: 'a-long-product-name', instrument: 'an-instrument' }]))
      .toMatchInlineSnapshot(`
      "Date/time            Instrument    Product              Size (gz) Wave   Filename
      -------------------- ------------- ------------------- ---------- ------ ---------------------------------
      2025-03-24T20:06:01  ucomp         l2                     30.0 MB 1079   20250324.200601.ucomp.1079.l2.fts
      2025-03-24T20:06:02  ucomp         l2                     30.0 MB        20250324.200602.ucomp.x.l2.fts
      2025-03-24T21:03:03  an-instrument a-long-product-name       10 B        20250324_210303_kcor_l2_pb.fts
      -------------------- ------------- ------------------- ---------- ------ ---------------------------------
      3 files                                                   60.1 MB compressed (KB = 1024 B); files are saved decompressed
      "
    `);
    expect(table([kcor(4, 2_582_027)], false)).toMatchInlineSnapshot(`
      "2025-03-24T21:03:04  kcor       pb                2.5 MB 20250324_210304_kcor_l2_pb.fts
      -------------------- ---------- ------------- ---------- ------------------------------
      1 file                                            2.5 MB compressed (KB = 1024 B); files are saved decompressed
      "
    `);
  });
});
