// `files --download` over more than two months through the built mlso-dl and a real pipe: the listing is asked for
// in month windows, and exactly the files of one listing of the span arrive, each once.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { runPiped, startMockServer, stopBuiltCli } from '../helpers/built-cli';
import { listFolder, temporaryFolder } from '../helpers/fixtures';

let url: string;

beforeAll(async () => {
  // A file an hour over 70 days, tiny images: a few hundred small downloads.
  const { banner } = await startMockServer(['--days', '70', '--cadence', '3600', '--image-size', '8']);
  url = /listening on (http:\/\/\S+)$/.exec(banner)![1]!;
});

afterAll(async () => {
  await stopBuiltCli();
});

describe('files --download over months', () => {
  it('downloads the files of one listing of the span, each once, from month windows', async () => {
    const whole = await fetch(`${url}/v1/instruments/kcor/products/pb/files/?start-date=2025-01-20&end-date=2025-03-25`);
    const names = ((await whole.json()) as { files: { filename: string }[] }).files.map((file) => file.filename).sort();
    expect(names.length).toBeGreaterThan(100);
    const base = await temporaryFolder();
    const folder = path.join(base, 'out');
    const span = ['files', '-i', 'kcor', '-p', 'pb', '-s', '2025-01-20', '-e', '2025-03-25'];
    const run = await runPiped(
      ['--base-url', url, '--verbose', ...span, '-d', '-u', DEMO_EMAIL, '-o', folder, '--state-dir', path.join(base, 'state'), '--json'],
      'cat',
    );
    expect(run.statuses, run.stderr).toEqual([0, 0]);
    expect(run.stderr.match(/GET \S+\/files\//g)).toHaveLength(3);
    expect(await listFolder(folder)).toEqual(names);
  });
});
