import { describe, expect, it } from 'vitest';
import { mlsoDl } from './fits-test-input';

const ONE_OF_THEM = 'Give a rotation number (mlso-dl cr 2295), a range (mlso-dl cr 2290-2300) or a date (mlso-dl cr --date 2025-03-24), one of them.';

describe('mlso-dl cr', () => {
  it('N: the rotation’s start and end, UT, to the nearest minute (11:59:56.6 shows as 12:00)', async () => {
    expect(await mlsoDl('cr', '2295')).toEqual({
      status: 0,
      stdout: 'Carrington rotation 2295\nstarts  2025-03-02 12:00 UT\nends    2025-03-29 19:28 UT\n',
      stderr: '',
    });
  });

  it('N: a start in a day’s last half minute shows as the next day’s 00:00', async () => {
    expect((await mlsoDl('cr', '1374')).stdout).toBe('Carrington rotation 1374\nstarts  1956-05-23 00:00 UT\nends    1956-06-19 04:50 UT\n');
  });

  it('N --json: start and end to the millisecond', async () => {
    const run = await mlsoDl('cr', '2295', '--json');
    expect(JSON.parse(run.stdout)).toEqual({ rotation: 2295, start: '2025-03-02T11:59:56.606Z', end: '2025-03-29T19:28:28.441Z' });
  });

  it('FIRST-LAST: a table of the rotations, each ending as the next begins; --quiet leaves out its header', async () => {
    const table = [
      'Rotation  Starts (UT)       Ends (UT)',
      '--------  ----------------  ----------------',
      '1372      1956-03-29 12:06  1956-04-25 18:33',
      '1373      1956-04-25 18:33  1956-05-23 00:00',
      '1374      1956-05-23 00:00  1956-06-19 04:50',
    ];
    expect(await mlsoDl('cr', '1372-1374')).toEqual({ status: 0, stdout: `${table.join('\n')}\n`, stderr: '' });
    expect((await mlsoDl('-q', 'cr', '1372-1374')).stdout).toBe(`${table.slice(2).join('\n')}\n`);
  });

  it('FIRST-LAST --json: an array of what N --json prints, one element for a range of one', async () => {
    const run = await mlsoDl('cr', '2294-2295', '--json');
    expect(JSON.parse(run.stdout)).toEqual([
      { rotation: 2294, start: '2025-02-03T03:54:25.885Z', end: '2025-03-02T11:59:56.606Z' },
      { rotation: 2295, start: '2025-03-02T11:59:56.606Z', end: '2025-03-29T19:28:28.441Z' },
    ]);
    expect(JSON.parse((await mlsoDl('cr', '2295-2295', '--json')).stdout)).toEqual([JSON.parse((await mlsoDl('cr', '2295', '--json')).stdout)]);
  });

  it('--date: the rotation under way at the start of that day, or at the time given', async () => {
    expect((await mlsoDl('cr', '--date', '2025-03-24')).stdout.split('\n')[0]).toBe('Carrington rotation 2295');
    expect((await mlsoDl('cr', '--date', '2025-03-02T11:59:00')).stdout.split('\n')[0]).toBe('Carrington rotation 2294');
    expect((await mlsoDl('cr', '--date', '2025-03-02T12:00:00')).stdout.split('\n')[0]).toBe('Carrington rotation 2295');
    const json = JSON.parse((await mlsoDl('cr', '--date', '2013-10-01', '--json')).stdout);
    expect(json).toEqual({ rotation: 2142, start: '2013-09-28T03:16:51.290Z', end: '2013-10-25T10:13:03.677Z', date: '2013-10-01T00:00:00.000Z' });
  });

  it('--date of a day on which the next rotation begins: says so (not with -q)', async () => {
    const run = await mlsoDl('cr', '--date', '2025-03-02');
    expect(run.stdout.split('\n')[0]).toBe('Carrington rotation 2294');
    expect(run.stderr).toBe('Rotation 2295 begins later that day, at 2025-03-02 12:00 UT.\n');
    expect((await mlsoDl('-q', 'cr', '--date', '2025-03-02')).stderr).toBe('');
  });

  it('--date of a day whose last seconds begin the next rotation: no note, as the end shown is the next day’s 00:00', async () => {
    expect(await mlsoDl('cr', '--date', '1956-05-22')).toEqual({
      status: 0,
      stdout: 'Carrington rotation 1373\nstarts  1956-04-25 18:33 UT\nends    1956-05-23 00:00 UT\n',
      stderr: '',
    });
  });

  it.each([
    [[], ONE_OF_THEM],
    [['2295', '--date', '2025-03-24'], ONE_OF_THEM],
    [['2290-2300', '--date', '2025-03-24'], ONE_OF_THEM],
    [['two'], 'Carrington rotation "two" must be a positive whole number, e.g. 2295.'],
    [['0'], 'Carrington rotation "0" must be a positive whole number, e.g. 2295.'],
    [['10000'], 'Carrington rotation 10000 is too far ahead: use a number from 1 to 9999.'],
    [['2290-x'], 'Carrington rotation "x" must be a positive whole number, e.g. 2295.'],
    [['2290-10000'], 'Carrington rotation 10000 is too far ahead: use a number from 1 to 9999.'],
    [['2300-2290'], 'Carrington rotations 2300-2290: give the first one first, e.g. 2290-2300.'],
    [['--date', 'yesterday'], '--date "yesterday" is not a date: use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UT), e.g. 2025-03-24.'],
    [['--date', '2025-02-30'], '--date "2025-02-30" is not a real calendar date and time: use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UT), e.g. 2025-03-24.'],
    [['--date', '1850-01-01'], '--date "1850-01-01" is before rotation 1, which began 1853-11-09 21:51 UT.'],
  ])('%j: one line, status 2', async (args, message) => {
    expect(await mlsoDl('cr', ...args)).toEqual({ status: 2, stdout: '', stderr: `mlso-dl: ${message}\n` });
  });
});
