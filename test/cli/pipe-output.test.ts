// The built mlso-dl writing a 100,000-file listing into a real pipe: every byte reaches the reader, and a
// reader that leaves early (`| head -1`) is no error. Needs the built command line (node scripts/build-main.mjs).
import { closeSync, openSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliAgainst, useEmulator } from '../helpers/fixtures';
import { runPiped, startBuiltCli, stopBuiltCli } from '../helpers/built-cli';

// One pB exposure a second over nine observing days: about 102,000 KCor pB files (some 33 MB of JSON).
const emulator = useEmulator({ cadenceSeconds: 1, days: 9, imageSize: 8 });
const query = ['files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-16'];
const args = (...more: string[]): string[] => ['--base-url', emulator().url, ...query, ...more];

let entries = 0;
/** The same commands run in-process, their output captured in memory where no pipe can cut it. */
let expectedJson = '';
let expectedTable = '';

beforeAll(async () => {
  const served = (await (await fetch(`${emulator().url}/v1/instruments/kcor/products/pb/files/?start-date=2025-03-16`)).json()) as { files: unknown[] };
  entries = served.files.length;
  const cli = cliAgainst(emulator);
  expectedJson = (await cli(...query, '--json')).stdout;
  expectedTable = (await cli(...query)).stdout;
}, 60_000);

afterEach(async () => {
  await stopBuiltCli();
});

describe('mlso-dl files into a pipe', () => {
  it('serves a listing of at least 100,000 entries (the size users reach)', () => {
    expect(entries).toBeGreaterThanOrEqual(100_000);
    expect(Buffer.byteLength(expectedJson)).toBeGreaterThan(30_000_000);
  });

  it('--json | cat: every byte arrives, the JSON parses with every entry, exit 0', async () => {
    const run = await runPiped(args('--json'), 'cat');
    expect(run.stderr).toBe('');
    expect(run.statuses).toEqual([0, 0]);
    expect(run.output.length).toBe(Buffer.byteLength(expectedJson));
    expect(run.output.equals(Buffer.from(expectedJson))).toBe(true); // not toBe: a diff of 33 MB helps nobody
    expect((JSON.parse(run.output.toString()) as { files: unknown[] }).files).toHaveLength(entries);
  }, 60_000);

  it('the table | wc -l: one line per entry plus header, rule, rule, total and lower-bound note, exit 0', async () => {
    const run = await runPiped(args(), 'wc -l');
    expect(run.stderr).toBe('');
    expect(run.statuses).toEqual([0, 0]);
    expect(Number(run.output.toString().trim())).toBe(entries + 5);
    expect(expectedTable.split('\n')).toHaveLength(entries + 6); // the in-process table: same shape, ends in a newline
  }, 60_000);

  it('the table | cat: byte for byte what the command prints in-process', async () => {
    const run = await runPiped(args(), 'cat');
    expect(run.statuses).toEqual([0, 0]);
    expect(run.output.length).toBe(Buffer.byteLength(expectedTable));
    expect(run.output.equals(Buffer.from(expectedTable))).toBe(true);
  }, 60_000);

  it.each([[[]], [['--json']]])(
    '%j | head -1: the reader leaving early is no error (exit 0, nothing on stderr)',
    async (more) => {
      const run = await runPiped(args(...more), 'head -1');
      expect(run.stderr).toBe('');
      expect(run.statuses).toEqual([0, 0]);
      expect(run.output.toString()).toBe(`${(more.length > 0 ? expectedJson : expectedTable).split('\n')[0]}\n`);
    },
    60_000,
  );

  it('a stop signal while the output waits for a reader that stopped reading ends the process at once', async () => {
    const run = startBuiltCli(args('--json'));
    const ended = new Promise<number | null>((resolve) => run.child.once('exit', (status) => resolve(status)));
    // The first piece proves the listing is being written; then nobody reads, so the write cannot finish.
    await new Promise((resolve) => run.child.stdout!.once('data', resolve));
    run.child.stdout!.pause();
    run.child.kill('SIGTERM');
    const outcome = await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000))]);
    run.child.stdout!.resume();
    expect(outcome).toBe(143);
  }, 30_000);

  it('output that cannot be written (a full disk) is a failure in one plain line, not a cut result with exit 0', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const run = startBuiltCli(args('--json'), { stdout: full });
      expect(await run.exited).toBe(1);
      expect(run.stderr()).toBe(
        'mlso-dl: The output could not be written (ENOSPC), so it is incomplete. Check where it goes (a full disk?) and run the command again.\n',
      );
    } finally {
      closeSync(full);
    }
  }, 30_000);
});
