// Side by side with the official `mlsoapi` 1.0.0: every flag it has (global -h/--help, -v/--version,
// -u/--base-url, --local, --verbose, -q/--quiet; about, instruments, products -i; files -i/-p, --wave-region,
// --obs-plan, -s/-e, -c/--carrington-rotation/--cr, --every, -d/-u/-o), the unambiguous prefixes and --opt=value
// forms argparse accepts, and no arguments at all are accepted by mlso-dl with the same effect on the emulator.
// Where mlso-dl differs on purpose, the guide's "Differences from mlsoapi" table (docs/guide/mlsoapi.md) says so: each of its rows names
// a check below, which runs, so the table cannot drift from the behaviour.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/run-cli';
import { CLIENT_VERSION } from '../../src-main/cli/version';
import { DEMO_EMAIL, createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { Capture, cliAgainst, listFolder, temporaryFolder, useEmulator, type CliRun } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 64 });
const cli = cliAgainst(emulator);
const WINDOW = ['-s', '2025-03-24T21:03:00', '-e', '2025-03-24T21:04:00'];
const WINDOW_FILES = ['20250324_210304_kcor_l2_pb.fts', '20250324_210319_kcor_l2_pb.fts', '20250324_210334_kcor_l2_pb.fts', '20250324_210350_kcor_l2_pb.fts'];

/** mlso-dl with exactly these arguments (no --base-url added). */
async function mlsoDl(...args: string[]): Promise<CliRun> {
  const stdout = new Capture();
  const stderr = new Capture();
  const status = await runCli(args, { stdout, stderr });
  return { status, stdout: stdout.text, stderr: stderr.text };
}

/** The query of the files request a --verbose run made (its first `GET .../files?...` line). */
function filesQuery(stderr: string): Record<string, string> {
  const url = /^GET (\S+\/files\/?\?\S*)$/m.exec(stderr)?.[1];
  if (!url) throw new Error(`no files request in:\n${stderr}`);
  const query = Object.fromEntries(new URL(url).searchParams);
  delete query['client'];
  return query;
}

const expectHelp = (run: CliRun): void => {
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/^Usage: mlso-dl \[options\] \[command\]/);
  for (const command of ['about', 'instruments', 'products', 'files']) expect(run.stdout).toContain(command);
  expect(run.stderr).toBe('');
};

const expectInstrumentsTable = (run: CliRun): void => {
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^ID\s+Instrument name\s+Dates available\n/);
  expect(run.stdout).toMatch(/\nkcor\s+COSMO K-Coronagraph/);
};

describe("mlsoapi's global flags", () => {
  it.each([[[]], [['-h']], [['--help']], [['--he']], [['--local']], [['-q']]])('%j prints the help on stdout with status 0', async (args) => {
    expectHelp(await mlsoDl(...args));
  });

  it.each([[['-v']], [['--version']], [['--vers']]])('%j prints the version', async (args) => {
    const { status, stdout } = await mlsoDl(...args);
    expect(status).toBe(0);
    expect(stdout).toBe(`mlso-dl ${CLIENT_VERSION}\n`);
  });

  it.each([[['-u', '%s']], [['--base-url', '%s']], [['--base-url=%s']], [['--base', '%s']], [['--base=%s']]])('%j chooses the server', async (form) => {
    const args = form.map((part) => part.replace('%s', emulator().url));
    expectInstrumentsTable(await mlsoDl(...args, 'instruments'));
  });

  describe('--local', () => {
    // The address is mlsoapi's, so these need that port: a second emulator serves it, for these tests only.
    let local: RunningEmulator | undefined;
    beforeAll(async () => {
      local = await createEmulator({ port: 5000 });
    });
    afterAll(async () => {
      await local?.close();
    });

    it.each([[['--local']], [['--loc']], [['--local', '--base-url', 'http://127.0.0.1:9']]])(
      '%j talks to the server on this computer, http://127.0.0.1:5000 (even over --base-url, as mlsoapi)',
      async (flags) => {
        local!.resetStats();
        const run = await mlsoDl(...flags, '--verbose', 'instruments');
        expectInstrumentsTable(run);
        expect(run.stderr).toContain('GET http://127.0.0.1:5000/v1/instruments');
        expect(local!.stats().requests).toBeGreaterThan(0);
      },
    );
  });

  it.each([['--verbose'], ['--verb']])("%s prints the server's version and documentation first, then each request, on stderr", async (flag) => {
    const run = await cli(flag, 'instruments');
    expectInstrumentsTable(run);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.slice(0, 3)).toEqual([
      `GET ${emulator().url}/v1/about`,
      `server version: 1.0.0, client version: ${CLIENT_VERSION}`,
      'documentation: https://mlso-api-client.readthedocs.io/en/latest/',
    ]);
    expect(lines).toContain(`GET ${emulator().url}/v1/instruments`);
  });

  it.each([['-q'], ['--quiet'], ['--qui']])('%s keeps the result (tables without their header) and drops the rest', async (flag) => {
    const table = await cli(flag, 'instruments');
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/^kcor\s+COSMO K-Coronagraph.*\nucomp\s+/);
    const folder = await temporaryFolder();
    const run = await cli(flag, 'files', '-i', 'kcor', '-p', 'pb', ...WINDOW, '-d', '-u', DEMO_EMAIL, '-o', folder, '--state-dir', await temporaryFolder());
    expect(run).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(await listFolder(folder)).toEqual(WINDOW_FILES);
  });
});

describe("mlsoapi's commands", () => {
  it('about', async () => {
    const { status, stdout } = await cli('about');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^server version: 1\.0\.0, client version: .*\ndocumentation: https:\/\/mlso-api-client/);
  });

  it('instruments', async () => {
    expectInstrumentsTable(await cli('instruments'));
  });

  it.each([['-i'], ['--instrument'], ['--instr'], ['--instrument=']])('products %s ucomp', async (flag) => {
    const args = flag.endsWith('=') ? [`${flag}ucomp`] : [flag, 'ucomp'];
    const { status, stdout } = await cli('products', ...args);
    expect(status).toBe(0);
    expect(stdout).toMatch(/\nl2\s+Level 2\s+/);
  });
});

describe("mlsoapi's files flags, each reaching the server as its filter", () => {
  const kcor = (...args: string[]) => ['-i', 'kcor', '-p', 'pb', ...args];
  it.each([
    [['-i', 'kcor', '-p', 'pb', ...WINDOW], { 'start-date': '2025-03-24T21:03:00', 'end-date': '2025-03-24T21:04:00' }],
    [
      ['--instrument', 'kcor', '--product', 'pb', '--start-date', '2025-03-24T21:03:00', '--end-date', '2025-03-24T21:04:00'],
      { 'start-date': '2025-03-24T21:03:00', 'end-date': '2025-03-24T21:04:00' },
    ],
    [
      ['--instr', 'kcor', '--prod', 'pb', '--start', '2025-03-24T21:03:00', '--end', '2025-03-24T21:04:00'],
      { 'start-date': '2025-03-24T21:03:00', 'end-date': '2025-03-24T21:04:00' },
    ],
    [
      ['--instrument=kcor', '--product=pb', '--start-date=2025-03-24T21:03:00', '--end=2025-03-24T21:04:00'],
      { 'start-date': '2025-03-24T21:03:00', 'end-date': '2025-03-24T21:04:00' },
    ],
    [kcor('-c', '2295'), { cr: '2295' }],
    [kcor('--carrington-rotation', '2295'), { cr: '2295' }],
    [kcor('--cr', '2295'), { cr: '2295' }],
    [kcor('--carr', '2295'), { cr: '2295' }],
    [kcor('--carrington-rotation=2295'), { cr: '2295' }],
    [kcor('--carr=2295'), { cr: '2295' }],
    [kcor('--cr=2295', '--every', '1day'), { cr: '2295', every: '1day' }],
    [kcor('--cr', '2295', '--ev', '1day'), { cr: '2295', every: '1day' }],
    [kcor('--cr', '2295', '--every=1day'), { cr: '2295', every: '1day' }],
    [
      ['-i', 'ucomp', '-p', 'l2', '--wave-region', '1074', '--obs-plan', 'synoptic', '-s', '2025-03-24'],
      { 'wave-region': '1074', 'obs-plan': 'synoptic', 'start-date': '2025-03-24' },
    ],
    [
      ['-i', 'ucomp', '-p', 'l2', '--wave', '1074', '--obs', 'synoptic', '--start', '2025-03-24'],
      { 'wave-region': '1074', 'obs-plan': 'synoptic', 'start-date': '2025-03-24' },
    ],
    [
      ['-i', 'ucomp', '-p', 'l2', '--wave-region=1074', '--obs-plan=synoptic', '-s', '2025-03-24'],
      { 'wave-region': '1074', 'obs-plan': 'synoptic', 'start-date': '2025-03-24' },
    ],
  ])('files %j', async (args, query) => {
    const run = await cli('--verbose', 'files', ...args);
    expect(run.status, run.stderr).toBe(0);
    expect(filesQuery(run.stderr)).toEqual(query);
    expect(run.stdout).toMatch(/^Date\/time\s+Instrument\s+Product\s+Size \(gz\)\s+/);
  });

  it.each([
    [['-d', '-u', DEMO_EMAIL, '-o', '%s']],
    [['--download', '--username', DEMO_EMAIL, '--output-dir', '%s']],
    [['--down', '--user', DEMO_EMAIL, '--output', '%s']],
    [['--download', `--username=${DEMO_EMAIL}`, '--output-dir=%s']],
  ])('files ... %j downloads the listed files into the folder', async (flags) => {
    const folder = await temporaryFolder();
    const args = flags.map((flag) => flag.replace('%s', folder));
    const run = await cli('files', '-i', 'kcor', '-p', 'pb', ...WINDOW, ...args, '--state-dir', await temporaryFolder());
    expect(run.status, run.stderr).toBe(0);
    expect(await listFolder(folder)).toEqual(WINDOW_FILES);
  });

  it('-u is --username after `files` and --base-url before it, as in mlsoapi', async () => {
    const folder = await temporaryFolder();
    const run = await mlsoDl(
      '-u',
      emulator().url,
      'files',
      '-i',
      'kcor',
      '-p',
      'pb',
      ...WINDOW,
      '-d',
      '-u',
      DEMO_EMAIL,
      '-o',
      folder,
      '--state-dir',
      await temporaryFolder(),
    );
    expect(run.status, run.stderr).toBe(0);
    expect(await listFolder(folder)).toEqual(WINDOW_FILES);
  });

  it.each([
    [['files', '-i', 'kcor', '-p', 'pb', '--c', '2295'], "ambiguous option '--c' could match --carrington-rotation, --cr, --concurrency"],
    [['--ver', 'instruments'], "ambiguous option '--ver' could match --version, --verbose"],
  ])('an ambiguous prefix %j is refused, naming what it could mean (status 2)', async (args, message) => {
    const run = await cli(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
    expect(emulator().stats().requests).toBe(0);
  });
});

/** The rows of the guide's "Differences from mlsoapi" table: the check each names, in its last cell. */
function differencesTable(): { topic: string; check: string }[] {
  const guide = readFileSync(path.resolve(import.meta.dirname, '../../docs/guide/mlsoapi.md'), 'utf8');
  const section = /^# Differences from mlsoapi\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(guide)?.[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| ---'))
    .slice(1) // the header
    .map((line) => {
      const cells = line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, '').trim());
      return { topic: cells[0]!, check: /^`([a-z-]+)`$/.exec(cells.at(-1)!)?.[1] ?? `(no check named in "${cells.at(-1)}")` };
    });
}

/** What each row of the differences table claims about mlso-dl, as a run against the emulator. */
const CHECKS: Record<string, () => Promise<void>> = {
  async 'filters-checked'() {
    const run = await cli('--verbose', 'files', '-i', 'kcor', '-p', 'pb', '-s', '2025-02-30');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS/);
    expect(run.stderr).not.toMatch(/^GET \S+\/files/m);
  },
  async 'errors-on-stderr'() {
    const run = await cli('products', '-i', 'nosuch');
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^mlso-dl: The server answered 404: .*nosuch/);
  },
  async 'required-options'() {
    for (const args of [['products'], ['files', '-p', 'pb'], ['files', '-i', 'kcor']]) {
      const run = await cli(...args);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/required option '-[ip], --(instrument|product) <id>' not specified/);
    }
    expect(emulator().stats().requests).toBe(0);
  },
  async sizes() {
    emulator().transformListing = zeroFirstSize;
    const { stdout } = await cli('files', '-i', 'kcor', '-p', 'pb', ...WINDOW);
    const rows = stdout.split('\n').filter((line) => line.startsWith('2025-'));
    expect(rows[0]).toMatch(/\sunknown 20250324_210304_kcor_l2_pb\.fts$/);
    expect(rows[1]).toMatch(/\s\d+\.\d KB 20250324_210319_kcor_l2_pb\.fts$/);
  },
  async 'lower-bound-total'() {
    emulator().transformListing = zeroFirstSize;
    const { stdout } = await cli('files', '-i', 'kcor', '-p', 'pb', ...WINDOW);
    expect(stdout).toMatch(
      /\n4 files\s+≥ \d+\.\d KB compressed \(KB = 1024 B\); files are saved decompressed\n\(some sizes are unknown, so the total is a lower bound\)\n$/,
    );
    emulator().transformListing = undefined;
    const single = await cli('files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-24T21:03:00', '-e', '2025-03-24T21:03:10');
    expect(single.stdout).toMatch(/\n1 file\s+\d+\.\d KB compressed \(KB = 1024 B\); files are saved decompressed\n$/);
  },
  async 'size-column'() {
    const { stdout } = await cli('files', '-i', 'kcor', '-p', 'pb', ...WINDOW);
    expect(stdout.split('\n')[0]).toMatch(/^Date\/time\s+Instrument\s+Product\s+Size \(gz\)\s+Filename$/);
    expect(stdout).not.toContain('Filesize');
  },
  async 'ucomp-columns'() {
    const { stdout } = await cli('files', '-i', 'ucomp', '-p', 'l2', '--wave-region', '1074', '-s', '2025-03-24');
    expect(stdout.split('\n')[0]).toMatch(/^Date\/time\s+Instrument\s+Product\s+Size \(gz\)\s+Wave\s+Obs plan\s+Filename$/);
  },
  async 'decompressed-files'() {
    const folder = await temporaryFolder();
    await cli('files', '-i', 'kcor', '-p', 'pb', ...WINDOW, '-d', '-u', DEMO_EMAIL, '-o', folder, '--state-dir', await temporaryFolder());
    const saved = await readFile(path.join(folder, WINDOW_FILES[0]!));
    expect(saved.subarray(0, 9).toString('latin1')).toBe('SIMPLE  =');
    expect(saved.equals(await emulator().fileBytes('kcor', WINDOW_FILES[0]!))).toBe(true);
  },
  async 'resumed-downloads'() {
    const folder = await temporaryFolder();
    const args = ['files', '-i', 'kcor', '-p', 'pb', ...WINDOW, '-d', '-u', DEMO_EMAIL, '-o', folder, '--state-dir', await temporaryFolder()];
    expect((await cli(...args, '--concurrency', '4')).status).toBe(0);
    emulator().resetStats();
    const again = await cli(...args);
    expect(again.stderr).toMatch(/^Downloaded 0 files .* skipped 4 already complete; 0 failed\.$/m);
    expect(emulator().stats().downloadsStarted).toBe(0);
  },
  async 'verbose-on-stderr'() {
    const run = await cli('--verbose', 'instruments');
    expect(run.stdout).not.toContain('server version');
    expect(run.stderr).toContain('server version: 1.0.0');
  },
  async quiet() {
    const run = await cli('-q', 'files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-24T23:59:00', '-e', '2025-03-24T23:59:30');
    expect(run).toEqual({ status: 0, stdout: '', stderr: '' });
    const products = await cli('-q', 'products', '-i', 'kcor');
    expect(products.stdout).toMatch(/^pb\s+/);
    expect(products.stdout).not.toMatch(/^ID|^-{5}/m);
    const files = await cli('-q', 'files', '-i', 'kcor', '-p', 'pb', ...WINDOW);
    expect(files.stdout.split('\n')[0]).toMatch(/^2025-03-24T\S+\s+kcor\s+pb\s+/);
    expect(files.stdout).not.toMatch(/^Date\/time/m);
    expect(files.stdout).toMatch(/\n4 files\s+\S+/);
  },
  async json() {
    for (const args of [['about'], ['instruments'], ['products', '-i', 'kcor'], ['files', '-i', 'kcor', '-p', 'pb', ...WINDOW]]) {
      const run = await cli(...args, '--json');
      expect(run.status).toBe(0);
      expect(() => JSON.parse(run.stdout)).not.toThrow();
    }
  },
  async 'version-text'() {
    expect((await mlsoDl('--version')).stdout).toBe(`mlso-dl ${CLIENT_VERSION}\n`);
  },
};

function zeroFirstSize(listing: Record<string, unknown>): Record<string, unknown> {
  const files = listing['files'] as Record<string, unknown>[];
  if (files[0]) files[0]['filesize'] = 0;
  return listing;
}

describe("the guide's differences from mlsoapi", () => {
  const rows = differencesTable();

  it('has a row for every check, and every row names a check that exists', () => {
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.check).sort()).toEqual(Object.keys(CHECKS).sort());
  });

  it.each(rows)('$topic: $check', async ({ check }) => {
    const run = CHECKS[check];
    if (!run) throw new Error(`docs/guide/mlsoapi.md names a check "${check}" that this test does not have`);
    await run();
  });
});
