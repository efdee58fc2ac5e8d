import { describe, expect, it } from 'vitest';
import { mlsoDl } from './fits-test-input';

describe('mlso-dl cr', () => {
  it('N: the rotation’s start and end, UT, to the minute', async () => {
    expect(await mlsoDl('cr', '2295')).toEqual({
      status: 0,
      stdout: 'Carrington rotation 2295\nstarts  2025-03-02 11:59 UT\nends    2025-03-29 19:28 UT\n',
      stderr: '',
    });
  });

  it('N --json: start and end to the second', async () => {
    const run = await mlsoDl('cr', '2295', '--json');
    expect(JSON.parse(run.stdout)).toEqual({ rotation: 2295, start: '2025-03-02T11:59:56Z', end: '2025-03-29T19:28:28Z' });
  });

  it('--date: the rotation under way at the start of that day, or at the time given', async () => {
    expect((await mlsoDl('cr', '--date', '2025-03-24')).stdout.split('\n')[0]).toBe('Carrington rotation 2295');
    expect((await mlsoDl('cr', '--date', '2025-03-02T11:59:00')).stdout.split('\n')[0]).toBe('Carrington rotation 2294');
    expect((await mlsoDl('cr', '--date', '2025-03-02T12:00:00')).stdout.split('\n')[0]).toBe('Carrington rotation 2295');
    const json = JSON.parse((await mlsoDl('cr', '--date', '2013-10-01', '--json')).stdout);
    expect(json).toEqual({ rotation: 2142, start: '2013-09-28T03:16:51Z', end: '2013-10-25T10:13:03Z', date: '2013-10-01T00:00:00Z' });
  });

  it('--date of a day on which the next rotation begins: says so (not with -q)', async () => {
    const run = await mlsoDl('cr', '--date', '2025-03-02');
    expect(run.stdout.split('\n')[0]).toBe('Carrington rotation 2294');
    expect(run.stderr).toBe('Rotation 2295 begins later that day, at 2025-03-02 11:59 UT.\n');
    expect((await mlsoDl('-q', 'cr', '--date', '2025-03-02')).stderr).toBe('');
  });

  it.each([
    [[], 'Give a rotation number (mlso-dl cr 2295) or a date (mlso-dl cr --date 2025-03-24), one of the two.'],
    [['2295', '--date', '2025-03-24'], 'Give a rotation number (mlso-dl cr 2295) or a date (mlso-dl cr --date 2025-03-24), one of the two.'],
    [['two'], 'Carrington rotation "two" must be a positive whole number, e.g. 2295.'],
    [['0'], 'Carrington rotation "0" must be a positive whole number, e.g. 2295.'],
    [['10000'], 'Carrington rotation 10000 is too far ahead: use a number from 1 to 9999.'],
    [['--date', 'yesterday'], '--date "yesterday" is not a date: use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UT), e.g. 2025-03-24.'],
    [['--date', '2025-02-30'], '--date "2025-02-30" is not a real calendar date and time: use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UT), e.g. 2025-03-24.'],
    [['--date', '1850-01-01'], '--date "1850-01-01" is before rotation 1, which began 1853-11-09 21:51 UT.'],
  ])('%j: one line, status 2', async (args, message) => {
    expect(await mlsoDl('cr', ...args)).toEqual({ status: 2, stdout: '', stderr: `mlso-dl: ${message}\n` });
  });
});
