// `mlso-dl files` without --download writes its JSON and its table entry by entry as the listing arrives:
// the output is what the whole listing gives, a listing that fails midway is not presented as complete, and a
// reader that stops reading holds the listing back at the socket instead of letting it pile up in memory.
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { MlsoClient, type FilesRequest } from '../../src-main/core/api/mlso-client';
import { runCli } from '../../src-main/cli/run-cli';
import { Capture, cliAgainst, oddServer, useEmulator } from '../helpers/fixtures';
import { startBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { waitFor } from '../helpers/wait-for';
import { cpuTicks } from '../helpers/cpu-time';

// One pB exposure every 5 s over five observing days: some 11,000 KCor pB entries, so a listing arrives in many pieces.
const emulator = useEmulator({ cadenceSeconds: 5, imageSize: 8 });
const cli = cliAgainst(emulator);

const servers: Awaited<ReturnType<typeof oddServer>>[] = [];
afterEach(async () => {
  await stopBuiltCli();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

type Entry = Record<string, unknown>;
const entriesOf = (listing: Entry): Entry[] => listing['files'] as Entry[];

/** Command-line arguments of a request, and the request itself for the client. */
const QUERIES: [string, string[], FilesRequest][] = [
  [
    'KCor pB over a day',
    ['-i', 'kcor', '-p', 'pb', '-s', '2025-03-23', '-e', '2025-03-24'],
    { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-23', 'end-date': '2025-03-24' } },
  ],
  [
    'UCoMP with its own fields',
    ['-i', 'ucomp', '-p', 'l2', '-s', '2025-03-24'],
    { instrument: 'ucomp', product: 'l2', filters: { 'start-date': '2025-03-24' } },
  ],
  ['an empty listing', ['-i', 'kcor', '-p', 'pbextavg', '--cr', '2200'], { instrument: 'kcor', product: 'pbextavg', filters: { cr: '2200' } }],
];

describe('mlso-dl files --json, streamed', () => {
  it.each(QUERIES)('%s: parses to exactly what the client returns for the whole listing', async (_name, args, request) => {
    const whole = await new MlsoClient({ baseUrl: emulator().url }).files(request);
    const { files, ...rest } = whole;
    const { status, stdout, stderr } = await cli('files', ...args, '--json');
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual(whole);
    // Still JSON.stringify's layout, two spaces deep, with the entries first.
    expect(stdout).toBe(`${JSON.stringify({ files, ...rest }, null, 2)}\n`);
  });

  it('hostile strings (C0, ESC, C1, bidi) are escaped and still parse to the exact strings', async () => {
    const hostile = { filename: 'evil\u001b]0;owned\u0007\u202egnp.fts', product: 'p\u009b2Jb', 'obs-plan': 'syn\u0085optic\u2028' };
    emulator().transformListing = (listing) => {
      Object.assign(entriesOf(listing)[3]!, hostile);
      return { ...listing, instrument: 'kc\u001b[31mor' };
    };
    const request = QUERIES[0]![2];
    const whole = await new MlsoClient({ baseUrl: emulator().url }).files(request);
    const { status, stdout } = await cli('files', ...QUERIES[0]![1], '--json');
    expect(status).toBe(0);
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must not be printed
    expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u202a-\u202e]/);
    expect(whole.files[3]).toMatchObject(hostile);
    expect(JSON.parse(stdout)).toEqual(whole);
  });
});

describe('mlso-dl files (the table), streamed', () => {
  it('an empty listing prints no table and says so on stderr; --quiet keeps that quiet', async () => {
    const args = ['files', ...QUERIES[2]![1]];
    expect(await cli(...args)).toEqual({ status: 0, stdout: '', stderr: 'No files match these filters.\n' });
    expect(await cli('--quiet', ...args)).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it("--verbose tells the answer's own echo of the query, once it is complete", async () => {
    const { status, stdout, stderr } = await cli('--verbose', 'files', ...QUERIES[0]![1]);
    expect(status).toBe(0);
    expect(stdout).toMatch(/\n\d+ files\s+(≥ )?[\d.]+ (KB|MB|GB) compressed \(KB = 1024 B\); files are saved decompressed\n/);
    expect(stderr).toContain('Instrument : kcor\nProduct    : pb\nStart date : 2025-03-23\nEnd date   : 2025-03-24\n');
  });
});

describe('a listing that fails after some of it was written', () => {
  const query = ['files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-20'];

  /** The listing's entries are more than the table's first block, so rows are out before the failure. */
  const breakEntry = (): void => {
    emulator().transformListing = (listing) => {
      const files = entriesOf(listing);
      expect(files.length).toBeGreaterThan(5000);
      files[files.length - 10]!['filesize'] = 'large';
      return listing;
    };
  };

  // A long listing is asked for in windows that each stay under the size limit (listing-windows.ts); a cadence query
  // is always one answer, so the limit still stops it midway.
  const oneAnswer = [...query, '--every', '1second'];
  it.each([
    ['an invalid entry', breakEntry, [] as string[], /mlso-dl: .*filesize/, query],
    ['the listing size limit', () => undefined, ['--max-listing-size', '1MB'], /larger than the 1 MB limit; .* --max-listing-size/, oneAnswer],
  ])('%s: the rows so far, no total line, the error on stderr, exit 1', async (_name, arrange, global, message, args) => {
    arrange();
    const { status, stdout, stderr } = await cli(...global, ...args);
    expect(status).toBe(1);
    expect(stderr).toMatch(message);
    expect(stderr.split('\n')).toHaveLength(2);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^Date\/time\s+Instrument\s+Product\s+Size \(gz\)\s+Filename$/);
    expect(lines.length).toBeGreaterThan(1000);
    expect(stdout).not.toMatch(/^\d+ files? /m);
    expect(stdout).not.toContain('lower bound');
  });

  it.each([
    ['an invalid entry', breakEntry, [] as string[], query],
    ['the listing size limit', () => undefined, ['--max-listing-size', '1MB'], oneAnswer],
  ])('%s: --json output so far is not valid JSON, exit 1', async (_name, arrange, global, args) => {
    arrange();
    const { status, stdout, stderr } = await cli(...global, ...args, '--json');
    expect(status).toBe(1);
    expect(stderr).toMatch(/^mlso-dl: /);
    expect(stdout).toMatch(/^\{\n {2}"files": \[\n {4}\{\n/);
    expect(() => JSON.parse(stdout)).toThrow();
  });

  it('a connection dropped midway: the rows so far, no total line, exit 1', async () => {
    const listing = await (await fetch(`${emulator().url}/v1/instruments/kcor/products/pb/files?start-date=2025-03-20`)).text();
    const server = await oddServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(listing)) });
      // Closed (not reset, which would throw away what the client has not read yet) short of the declared length.
      res.write(listing.slice(0, Math.floor(listing.length * 0.8)), () => res.socket?.destroySoon());
    });
    servers.push(server);
    const stdout = new Capture();
    const stderr = new Capture();
    const status = await runCli(['--base-url', server.url, 'files', '-i', 'kcor', '-p', 'pb'], { stdout, stderr });
    expect(status).toBe(1);
    expect(stderr.text).toMatch(/^mlso-dl: The connection to .* was dropped before the answer was complete/);
    expect(stdout.text.split('\n').length).toBeGreaterThan(1000);
    expect(stdout.text).not.toMatch(/^\d+ files? /m);
  });
});

/** A stdout whose reader takes nothing until released: the command's writes are held, as a stopped pipe holds them. */
class StoppedReader extends Writable {
  readonly isTTY = false;
  text = '';
  bytes = 0;
  private held: (() => void)[] = [];
  private reading = false;
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString('utf8');
    this.bytes += chunk.length;
    if (this.reading) done();
    else this.held.push(done);
  }
  /** The reader takes everything from now on. */
  release(): void {
    this.reading = true;
    for (const done of this.held.splice(0)) done();
  }
}

/** A listing of `count` KCor entries, as the service sends it. */
function syntheticListing(count: number): Buffer {
  const start = Date.UTC(2025, 2, 16);
  const files = Array.from({ length: count }, (_, index) => {
    const date = new Date(start + index * 1000).toISOString().slice(0, 19);
    const name = `${date.slice(0, 10).replace(/-/g, '')}_${date.slice(11).replace(/:/g, '')}_kcor_l2_pb.fts`;
    return {
      'date-obs': date,
      filename: name,
      filesize: 2_582_027 + index,
      instrument: 'kcor',
      product: 'pb',
      url: `http://127.0.0.1:1/v1/download?obsday-id=1&client=API&instrument=kcor&filename=${name}.gz`,
    };
  });
  return Buffer.from(
    `${JSON.stringify({ 'end-date': '2025-03-24', files, instrument: 'kcor', product: 'pb', 'start-date': '2025-03-16', total_filesize: 1 })}\n`,
  );
}

/** Sends `body` in pieces, each only once the socket has taken the one before: what it has sent is what the client let in. */
async function sendPaced(res: ServerResponse, body: Buffer, progress: { sent: number; finished: boolean }): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
  for (let offset = 0; offset < body.length && !res.destroyed; offset += 64 * 1024) {
    const piece = body.subarray(offset, offset + 64 * 1024);
    progress.sent += piece.length;
    if (!res.write(piece)) await drainedOrClosed(res);
  }
  res.end(() => (progress.finished = true));
}

/** Resolves when `res` can take more, or is gone; the listener that did not fire goes too (else they pile up, one per wait). */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/** Resolves once `value()` has not changed for `quietMs` (or `done()` holds). */
async function settledValue(value: () => number, done: () => boolean, quietMs: number): Promise<void> {
  let last = value();
  let since = Date.now();
  while (!done() && Date.now() - since < quietMs) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    if (value() !== last) {
      last = value();
      since = Date.now();
    }
  }
}

describe('a reader that stops reading', () => {
  // 100,000 entries, some 33 MB: far more than the socket buffers between the server and the client can hold.
  const body = syntheticListing(100_000);

  it.each([[['--json']], [[]]])(
    '%j: holds the listing back at the server while the output waits; released, the output is complete',
    async (more) => {
      const progress = { sent: 0, finished: false };
      const server = await oddServer((_req, res) => void sendPaced(res, body, progress));
      servers.push(server);
      const stdout = new StoppedReader();
      const stderr = new Capture();
      let ended = false;
      const run = runCli(['--base-url', server.url, 'files', '-i', 'kcor', '-p', 'pb', ...more], { stdout, stderr }).finally(() => (ended = true));
      try {
        await waitFor(() => stdout.bytes > 0 && stdout.writableNeedDrain, 'the output to wait for its reader', 30_000);
        // The server goes on only as far as the client lets it: wait until it stops (or, were nothing held back, ends).
        await settledValue(
          () => progress.sent,
          () => progress.finished,
          500,
        );
        expect(progress.finished).toBe(false);
        expect(progress.sent).toBeLessThan(body.length / 2);
        // Only the first batch or so was handed to stdout: the rest was never read, not held in memory.
        expect(stdout.bytes).toBeLessThan(1024 * 1024);
        expect(ended).toBe(false);
      } finally {
        stdout.release();
      }
      expect(await run).toBe(0);
      expect(stderr.text).toBe('');
      expect(progress.finished).toBe(true);
      if (more.length > 0) {
        expect(JSON.parse(stdout.text)).toEqual(await new MlsoClient({ baseUrl: server.url }).files({ instrument: 'kcor', product: 'pb' }));
      } else {
        const lines = stdout.text.trimEnd().split('\n');
        expect(lines).toHaveLength(100_000 + 4);
        expect(lines.at(-1)).toMatch(/^100000 files\s+\d+\.\d GB compressed \(KB = 1024 B\); files are saved decompressed$/);
      }
    },
    60_000,
  );
});

// Needs the built command line (node scripts/build-main.mjs).
describe('the built mlso-dl, its output waiting for a reader that stopped reading', () => {
  it('a stop signal ends it at once with the signal status (it does not wait for the reader)', async () => {
    const run = startBuiltCli(['--base-url', emulator().url, 'files', '-i', 'kcor', '-p', 'pb', '--json']);
    // The first piece proves the listing is being written; then nobody reads.
    await new Promise((resolve) => run.child.stdout!.once('data', resolve));
    run.child.stdout!.pause();
    // Waiting for a reader uses no CPU: once the process is idle, it is waiting (its output is far larger than the pipe).
    let ticks = -1;
    await waitFor(
      async () => {
        const now = await cpuTicks(run.child.pid!);
        const idle = now === ticks;
        ticks = now;
        if (!idle) await new Promise((resolve) => setTimeout(resolve, 500));
        return idle;
      },
      'mlso-dl to wait for its reader',
      30_000,
    );
    run.child.kill('SIGTERM');
    const outcome = await Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve('still running after 10 s'), 10_000))]);
    run.child.stdout!.resume();
    expect(outcome).toBe(143);
  }, 60_000);
});
