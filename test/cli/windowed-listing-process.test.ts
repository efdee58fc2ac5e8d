// `files` over four months through the built mlso-dl and a real pipe, with a listing limit that one answer of the
// span would break: the JSON is that of one listing of the span (fetched whole here), and the table (one total line)
// is that of the same span listed in month windows without the low limit. The windows show in --verbose only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPiped, startMockServer, stopBuiltCli } from '../helpers/built-cli';

let url: string;
const SPAN = ['-i', 'kcor', '-p', 'pb', '-s', '2024-11-25', '-e', '2025-03-25'];

beforeAll(async () => {
  const { banner } = await startMockServer(['--days', '120', '--cadence', '120']);
  url = /listening on (http:\/\/\S+)$/.exec(banner)![1]!;
});

afterAll(async () => {
  await stopBuiltCli();
});

describe('files over months, listed in windows by the built mlso-dl', () => {
  it('prints --json as one listing of the span would be printed', async () => {
    const whole = new URL(`${url}/v1/instruments/kcor/products/pb/files/?start-date=2024-11-25&end-date=2025-03-25&client=mlso-downloader`);
    const { files, instrument, product, total_filesize, ...dates } = (await (await fetch(whole)).json()) as Record<string, unknown>;
    expect((files as unknown[]).length).toBeGreaterThan(5000);
    // mlso-dl writes the members after the files in the order of its listing schema, as for any listing.
    const rest = { instrument, product, 'start-date': dates['start-date'], 'end-date': dates['end-date'], total_filesize };
    const run = await runPiped(['--base-url', url, '--max-listing-size', '1MB', 'files', ...SPAN, '--json'], 'cat');
    expect(run.statuses, run.stderr).toEqual([0, 0]);
    expect(run.output.toString()).toBe(`${JSON.stringify({ files, ...rest }, null, 2)}\n`);
  });

  it('prints one table with one total line, windows named in --verbose only', async () => {
    const low = await runPiped(['--base-url', url, '--max-listing-size', '1MB', 'files', ...SPAN], 'cat');
    const plain = await runPiped(['--base-url', url, 'files', ...SPAN], 'cat');
    expect(low.statuses, low.stderr).toEqual([0, 0]);
    expect(low.output.toString()).toBe(plain.output.toString());
    expect(low.output.toString().match(/^\d[\d,]* files /gm)).toHaveLength(1);
    expect(low.stderr).not.toMatch(/GET|window/i);
    const verbose = await runPiped(['--base-url', url, '--verbose', '--max-listing-size', '1MB', 'files', ...SPAN], 'cat');
    expect(verbose.stderr.match(/GET \S+\/files\//g)!.length).toBeGreaterThan(5);
  });

  it('prints an open-ended query under the low limit as one listing of it', async () => {
    const open = ['files', '-i', 'kcor', '-p', 'pb', '-s', '2024-11-25', '--json'];
    const low = await runPiped(['--base-url', url, '--max-listing-size', '1MB', ...open], 'cat');
    const plain = await runPiped(['--base-url', url, ...open], 'cat');
    expect([low.statuses, plain.statuses], low.stderr).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(low.output.toString()).toBe(plain.output.toString());
  });
});
