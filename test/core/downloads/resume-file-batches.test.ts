// The body kept for resuming is held in memory up to HELD_BODY_BYTES (a KCor body, whole) and written only when the
// transfer stops short; past that it is written in batches of a megabyte, not socket read by socket read (a system
// call each, some 45 for a KCor file). Either way a transfer cut short keeps every byte that arrived.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { downloadFile } from '../../../src-main/core/downloads/download-file';
import { isResumeFileName, type ResumePoint } from '../../../src-main/core/downloads/resume-file';
import { HELD_BODY_BYTES } from '../../../src-main/core/downloads/resume-file-writer';
import { NetworkError } from '../../../src-main/core/errors';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { useSignedInListing } from './signed-in-listing';

const MIB = 1024 * 1024;
// KCor-sized files (about 2.7 MB gzipped) at 1.5 MB/s: a few seconds each, so the resume file can be watched.
const emulator = useEmulator({ imageSize: 1024, bandwidthBytesPerSecond: 1_500_000, bodyForm: 'gzip-body' });
const listed = useSignedInListing(emulator);

/** Sizes of the resume file seen while `work` runs, every few milliseconds. */
async function keptSizesDuring<T>(folder: string, work: Promise<T>): Promise<{ sizes: Set<number>; outcome: T }> {
  const sizes = new Set<number>();
  let done = false;
  const outcome = work.finally(() => (done = true));
  while (!done) {
    for (const name of (await readdir(folder)).filter(isResumeFileName)) {
      const size = await stat(path.join(folder, name)).then(
        (found) => found.size,
        () => undefined,
      );
      if (size !== undefined) sizes.add(size);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { sizes, outcome: await outcome };
}

describe('the resume file', () => {
  it('of a KCor file that arrives whole is never written: held in memory, no resume file, no point recorded', async () => {
    const folder = await temporaryFolder();
    const file = listed.files[2]!;
    const points: (ResumePoint | null)[] = [];
    const { sizes, outcome } = await keptSizesDuring(
      folder,
      downloadFile(
        listed.client.openDownload.bind(listed.client),
        { url: file.url, filename: file.filename, folder },
        { onResumePoint: (point) => points.push(point) },
      ),
    );
    expect(outcome.bytesReceived).toBeGreaterThan(2 * MIB);
    expect(outcome.bytesReceived).toBeLessThan(HELD_BODY_BYTES);
    expect(points).toEqual([]);
    expect(sizes).toEqual(new Set());
    expect(await readdir(folder)).toEqual([file.filename]);
  });

  it('past the bytes held, grows by batches of a megabyte while the body arrives, and goes once the file is done', async () => {
    const folder = await temporaryFolder();
    const file = listed.files[0]!;
    const points: (ResumePoint | null)[] = [];
    const { sizes, outcome } = await keptSizesDuring(
      folder,
      downloadFile(
        listed.client.openDownload.bind(listed.client),
        { url: file.url, filename: file.filename, folder },
        { heldBodyBytes: MIB, onResumePoint: (point) => points.push(point) },
      ),
    );
    expect(outcome.bytesReceived).toBeGreaterThan(2 * MIB);
    expect(points).toEqual([expect.objectContaining({ name: expect.stringMatching(/\.resume$/) })]);
    // The watch saw the resume file hold something: at least its first batch.
    expect([...sizes].filter((size) => size > 0).length).toBeGreaterThan(0);
    expect([...sizes].filter((size) => size > 0 && size < MIB)).toEqual([]);
    expect(await readdir(folder)).toEqual([file.filename]);
  });

  it('cut short before any of it was written, keeps every byte that arrived', async () => {
    const folder = await temporaryFolder();
    const file = listed.files[1]!;
    emulator().injectFault(file.filename, 'reset');
    let received = 0;
    const failure = await downloadFile(
      listed.client.openDownload.bind(listed.client),
      { url: file.url, filename: file.filename, folder },
      { onResumePoint: () => undefined, onProgress: (progress) => (received = progress.bytesReceived) },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NetworkError);
    const [kept] = (await readdir(folder)).filter(isResumeFileName);
    expect(received).toBeGreaterThan(0);
    expect((await stat(path.join(folder, kept!))).size).toBeGreaterThanOrEqual(received);
  });
});
