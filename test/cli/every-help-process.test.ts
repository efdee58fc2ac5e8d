// `mlso-dl files --help` as the built command prints it through a pipe: --every says what the service selects
// (the first file of each clock period, so two can be minutes apart) with an example from the demo server's data.
import { afterAll, describe, expect, it } from 'vitest';
import { runPiped, stopBuiltCli } from '../helpers/built-cli';

afterAll(async () => {
  await stopBuiltCli();
});

describe('the --every help of the built mlso-dl', () => {
  it('says periods are cut by the UT clock and gives an example of two files minutes apart', async () => {
    const run = await runPiped(['files', '--help'], 'cat');
    expect(run.statuses).toEqual([0, 0]);
    const help = run.output.toString();
    const words = help.slice(help.indexOf('--every'), help.indexOf('-d, --download')).replace(/\s+/g, ' ');
    expect(words).toContain('the first file of each period of the UT clock');
    expect(words).toContain('so two can be minutes apart: 2hours on 2025-03-21 gave 17:55:59, 18:00:00 and 20:00:03 UT');
  });
});
