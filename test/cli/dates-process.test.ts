// Every date typed on the command line is held to one rule (src-shared/filters/ut-timestamp.ts): a real
// calendar day, leap years counted, or a plain one-line refusal with status 2. The built mlso-dl, in a child
// process (node scripts/build-main.mjs first).
import { afterEach, describe, expect, it } from 'vitest';
import { runBuiltCli, stopBuiltCli } from '../helpers/built-cli';

afterEach(async () => {
  await stopBuiltCli();
});

const FORMS = 'use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UT), e.g. 2025-03-24.';

describe('dates typed on the command line', () => {
  it.each([
    [['cr', '--date', '2025-02-30'], `--date "2025-02-30" is not a real calendar date and time: ${FORMS}`],
    [['cr', '--date', '2023-02-29T12:00:00'], `--date "2023-02-29T12:00:00" is not a real calendar date and time: ${FORMS}`],
    [['cr', '--date', '0099-01-01'], '--date "0099-01-01" is before rotation 1, which began 1853-11-09 21:51 UT.'],
    [
      ['files', '-i', 'kcor', '-p', 'pb', '--start-date', '2025-02-30'],
      'Start date "2025-02-30" is not a real calendar date and time: use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UT).',
    ],
    [
      ['mock-server', '--port', '0', '--last-day', '2025-02-30'],
      `option '--last-day <date>' argument '2025-02-30' is invalid. "2025-02-30" is not a real calendar day: use YYYY-MM-DD, e.g. 2025-03-24.`,
    ],
  ])('%j: one line, status 2', async (args, message) => {
    const run = await runBuiltCli(args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toMatch(new RegExp(`^(mlso-dl|error): ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  });

  it('a leap day is a real day: cr --date 2024-02-29', async () => {
    const run = await runBuiltCli(['cr', '--date', '2024-02-29', '--json']);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ rotation: 2281, date: '2024-02-29T00:00:00.000Z' });
  });
});
