// Through the engine and its ledger: a file shorter or longer than its FITS headers declare, or cut short of its
// last 2,880-byte block, is never marked done, so a later run fetches it again.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DownloadFault as Fault } from '../../../src-main/emulator/faults';
import { listFolder, useEmulator } from '../../helpers/fixtures';
import { expectExactFolder, listing, useHarnesses } from './engine-harness';

const emulator = useEmulator({ imageSize: 64 });
const { harness, closeEarly } = useHarnesses(emulator);

const morning = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:01:00' };

describe('files that do not match their FITS headers', () => {
  /**
   * The file at `victim` of three arrives as `fault` on every try: its job ends failed after `attempts` with `error`, its
   * file is not kept, and once the fault is gone a later run fetches it whole.
   */
  async function failedThenFetchedLater(fault: Fault, victim: number, attempts: number, error: (filename: string) => string | RegExp): Promise<void> {
    const files = (await listing(emulator(), morning)).slice(0, 3);
    const { filename } = files[victim]!;
    emulator().injectFault(filename, fault, 10);
    const first = await harness({ maxAttempts: 3 });
    await first.engine.enqueue(files, first.folder);
    await first.engine.whenSettled();
    const job = first.ledger.findByTarget(path.join(first.folder, filename))!;
    expect(job).toMatchObject({ state: 'failed', attempts });
    const expected = error(filename);
    if (typeof expected === 'string') expect(job.lastError).toBe(expected);
    else expect(job.lastError).toMatch(expected);
    expect(await listFolder(first.folder)).toEqual(
      files
        .filter((_, index) => index !== victim)
        .map((file) => file.filename)
        .sort(),
    );
    await closeEarly(first);

    emulator().clearFaults();
    const later = await harness({}, first.stateFolder);
    const result = await later.engine.enqueue(files, first.folder);
    expect(result.queued).toHaveLength(1);
    await later.engine.whenSettled();
    expect(later.ledger.findByTarget(path.join(first.folder, filename))!.state).toBe('done');
    await expectExactFolder(emulator(), first.folder, files);
  }

  it('a header-only file is retried as truncated, ends failed, and a later run fetches it again', async () => {
    await failedThenFetchedLater(
      'fits-header-only',
      1,
      3,
      () => /arrived incomplete \(2880 of 19264 bytes its FITS headers declare; gave up after 3 attempts\)\./,
    );
  });

  it('a file longer than its headers declare fails at once, is not kept, and a later run fetches it again', async () => {
    await failedThenFetchedLater(
      'fits-overlong',
      0,
      1,
      (filename) => `${filename} is longer than its FITS headers declare (more than 20160 bytes arrived); it was not saved.`,
    );
  });

  it('a file without the padding of its last data unit is retried as incomplete, never kept, and fetched whole later', async () => {
    // 64 x 64 float32: 16,384 bytes of data after the 2,880-byte header, padded to 20,160.
    await failedThenFetchedLater(
      'fits-unpadded',
      2,
      3,
      (filename) =>
        `${filename} arrived incomplete (19264 of 20160 bytes: it ends inside its last 2,880-byte block, whose padding is cut short; gave up after 3 attempts).`,
    );
  });

  it('a header-only answer once is retried and the file then arrives whole', async () => {
    const files = (await listing(emulator(), morning)).slice(0, 2);
    emulator().injectFault(files[0]!.filename, 'fits-header-only');
    const h = await harness();
    await h.engine.enqueue(files, h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');
    expect(h.ledger.findByTarget(path.join(h.folder, files[0]!.filename))).toMatchObject({ state: 'done', attempts: 2 });
    await expectExactFolder(emulator(), h.folder, files);
  });
});
