import { describe, expect, it } from 'vitest';
import { concat, emptyPrimary, imageHdu, tableHdu } from '../shared/fits/fits-writer';
import { EMULATOR_FILE, emulatorFitsBytes, fitsFileOf, mlsoDl } from './fits-test-input';

const LONG_RECORDS = [
  "LONGSTR = 'A long string value, more than one card can hold, is continued&'".padEnd(80),
  "CONTINUE  ' on the next.'       / its comment".padEnd(80),
];

const file = concat(
  emptyPrimary(['HISTORY calibrated with the test writer', ...LONG_RECORDS]),
  imageHdu({ bitpix: -32, axes: [6, 4], stored: new Array(24).fill(1), extension: true, extname: 'I' }),
  tableHdu(4),
);

describe('mlso-dl header', () => {
  it('prints every HDU, under a line saying which it is, each card as the file holds it', async () => {
    const input = await fitsFileOf(file);
    const run = await mlsoDl('header', input);
    expect(run.status, run.stderr).toBe(0);
    const blocks = run.stdout.trimEnd().split('\n\n');
    expect(blocks.map((block) => block.split('\n')[0])).toEqual(['# HDU 0 (primary)', "# HDU 1 (IMAGE, EXTNAME 'I'): 6 x 4 float32", '# HDU 2 (BINTABLE): 4 rows']);
    expect(blocks[0]!.split('\n').slice(1)).toEqual([
      'SIMPLE  =                    T',
      'BITPIX  =                    8',
      'NAXIS   =                    0',
      'EXTEND  =                    T',
      'HISTORY calibrated with the test writer',
      ...LONG_RECORDS.map((record) => record.trimEnd()),
    ]);
  });

  it('--hdu N prints that HDU alone', async () => {
    const input = await fitsFileOf(file);
    const run = await mlsoDl('header', input, '--hdu', '1');
    expect(run.stdout.split('\n')[0]).toBe("XTENSION= 'IMAGE   '");
    expect(run.stdout).not.toContain('#');
  });

  it('--json --hdu N: keyword, value and comment of each card; long strings joined, commentary with a null value', async () => {
    const input = await fitsFileOf(file);
    const run = await mlsoDl('header', input, '--hdu', '0', '--json');
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      { keyword: 'SIMPLE', value: true, comment: '' },
      { keyword: 'BITPIX', value: 8, comment: '' },
      { keyword: 'NAXIS', value: 0, comment: '' },
      { keyword: 'EXTEND', value: true, comment: '' },
      { keyword: 'HISTORY', value: null, comment: 'calibrated with the test writer' },
      { keyword: 'LONGSTR', value: 'A long string value, more than one card can hold, is continued on the next.', comment: 'its comment' },
    ]);
  });

  it('--json without --hdu: every HDU with its type, name and cards', async () => {
    const input = await fitsFileOf(file);
    const hdus = JSON.parse((await mlsoDl('header', input, '--json')).stdout) as { hdu: number; type: string; name?: string; cards: unknown[] }[];
    expect(hdus.map(({ hdu, type, name }) => ({ hdu, type, name }))).toEqual([
      { hdu: 0, type: 'primary', name: undefined },
      { hdu: 1, type: 'IMAGE', name: 'I' },
      { hdu: 2, type: 'BINTABLE', name: undefined },
    ]);
    expect(hdus[1]!.cards).toContainEqual({ keyword: 'EXTNAME', value: 'I', comment: '' });
  });

  it("an emulator file's header: its date-obs and the comment that it is synthetic", async () => {
    const input = await fitsFileOf(emulatorFitsBytes(16), EMULATOR_FILE);
    const cards = JSON.parse((await mlsoDl('header', input, '--hdu', '0', '--json')).stdout) as { keyword: string; value: unknown; comment: string }[];
    expect(cards).toContainEqual({ keyword: 'DATE-OBS', value: '2025-03-24T21:03:04', comment: '[UT] date/time of the observation' });
    expect(cards.at(-1)).toEqual({ keyword: 'COMMENT', value: null, comment: 'Synthetic image made by the MLSO Downloader API emulator, not observed' });
  });

  it.each([
    [['--hdu', '3'], 'test.fts has no HDU 3: its HDUs are 0 to 2.'],
    [['--hdu', '-1'], '--hdu "-1" must be a whole number: 0 is the primary HDU, 1 the first extension.'],
  ])('%j: one line, status 2', async (args, message) => {
    const input = await fitsFileOf(file);
    const run = await mlsoDl('header', input, ...args);
    expect(run).toEqual({ status: 2, stdout: '', stderr: `mlso-dl: ${message.replace('test.fts', input)}\n` });
  });

  it('a truncated file: which HDU it ends in, status 2', async () => {
    const input = await fitsFileOf(file.subarray(0, 2880 * 2 + 10));
    const run = await mlsoDl('header', input);
    expect(run).toEqual({ status: 2, stdout: '', stderr: `mlso-dl: ${input} ends after 10 of 96 bytes of HDU 1's data.\n` });
  });
});
