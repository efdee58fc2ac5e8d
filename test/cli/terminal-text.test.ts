// Server text never drives the user's terminal: control characters and bidi overrides in file names,
// dates, products, instruments and server messages are shown escaped, and over-long names are shortened.
// JSON output keeps the exact strings.
import { afterEach, describe, expect, it } from 'vitest';
import type { JobView, OverallProgress } from '../../src-shared/downloads/progress-types';
import { createDownloadDisplay } from '../../src-main/cli/output/download-display';
import { CliOutput } from '../../src-main/cli/output/cli-output';
import { runCli } from '../../src-main/cli/run-cli';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { Capture, cliAgainst, listFolder, oddServer, temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 32 });
const cli = cliAgainst(emulator);
const query = ['files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-24T21:03:00', '-e', '2025-03-24T21:04:00'];

/** Raw control characters (any C0 but the newline of our own layout, DEL, C1) and bidi controls. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must not be printed
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const HOSTILE = {
  filename: 'evil\u001b]0;owned\u0007\u202egnp.fts',
  'date-obs': '2025-03-24T21:03:04\u0000',
  product: 'p\u009b2Jb',
  instrument: 'kc\u0085or',
};

type Entry = Record<string, unknown>;
const entriesOf = (listing: Entry): Entry[] => listing['files'] as Entry[];

const servers: Awaited<ReturnType<typeof oddServer>>[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('mlso-dl files with hostile server text', () => {
  it('shows control characters in the table escaped, on stdout and in --verbose lines on stderr', async () => {
    emulator().transformListing = (listing) => {
      Object.assign(entriesOf(listing)[0]!, HOSTILE);
      return { ...listing, instrument: 'kc\u001b[31mor' };
    };
    const { status, stdout, stderr } = await cli('--verbose', ...query);
    expect(status).toBe(0);
    expect(stdout).not.toMatch(RAW_CONTROL);
    expect(stderr).not.toMatch(RAW_CONTROL);
    expect(stdout).toContain('evil\\u001b]0;owned\\u0007\\u202egnp.fts');
    expect(stdout).toContain('2025-03-24T21:03:04\\u0000');
    expect(stdout).toContain('p\\u009b2Jb');
    expect(stdout).toContain('kc\\u0085or');
    expect(stderr).toContain('Instrument : kc\\u001b[31mor');
  });

  it('--json still prints the exact strings', async () => {
    emulator().transformListing = (listing) => {
      Object.assign(entriesOf(listing)[0]!, HOSTILE);
      return listing;
    };
    const { status, stdout } = await cli(...query, '--json');
    expect(status).toBe(0);
    expect(stdout).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(stdout).files[0]).toMatchObject(HOSTILE);
  });

  it('shows a server error message escaped', async () => {
    const server = await oddServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'down\u001b[2J\u0007 for \u202emaintenance' }));
    });
    servers.push(server);
    const stdout = new Capture();
    const stderr = new Capture();
    const status = await runCli(['--base-url', server.url, 'about'], { stdout, stderr });
    expect(status).toBe(1);
    expect(stderr.text).not.toMatch(RAW_CONTROL);
    expect(stderr.text).toContain('\\u202emaintenance');
  });
});

describe('mlso-dl files --download with hostile names', () => {
  it('says in a short, escaped `failed:` line that a 5,000-character unsafe name was refused', async () => {
    const longName = `${'a'.repeat(2500)}\u001b[2J\u0007${'b'.repeat(2490)}.fts`;
    emulator().transformListing = (listing) => {
      entriesOf(listing)[0]!['filename'] = longName;
      return listing;
    };
    const folder = await temporaryFolder();
    const { status, stderr } = await cli(...query, '-d', '-u', DEMO_EMAIL, '-o', folder, '--state-dir', await temporaryFolder());
    expect(status).toBe(1);
    expect(stderr).not.toMatch(RAW_CONTROL);
    const failed = stderr.split('\n').filter((line) => line.startsWith('failed: '));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(new RegExp(`^failed: a{60}…b{16}\\.fts: unsafe file name: `));
    expect(failed[0]!.length).toBeLessThan(200);
    expect((await listFolder(folder)).length).toBeGreaterThan(0);
  });

  it('refuses a name carrying C1 and bidi controls (it would mislead on disk too) and says so escaped', async () => {
    const name = 'solar\u009b31m\u202ests.fts';
    emulator().transformListing = (listing) => {
      entriesOf(listing)[0]!['filename'] = name;
      return listing;
    };
    const folder = await temporaryFolder();
    const { status, stderr } = await cli(...query, '-d', '-u', DEMO_EMAIL, '-o', folder, '--state-dir', await temporaryFolder());
    expect(status).toBe(1);
    expect(await listFolder(folder)).not.toContain(name);
    expect(stderr).not.toMatch(RAW_CONTROL);
    expect(stderr).toContain('failed: solar\\u009b31m\\u202ests.fts: unsafe file name: ');
  });
});

describe('the progress bars on a terminal', () => {
  const overall: OverallProgress = {
    total: 2,
    queued: 0,
    active: 1,
    paused: 0,
    done: 1,
    failed: 0,
    cancelled: 0,
    bytesReceived: 1000,
    bytesWritten: 2000,
    speed: 500,
    etaSeconds: 3,
    queuePaused: false,
    pauseReason: null,
    run: { number: 1, inProgress: true, total: 2, queued: 0, active: 1, paused: 0, done: 1, failed: 0, cancelled: 0, bytesReceived: 1000, bytesWritten: 2000 },
  };
  const job = (localName: string): JobView => ({
    id: 1,
    filename: localName,
    localName,
    folder: '/tmp',
    instrument: 'kcor',
    product: 'pb',
    dateObs: null,
    state: 'active',
    attempts: 1,
    bytesReceived: 400,
    bytesWritten: 800,
    speed: 100,
    expectedSize: 1000,
    lastError: null,
    lastErrorKind: null,
    nextAttemptAt: null,
    sha256: null,
    resumeBytes: 0,
    finishedAt: null,
    reusedFrom: null,
  });

  it('label a file by its escaped, shortened name', () => {
    // A wide terminal, so the bars do not crop the label.
    const stderr = Object.assign(new Capture(), { isTTY: true, columns: 500 });
    const display = createDownloadDisplay(new CliOutput({ quiet: false, verbose: false, stderr, stdout: new Capture() }));
    const long = `x\u009b2J\u202e${'y'.repeat(5000)}.fts`;
    display.update({ jobs: [job(long)], overall });
    display.stop();
    expect(stderr.text).not.toMatch(/[\u0080-\u009f\u202e]/);
    expect(stderr.text).toContain(`x\\u009b2J\\u202e${'y'.repeat(55)}…${'y'.repeat(16)}.fts`);
    expect(stderr.text).not.toContain('y'.repeat(100));
  });
});

describe('mlso-dl quoting what was typed', () => {
  it('shows control characters in an unknown option or a bad value escaped (commander and our own checks)', async () => {
    const unknown = await cli('files', '-i', 'kcor', '-p', 'pb', '--bogus\u001b[2J');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).not.toMatch(RAW_CONTROL);
    expect(unknown.stderr).toContain("unknown option '--bogus\\u001b[2J'");
    const bad = await cli(...query, '--every', 'x\u001b]0;pwned\u0007');
    expect(bad.status).toBe(2);
    expect(bad.stderr).not.toMatch(RAW_CONTROL);
    expect(bad.stderr).toContain('x\\u001b]0;pwned\\u0007');
  });
});
