// header and quicklook on what is not a FITS file on disk (a device, a FIFO) and under a stop signal, as users
// run them: the built mlso-dl (node scripts/build-main.mjs first). A device or FIFO is refused at once instead
// of read without end; Ctrl-C or SIGTERM ends a long quick look within a second, with 128 + the signal.
import { execFileSync } from 'node:child_process';
import { open, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBuiltCli, stopBuiltCli, type FinishedRun } from '../helpers/built-cli';
import { waitFor } from '../helpers/wait-for';
import { cpuTicks } from '../helpers/cpu-time';
import { temporaryFolder } from '../helpers/fixtures';

afterEach(async () => {
  await stopBuiltCli();
});

/** Runs mlso-dl, but kills it after `limitMs`: a run that would read for ever fails the test instead of hanging it. */
async function runWithin(args: string[], limitMs: number): Promise<FinishedRun & { ms: number }> {
  const started = Date.now();
  const run = startBuiltCli(args);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), limitMs);
  const status = await run.exited;
  clearTimeout(timer);
  return { status: typeof status === 'number' ? status : null, stdout: run.stdout(), stderr: run.stderr(), ms: Date.now() - started };
}

const refusal = (input: string): string => `mlso-dl: ${input} is not a regular file; give the path of a FITS file.\n`;

describe('header, quicklook and pixel refuse what is not a regular file', () => {
  it.each([
    ['header', '/dev/zero', []],
    ['header', '/dev/urandom', []],
    ['quicklook', '/dev/zero', ['--out', '-']],
    ['quicklook', '/dev/urandom', ['--out', '-']],
    ['pixel', '/dev/zero', ['1', '1']],
    ['pixel', '/dev/urandom', ['1', '1', '--json']],
  ])('%s %s: one line, status 2, at once', async (command, input, rest) => {
    const run = await runWithin([command, input, ...rest], 8000);
    expect(run).toMatchObject({ status: 2, stdout: '', stderr: refusal(input) });
    expect(run.ms).toBeLessThan(5000);
  });

  it('a FIFO nobody writes to, and one a writer keeps feeding: refused at once, never waited on', async () => {
    const folder = await temporaryFolder();
    const fifo = path.join(folder, 'pipe.fts');
    execFileSync('mkfifo', [fifo]);
    const idle = await runWithin(['header', fifo], 8000);
    expect(idle).toMatchObject({ status: 2, stdout: '', stderr: refusal(fifo) });

    // A writer that opens the FIFO (without blocking: O_RDWR) and feeds it a block every 50 ms.
    const writer = await open(fifo, 'r+');
    const feeding = setInterval(() => void writer.write(Buffer.alloc(2880, 0x20)).catch(() => undefined), 50);
    try {
      const fed = await runWithin(['quicklook', fifo, '--out', path.join(folder, 'look.png')], 8000);
      expect(fed).toMatchObject({ status: 2, stdout: '', stderr: refusal(fifo) });
      expect(fed.ms).toBeLessThan(5000);
    } finally {
      clearInterval(feeding);
      await writer.close();
    }
    expect(await readdir(folder)).toEqual(['pipe.fts']);
  });

  it('still reads a FITS file named through a symbolic link (the user named it)', async () => {
    const folder = await temporaryFolder();
    const file = path.join(folder, 'big.fts');
    await bigFits(file, 16);
    execFileSync('ln', ['-s', file, path.join(folder, 'link.fts')]);
    const run = await runWithin(['header', path.join(folder, 'link.fts')], 15_000);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('NAXIS1  =                   16');
  });
});

/** A float32 image of side `side`, its data all zeros (a sparse file: no disk space, yet every byte is read). */
async function bigFits(file: string, side: number): Promise<number> {
  const cards = [
    'SIMPLE  =                    T',
    'BITPIX  =                  -32',
    'NAXIS   =                    2',
    `NAXIS1  = ${String(side).padStart(20)}`,
    `NAXIS2  = ${String(side).padStart(20)}`,
    'END',
  ];
  const header = cards
    .map((card) => card.padEnd(80))
    .join('')
    .padEnd(2880);
  const size = 2880 + Math.ceil((side * side * 4) / 2880) * 2880;
  const handle = await open(file, 'w');
  await handle.write(header);
  await handle.truncate(size);
  await handle.close();
  return size;
}

/** Bytes the process has read so far (its rchar in /proc). */
async function bytesRead(pid: number): Promise<number> {
  const io = await readFile(`/proc/${pid}/io`, 'utf8').catch(() => '');
  return Number(/^rchar: (\d+)$/m.exec(io)?.[1] ?? 0);
}

describe('a stop signal ends a long quick look promptly', () => {
  // 8192 x 8192 float32: 256 MiB to read, then seconds of decoding, clipping, stretching and encoding.
  const SIDE = 8192;

  it.each([
    ['SIGINT', 130, 'while the file is read', 0.25],
    ['SIGTERM', 143, 'while the file is read', 0.25],
    ['SIGINT', 130, 'once it is read, while the image is worked on', 1],
  ] as const)('%s (exit %d) %s: over within about a second, no PNG left', { timeout: 60_000 }, async (signal, status, _when, readFraction) => {
    const folder = await temporaryFolder();
    const input = path.join(folder, 'big.fts');
    const size = await bigFits(input, SIDE);
    const out = path.join(folder, 'look.png');
    const run = startBuiltCli(['quicklook', input, '--out', out]);
    await waitFor(async () => (await bytesRead(run.child.pid!)) >= size * readFraction || run.child.exitCode !== null, 'the read under way', 30_000);
    if (readFraction === 1) {
      // Into the work on the image: 0.3 s of the process's CPU time after the last byte was read.
      const atRead = await cpuTicks(run.child.pid!);
      await waitFor(async () => run.child.exitCode !== null || (await cpuTicks(run.child.pid!)) - atRead >= 30, 'the work on the image under way', 30_000);
    }
    expect(run.child.exitCode, run.stderr()).toBeNull();
    const signalled = Date.now();
    run.child.kill(signal);
    // Heard during the read, the signal stops it and mlso-dl exits with 128 + its number; during the synchronous
    // work on the image (nothing to undo) it ends the process itself, which a shell reports as the same status.
    expect([status, signal]).toContain(await run.exited);
    const tookMs = Date.now() - signalled;
    console.log(`quicklook ${SIDE} x ${SIDE}: ${signal} ${_when}, exited ${tookMs} ms later`);
    expect(tookMs).toBeLessThan(1000);
    expect(run.stderr()).not.toMatch(/unexpected problem|\n\s+at /);
    expect(await readdir(folder)).toEqual(['big.fts']);
  });
});

describe('a stop signal ends a long header promptly', () => {
  /** 40,000 empty IMAGE extensions: 115 MB of headers, most of a second of reading and parsing. */
  async function manyHdus(file: string, count: number): Promise<number> {
    const block = (cards: string[]): string =>
      [...cards, 'END']
        .map((card) => card.padEnd(80))
        .join('')
        .padEnd(2880);
    const extension = block([
      "XTENSION= 'IMAGE   '",
      'BITPIX  =                    8',
      'NAXIS   =                    0',
      'PCOUNT  =                    0',
      'GCOUNT  =                    1',
    ]);
    const primary = block([
      'SIMPLE  =                    T',
      'BITPIX  =                    8',
      'NAXIS   =                    0',
      'EXTEND  =                    T',
    ]);
    const handle = await open(file, 'w');
    await handle.write(primary);
    const batch = Buffer.from(extension.repeat(1000));
    for (let written = 0; written < count; written += 1000) await handle.write(batch);
    await handle.close();
    return 2880 * (count + 1);
  }

  it('SIGINT while its headers are read and parsed: over within a second', { timeout: 60_000 }, async () => {
    const folder = await temporaryFolder();
    const input = path.join(folder, 'many.fts');
    const size = await manyHdus(input, 40_000);
    const run = startBuiltCli(['header', input]);
    // Header blocks are read as they are parsed (the data units skipped): a quarter read is a quarter parsed.
    await waitFor(async () => (await bytesRead(run.child.pid!)) >= size / 4 || run.child.exitCode !== null, 'a quarter of the headers read', 30_000);
    expect(run.child.exitCode, run.stderr()).toBeNull();
    const signalled = Date.now();
    run.child.kill('SIGINT');
    // Parsing is synchronous work with nothing to undo: the signal ends the process itself (a shell sees 130).
    expect(await run.exited).toBe('SIGINT');
    const tookMs = Date.now() - signalled;
    console.log(`header of 40,000 HDUs: SIGINT while parsing, exited ${tookMs} ms later`);
    expect(tookMs).toBeLessThan(1000);
  });
});
