import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { concat, emptyPrimary, imageHdu, tableHdu, type ImageSpec } from '../science/fits/fits-writer';
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
    expect(blocks.map((block) => block.split('\n')[0])).toEqual([
      '# HDU 0 (primary)',
      "# HDU 1 (IMAGE, EXTNAME 'I'): 6 x 4 float32",
      '# HDU 2 (BINTABLE): 4 rows',
    ]);
    expect(blocks[0]!.split('\n').slice(1)).toEqual([
      'SIMPLE  =                    T',
      'BITPIX  =                    8',
      'NAXIS   =                    0',
      'EXTEND  =                    T',
      'HISTORY calibrated with the test writer',
      ...LONG_RECORDS.map((record) => record.trimEnd()),
    ]);
  });

  it.each<[string, Partial<ImageSpec>, string]>([
    ['int16 with BZERO 32768 holds unsigned values', { bitpix: 16, bzero: 32768 }, 'int16, rescaled to uint16'],
    ['BSCALE 1 written out changes nothing', { bitpix: 16, bzero: 32768, bscale: 1 }, 'int16, rescaled to uint16'],
    ['uint8 with BZERO -128 holds signed bytes', { bitpix: 8, bzero: -128 }, 'uint8, rescaled to int8'],
    ['int32 with BZERO 2^31', { bitpix: 32, bzero: 2147483648 }, 'int32, rescaled to uint32'],
    ['int64 with BZERO 2^63', { bitpix: 64, bzero: 9223372036854775808n }, 'int64, rescaled to uint64'],
    ['any other BSCALE or BZERO scales to float', { bitpix: 16, bscale: 0.5, bzero: 10 }, 'int16, scaled to float (BSCALE 0.5, BZERO 10)'],
    ['BZERO alone, not the unsigned offset', { bitpix: 16, bzero: 1000 }, 'int16, scaled to float (BZERO 1000)'],
    ['the unsigned offset with a BSCALE', { bitpix: 16, bzero: 32768, bscale: 2 }, 'int16, scaled to float (BSCALE 2, BZERO 32768)'],
    ['a float image scaled', { bitpix: -32, bscale: 2 }, 'float32, scaled (BSCALE 2)'],
    ['BSCALE 1 and BZERO 0 written out', { bitpix: 16, bscale: 1, bzero: 0 }, 'int16'],
  ])('the summary says when BSCALE and BZERO rescale: %s', async (_case, scaling, summary) => {
    const stored = new Array(6).fill(scaling.bitpix === 64 ? 1n : 1);
    const input = await fitsFileOf(imageHdu({ bitpix: 16, axes: [3, 2], stored, ...scaling }));
    const run = await mlsoDl('header', input);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(`# HDU 0 (primary): 3 x 2 ${summary}`);
  });

  it('--hdu N prints that HDU alone', async () => {
    const input = await fitsFileOf(file);
    const run = await mlsoDl('header', input, '--hdu', '1');
    expect(run.stdout.split('\n')[0]).toBe("XTENSION= 'IMAGE   '");
    expect(run.stdout).not.toContain('#');
  });

  it('--json --hdu N: keyword, type, value and comment of each card; long strings joined, commentary with a null value', async () => {
    const input = await fitsFileOf(file);
    const run = await mlsoDl('header', input, '--hdu', '0', '--json');
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      { keyword: 'SIMPLE', type: 'logical', value: true, comment: '' },
      { keyword: 'BITPIX', type: 'integer', value: 8, comment: '' },
      { keyword: 'NAXIS', type: 'integer', value: 0, comment: '' },
      { keyword: 'EXTEND', type: 'logical', value: true, comment: '' },
      { keyword: 'HISTORY', type: 'commentary', value: null, comment: 'calibrated with the test writer' },
      { keyword: 'LONGSTR', type: 'string', value: 'A long string value, more than one card can hold, is continued on the next.', comment: 'its comment' },
    ]);
  });

  // typed-cards.fits: every kind of value, as astropy reads them (test/science/fits/fits-card-types.test.ts).
  const TYPED = path.resolve(import.meta.dirname, '../fixtures/fits-header/typed-cards.fits');

  it('--json gives each value its type: a real stays a real (32768.0), integers past 2^53 are exact digits in a string', async () => {
    const input = await fitsFileOf(await readFile(TYPED));
    const run = await mlsoDl('header', input, '--hdu', '0', '--json');
    // astropy writes EXTEND = T on every primary HDU, this header-only one too: a whole file to the reader.
    expect([run.status, run.stderr]).toEqual([0, '']);
    // Reals are written with a point or an exponent, so Python's json and jq read them as floats, as astropy does.
    for (const line of [
      '"value": 32768.0,',
      '"value": 32768,',
      '"value": 226.0,',
      '"value": 1500.0,',
      '"value": -0.0,',
      '"value": "-9223372036854775808",',
      '"value": "100000000000000000000000000000000000000000000000",',
      '"value": {\n      "re": 1.5,\n      "im": -2.0\n    },',
    ]) {
      expect(run.stdout).toContain(line);
    }
    const cards = new Map((JSON.parse(run.stdout) as { keyword: string; type: string; value: unknown }[]).map((card) => [card.keyword, card]));
    const typed = (keyword: string): unknown => ({ type: cards.get(keyword)?.type, value: cards.get(keyword)?.value });
    expect(typed('BZERO')).toEqual({ type: 'real', value: 32768 });
    expect(typed('BZINT')).toEqual({ type: 'integer', value: 32768 });
    expect(typed('Z')).toEqual({ type: 'real', value: -0 });
    expect(typed('NEGZINT')).toEqual({ type: 'integer', value: 0 });
    expect(typed('MAXSAFE')).toEqual({ type: 'integer', value: 9007199254740991 });
    expect(typed('PASTSAFE')).toEqual({ type: 'integer', value: '9007199254740993' });
    expect(typed('BLANK')).toEqual({ type: 'integer', value: '-9223372036854775808' });
    expect(typed('BIG')).toEqual({ type: 'integer', value: '100000000000000000000000000000000000000000000000' });
    expect(typed('HUGE')).toEqual({ type: 'real', value: 'Infinity' });
    expect(typed('CPLX')).toEqual({ type: 'complex', value: { re: 1.5, im: -2 } });
    expect(typed('CPLXD')).toEqual({ type: 'complex', value: { re: 100, im: -5 } });
    expect(typed('FLAG')).toEqual({ type: 'logical', value: false });
    expect(typed('NUMTEXT')).toEqual({ type: 'string', value: '32768' });
    expect(typed('UNDEF')).toEqual({ type: 'undefined', value: null });
    expect(typed('BADVAL')).toEqual({ type: 'malformed', value: 'abc' });
  });

  it('--json without --hdu: every HDU with its type, name and cards', async () => {
    const input = await fitsFileOf(file);
    const hdus = JSON.parse((await mlsoDl('header', input, '--json')).stdout) as { hdu: number; type: string; name?: string; cards: unknown[] }[];
    expect(hdus.map(({ hdu, type, name }) => ({ hdu, type, name }))).toEqual([
      { hdu: 0, type: 'primary', name: undefined },
      { hdu: 1, type: 'IMAGE', name: 'I' },
      { hdu: 2, type: 'BINTABLE', name: undefined },
    ]);
    expect(hdus[1]!.cards).toContainEqual({ keyword: 'EXTNAME', type: 'string', value: 'I', comment: '' });
  });

  it("an emulator file's header: its date-obs and the comment that it is synthetic", async () => {
    const input = await fitsFileOf(emulatorFitsBytes(16), EMULATOR_FILE);
    const cards = JSON.parse((await mlsoDl('header', input, '--hdu', '0', '--json')).stdout) as { keyword: string; value: unknown; comment: string }[];
    expect(cards).toContainEqual({ keyword: 'DATE-OBS', type: 'string', value: '2025-03-24T21:03:04', comment: '[UT] date/time of the observation' });
    expect(cards.at(-1)).toEqual({
      keyword: 'COMMENT',
      type: 'commentary',
      value: null,
      comment: 'Synthetic image made by the MLSO Downloader API emulator, not observed',
    });
  });

  it.each([
    [['--hdu', '3'], 'test.fts has no HDU 3: its HDUs are 0 to 2.'],
    [['--hdu', '-1'], '--hdu "-1" must be a whole number: 0 is the primary HDU, 1 the first extension.'],
  ])('%j: one line, status 2', async (args, message) => {
    const input = await fitsFileOf(file);
    const run = await mlsoDl('header', input, ...args);
    expect(run).toEqual({ status: 2, stdout: '', stderr: `mlso-dl: ${message.replace('test.fts', input)}\n` });
  });

  it('a truncated file: the headers that arrived whole, then which HDU it ends in, status 2', async () => {
    const input = await fitsFileOf(file.subarray(0, 2880 * 2 + 10));
    const run = await mlsoDl('header', input);
    expect([run.status, run.stderr]).toEqual([2, `mlso-dl: ${input} ends after 10 of 96 bytes of HDU 1's data.\n`]);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('# '))).toEqual(['# HDU 0 (primary)', "# HDU 1 (IMAGE, EXTNAME 'I'): 6 x 4 float32"]);
    // Cut inside the first header: nothing whole to show.
    const early = await fitsFileOf(file.subarray(0, 1000));
    expect(await mlsoDl('header', early)).toEqual({ status: 2, stdout: '', stderr: `mlso-dl: ${early} ends after 1,000 of 2,880 bytes of HDU 0's header.\n` });
  });

  describe('a file cut where an HDU ends, with fewer HDUs than its NEXTEND declares', () => {
    const declared = concat(
      emptyPrimary([['NEXTEND', 3]]),
      imageHdu({ bitpix: -32, axes: [6, 4], stored: new Array(24).fill(1), extension: true, extname: 'I' }),
      tableHdu(4),
      tableHdu(5),
    );
    const cut = declared.subarray(0, 2880 * 3);
    const refusal = (input: string): string => `mlso-dl: ${input} ends after HDU 1: its primary header declares 3 extensions (NEXTEND = 3).\n`;

    it('whole, it reads as any file', async () => {
      expect((await mlsoDl('header', await fitsFileOf(declared))).status).toBe(0);
    });

    it('prints the HDUs that came, then the refusal: status 2', async () => {
      const input = await fitsFileOf(cut);
      const run = await mlsoDl('header', input);
      expect([run.status, run.stderr]).toEqual([2, refusal(input)]);
      expect(run.stdout.split('\n').filter((line) => line.startsWith('# '))).toEqual(['# HDU 0 (primary)', "# HDU 1 (IMAGE, EXTNAME 'I'): 6 x 4 float32"]);
    });

    it('--json: the HDUs that came, as JSON a script can still read; --hdu N: that HDU if it came', async () => {
      const input = await fitsFileOf(cut);
      const json = await mlsoDl('header', input, '--json');
      expect([json.status, json.stderr]).toEqual([2, refusal(input)]);
      expect((JSON.parse(json.stdout) as { hdu: number }[]).map((hdu) => hdu.hdu)).toEqual([0, 1]);
      const first = await mlsoDl('header', input, '--hdu', '1');
      expect([first.status, first.stderr, first.stdout.split('\n')[0]]).toEqual([2, refusal(input), "XTENSION= 'IMAGE   '"]);
      expect(await mlsoDl('header', input, '--hdu', '2')).toEqual({ status: 2, stdout: '', stderr: refusal(input) });
    });
  });
});
