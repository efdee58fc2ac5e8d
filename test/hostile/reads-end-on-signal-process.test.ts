// Every long read of files on disk ends within a second of Ctrl-C (SIGINT) or SIGTERM (systemd's stop, which the
// README's unit relies on): reuse hashing an old copy, a campaign sync adopting a file already in its folder,
// verify, import, pixel (header and quicklook: fits-input-process.test.ts) and movie. Each run reads a large file
// (sparse: no disk space, yet every byte is read), the signal is sent once the process has read a part of it (rchar
// of /proc/PID/io), and the time to its exit is measured. The built mlso-dl (node scripts/build-main.mjs first).
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { CampaignStore } from '../../src-main/core/campaigns/campaign-store';
import { LEDGER_FILE } from '../../src-main/core/state/open-state-folder';
import { downloadArgs } from '../core/downloads/cli-process';
import { listing } from '../core/downloads/engine-harness';
import { openStateFile } from '../core/state/state-file';
import { runBuiltCli, startBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import { waitFor } from '../helpers/wait-for';

const emulator = useEmulator({ imageSize: 16 });
const window = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' };
afterEach(stopBuiltCli);

const GiB = 1024 ** 3;
const STATUS = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof STATUS;

/** Bytes the process has read so far, its worker threads' included (rchar of /proc/PID/io). */
async function bytesRead(pid: number): Promise<number> {
  const io = await readFile(`/proc/${pid}/io`, 'utf8').catch(() => '');
  return Number(/^rchar: (\d+)$/m.exec(io)?.[1] ?? 0);
}

/**
 * Starts mlso-dl, sends `signal` once it has read `readFirst` bytes, and resolves with how it ended and how long
 * after the signal (logged under `what`).
 */
async function stoppedWhileReading(
  what: string,
  args: readonly string[],
  signal: StopSignal,
  readFirst: number,
): Promise<{ ended: number | string; tookMs: number; stderr: string }> {
  const run = startBuiltCli(args);
  await waitFor(async () => run.child.exitCode !== null || (await bytesRead(run.child.pid!)) >= readFirst, 'the reading under way', 60_000);
  expect(run.child.exitCode, `ended before the signal: ${run.stderr()}`).toBeNull();
  const signalled = performance.now();
  run.child.kill(signal);
  const ended = await run.exited;
  const tookMs = Math.round(performance.now() - signalled);
  console.log(`${what}: ${signal}, exited ${tookMs} ms later`);
  return { ended, tookMs, stderr: run.stderr() };
}

/** A sparse file of `size` bytes starting with `head`. */
async function sparseFile(file: string, size: number, head = ''): Promise<void> {
  const handle = await open(file, 'w');
  await handle.write(head);
  await handle.truncate(size);
  await handle.close();
}

/** A FITS file with an 8-bit image of zeros, sparse: complete as its header says, and width x height bytes to hash. */
async function bigFits(file: string, width: number, height: number): Promise<void> {
  const cards = ['SIMPLE  =                    T', 'BITPIX  =                    8', 'NAXIS   =                    2'];
  cards.push(`NAXIS1  = ${String(width).padStart(20)}`, `NAXIS2  = ${String(height).padStart(20)}`, 'END');
  const header = cards
    .map((card) => card.padEnd(80))
    .join('')
    .padEnd(2880);
  await sparseFile(file, 2880 + Math.ceil((width * height) / 2880) * 2880, header);
}

/** 40,000 empty IMAGE extensions after an empty primary HDU, then a 16 x 16 image: 115 MB of headers to read first. */
async function manyHdusThenImage(file: string): Promise<void> {
  const block = (cards: string[]): string =>
    [...cards, 'END']
      .map((card) => card.padEnd(80))
      .join('')
      .padEnd(2880);
  const extension = (naxis: number[]): string =>
    block([
      "XTENSION= 'IMAGE   '",
      'BITPIX  =                    8',
      `NAXIS   = ${String(naxis.length).padStart(20)}`,
      ...naxis.map((size, index) => `NAXIS${index + 1}  = ${String(size).padStart(20)}`),
      'PCOUNT  =                    0',
      'GCOUNT  =                    1',
    ]);
  const handle = await open(file, 'w');
  await handle.write(
    block(['SIMPLE  =                    T', 'BITPIX  =                    8', 'NAXIS   =                    0', 'EXTEND  =                    T']),
  );
  const empty = extension([]).repeat(1000);
  for (let written = 0; written < 40_000; written += 1000) await handle.write(empty);
  await handle.write(extension([16, 16]));
  await handle.write(Buffer.alloc(2880));
  await handle.close();
}

describe.each(['SIGINT', 'SIGTERM'] as const)('%s ends a long read of files on disk within a second', (signal) => {
  it('reuse: hashing an old copy of 8 GiB', { timeout: 90_000 }, async () => {
    const [file] = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const old = await temporaryFolder();
    // The ledger knows a finished 8 GiB copy of the first listed file in another folder: reuse hashes it first.
    const targetPath = path.join(old, file!.filename);
    await sparseFile(targetPath, 8 * GiB);
    const { ledger } = openStateFile(path.join(stateFolder, LEDGER_FILE));
    const [id] = ledger.insertMany([
      {
        url: file!.url,
        instrument: 'kcor',
        product: 'pb',
        dateObs: file!['date-obs'],
        filename: file!.filename,
        folder: old,
        targetPath,
        expectedSize: file!.filesize,
        batchId: null,
        state: 'active',
      },
    ]);
    ledger.markDone(id!, { sha256: 'ab'.repeat(32), bytesReceived: 8 * GiB, bytesWritten: 8 * GiB });
    ledger.close();

    const folder = await temporaryFolder();
    const stopped = await stoppedWhileReading(
      'files --download, reuse',
      downloadArgs({ baseUrl: emulator().url, window, folder, stateFolder }),
      signal,
      256 * 1024 ** 2,
    );
    expect(stopped.ended, stopped.stderr).toBe(STATUS[signal]);
    expect(stopped.tookMs).toBeLessThan(1000);
  });

  it('campaign sync: hashing an 8 GiB file already in the folder under an expected name', { timeout: 90_000 }, async () => {
    const [file] = await listing(emulator(), window);
    const stateFolder = await temporaryFolder();
    const folder = await temporaryFolder();
    const cli = (...args: string[]) => ['--base-url', emulator().url, 'campaign', ...args, '--state-dir', stateFolder];
    const range = ['-s', window['start-date'], '-e', window['end-date']];
    expect((await runBuiltCli(cli('create', 'big', '-i', 'kcor', '-p', 'pb', ...range, '--output-dir', folder))).status).toBe(0);
    // A complete FITS file (as its header says) is taken in as downloaded once hashed.
    await bigFits(path.join(folder, file!.filename), 65_536, 131_072);

    const stopped = await stoppedWhileReading('campaign sync, adoption', cli('sync', 'big', '-u', DEMO_EMAIL), signal, 256 * 1024 ** 2);
    expect(stopped.ended, stopped.stderr).toBe(STATUS[signal]);
    expect(stopped.tookMs).toBeLessThan(1000);
  });

  it('campaign verify: hashing four files of 4 GiB', { timeout: 90_000 }, async () => {
    const stateFolder = await temporaryFolder();
    const folder = await temporaryFolder();
    const { ledger, state } = openStateFile(path.join(stateFolder, LEDGER_FILE));
    const store = new CampaignStore(state);
    const campaign = store.create({ name: 'big', folder, layout: '', queries: [{ instrument: 'kcor', product: 'pb', filters: {} }], autoSyncHours: null });
    const size = 4 * GiB;
    const records = ['a', 'b', 'c', 'd'].map((letter) => {
      const filename = `20250324_00000${letter}_kcor_l2_pb.fts`;
      const base = { filename, url: `https://api.example.org/${filename}`, instrument: 'kcor', product: 'pb', dateObs: null };
      return {
        ...base,
        relativePath: filename,
        targetPath: path.join(folder, filename),
        waveRegion: null,
        obsPlan: null,
        filesize: size,
        expectedSha256: null,
      };
    });
    store.recordFiles(campaign.id, records);
    const ids = ledger.insertMany(records.map((file) => ({ ...file, folder, expectedSize: size, batchId: null, state: 'active' as const })));
    for (const [index, id] of ids.entries()) {
      await sparseFile(records[index]!.targetPath, size);
      ledger.markDone(id, { sha256: 'ab'.repeat(32), bytesReceived: size, bytesWritten: size });
    }
    ledger.close();

    const stopped = await stoppedWhileReading('campaign verify', ['campaign', 'verify', 'big', '--state-dir', stateFolder], signal, 256 * 1024 ** 2);
    expect(stopped.ended, stopped.stderr).toBe(STATUS[signal]);
    expect(stopped.tookMs).toBeLessThan(1000);
  });

  it('campaign import: reading a large campaign file', { timeout: 90_000 }, async () => {
    // A campaign file of 256 MiB: 4,096 file entries, each padded with spaces (which JSON allows) to 64,000 bytes.
    const file = path.join(await temporaryFolder(), 'shared.json');
    const query = { instrument: 'kcor', product: 'pb', filters: {} };
    const handle = await open(file, 'w');
    await handle.write(`{"format":"mlso-downloader-campaign","version":1,"name":"big","layout":"","queries":[${JSON.stringify(query)}],"files":[`);
    for (let index = 0; index < 4096; index += 1) {
      const filename = `20250324_${String(index).padStart(6, '0')}_kcor_l2_pb.fts`;
      const entry = { path: filename, filename, url: `https://api.example.org/${filename}`, instrument: 'kcor', product: 'pb', 'date-obs': null };
      const text = `${index === 0 ? '' : ','}${JSON.stringify(entry).slice(0, -1)}`;
      await handle.write(`${text}${' '.repeat(64_000 - text.length - 1)}}`);
    }
    await handle.write(']}');
    await handle.close();

    const stopped = await stoppedWhileReading('campaign import', ['campaign', 'import', file, '--state-dir', await temporaryFolder()], signal, 32 * 1024 ** 2);
    expect(stopped.ended, stopped.stderr).toBe(STATUS[signal]);
    expect(stopped.tookMs).toBeLessThan(1000);
  });

  it('pixel: reading the headers of 40,000 HDUs before the image', { timeout: 90_000 }, async () => {
    const file = path.join(await temporaryFolder(), 'many.fts');
    await manyHdusThenImage(file);
    const stopped = await stoppedWhileReading('pixel', ['pixel', file, '1', '1'], signal, 16 * 1024 ** 2);
    // Reading headers is synchronous work with nothing to undo: the signal ends the process itself (a shell sees 128 + its number).
    expect([STATUS[signal], signal]).toContain(stopped.ended);
    expect(stopped.tookMs).toBeLessThan(1000);
  });

  it('movie: reading and decoding many large frames', { timeout: 90_000 }, async () => {
    const folder = await temporaryFolder();
    const frames: string[] = [];
    for (let index = 0; index < 40; index += 1) {
      const frame = path.join(folder, `frame${String(index).padStart(2, '0')}.fts`);
      await bigFits(frame, 2048, 2048);
      frames.push(frame);
    }

    const stopped = await stoppedWhileReading('movie', ['movie', ...frames, '--out', path.join(folder, 'movie.gif')], signal, 8 * 2048 * 2048);
    expect([STATUS[signal], signal]).toContain(stopped.ended);
    expect(stopped.tookMs).toBeLessThan(1000);
  });
});
