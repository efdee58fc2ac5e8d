// A transfer cut short resumes where it stopped when the server serves byte ranges (as wget -c and aria2c do), and
// starts again cleanly when it does not, when the file changed, or when what was kept is damaged: the finished
// file is always the whole file, checked as every download is.
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { downloadFile, type DownloadOptions } from '../../../src-main/core/downloads/download-file';
import { isResumeFileName, type ResumePoint } from '../../../src-main/core/downloads/resume-file';
import { CancelledError, DownloadError, NetworkError } from '../../../src-main/core/errors';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { useSignedInListing } from './signed-in-listing';

// Files of about 256 KB sent at 2 MB/s: a reset then cuts a body the client has partly read (a reset drops what the
// kernel received and the client had not read yet, so an unpaced small body can lose all of it).
const emulator = useEmulator({ imageSize: 256, bandwidthBytesPerSecond: 2_000_000 });
const listed = useSignedInListing(emulator);

/** One attempt, with the resume points it reported. */
async function attempt(file: FileEntry, folder: string, options: DownloadOptions = {}) {
  const points: (ResumePoint | null)[] = [];
  const outcome = await downloadFile(
    listed.client.openDownload.bind(listed.client),
    { url: file.url, filename: file.filename, folder },
    { ...options, onResumePoint: (point) => points.push(point) },
  ).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  return { ...outcome, points, last: points.at(-1) };
}

async function keptFiles(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter(isResumeFileName);
}

async function expectExactCopy(folder: string, file: FileEntry): Promise<void> {
  const expected = await emulator().fileBytes('kcor', file.filename);
  expect((await readFile(path.join(folder, file.filename))).equals(expected)).toBe(true);
}

describe('resuming a cut transfer', () => {
  it.each(['gzip-body', 'content-encoding'] as const)('a %s body cut by a reset is asked for from where it stopped, and arrives whole', async (bodyForm) => {
    emulator().setOptions({ bodyForm });
    const folder = await temporaryFolder();
    const file = listed.files[0]!;
    emulator().injectFault(file.filename, 'reset');
    const first = await attempt(file, folder);
    expect(first.error).toBeInstanceOf(NetworkError);
    const point = first.last;
    expect(point).toMatchObject({ name: expect.stringMatching(/\.resume$/), validator: expect.stringMatching(/^".+"$/) });
    expect(await readdir(folder)).toEqual([point!.name]);
    const kept = (await stat(path.join(folder, point!.name))).size;
    expect(kept).toBeGreaterThan(0);

    const second = await attempt(file, folder, { resumeFrom: point! });
    expect(second.error).toBeUndefined();
    expect(second.result?.resumedBytes).toBe(kept);
    await expectExactCopy(folder, file);
    expect(await readdir(folder)).toEqual([file.filename]);
    const stats = emulator().stats();
    expect(stats.partialStartsByFile[file.filename]).toEqual([kept]);
  });

  it('a transfer cancelled (Pause, Ctrl-C) keeps what arrived, and the next attempt asks only for the rest', async () => {
    emulator().setOptions({ bodyForm: 'gzip-body', bandwidthBytesPerSecond: 200_000 });
    const folder = await temporaryFolder();
    const file = listed.files[1]!;
    const controller = new AbortController();
    const first = await attempt(file, folder, {
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.bytesReceived > 20_000) controller.abort();
      },
    });
    expect(first.error).toBeInstanceOf(CancelledError);
    const [kept] = await keptFiles(folder);
    expect(kept).toBe(first.last?.name);
    const keptBytes = (await stat(path.join(folder, kept!))).size;
    expect(keptBytes).toBeGreaterThan(20_000);

    emulator().setOptions({ bandwidthBytesPerSecond: 0 });
    const second = await attempt(file, folder, { resumeFrom: first.last! });
    expect(second.result?.resumedBytes).toBe(keptBytes);
    await expectExactCopy(folder, file);
  });

  it('starts again from the first byte when the server has another version of the file (If-Range)', async () => {
    const folder = await temporaryFolder();
    const file = listed.files[2]!;
    emulator().injectFault(file.filename, 'reset');
    const first = await attempt(file, folder);
    const stale = { ...first.last!, validator: '"an-older-version"' };
    const second = await attempt(file, folder, { resumeFrom: stale });
    expect(second.error).toBeUndefined();
    expect(second.result?.resumedBytes).toBe(0);
    expect(second.points[0]).toBeNull();
    await expectExactCopy(folder, file);
    expect(await keptFiles(folder)).toEqual([]);
    expect(emulator().stats().partialDownloads).toBe(0);
  });

  it('a damaged kept beginning fails gzip’s check, is dropped, and the attempt after it fetches the whole file', async () => {
    emulator().setOptions({ bodyForm: 'gzip-body' });
    const folder = await temporaryFolder();
    const file = listed.files[3]!;
    emulator().injectFault(file.filename, 'reset');
    const first = await attempt(file, folder);
    const keptPath = path.join(folder, first.last!.name);
    const bytes = await readFile(keptPath);
    bytes[bytes.length - 1]! ^= 0xff;
    await writeFile(keptPath, bytes);

    const second = await attempt(file, folder, { resumeFrom: first.last! });
    expect(second.error).toBeInstanceOf(DownloadError);
    expect(second.last).toBeNull();
    expect(await readdir(folder)).toEqual([]);
    const third = await attempt(file, folder);
    expect(third.error).toBeUndefined();
    await expectExactCopy(folder, file);
  });

  it('a kept beginning as long as the file (416) starts again from the first byte', async () => {
    const folder = await temporaryFolder();
    const file = listed.files[4]!;
    emulator().injectFault(file.filename, 'reset');
    const first = await attempt(file, folder);
    await writeFile(path.join(folder, first.last!.name), Buffer.alloc(10_000_000));
    const second = await attempt(file, folder, { resumeFrom: first.last! });
    expect(second.error).toBeUndefined();
    expect(second.result?.resumedBytes).toBe(0);
    await expectExactCopy(folder, file);
    expect(await keptFiles(folder)).toEqual([]);
  });

  it('keeps nothing from a server that does not serve byte ranges, and says so (a null resume point)', async () => {
    emulator().setOptions({ byteRanges: false });
    const folder = await temporaryFolder();
    const file = listed.files[5]!;
    emulator().injectFault(file.filename, 'reset');
    const first = await attempt(file, folder);
    expect(first.error).toBeInstanceOf(NetworkError);
    expect(first.points).toEqual([null]);
    expect(await readdir(folder)).toEqual([]);
  });

  it('a body that arrives whole within the bytes held in memory is written once: no resume file, no point recorded', async () => {
    const folder = await temporaryFolder();
    const file = listed.files[6]!;
    const done = await attempt(file, folder);
    expect(done.error).toBeUndefined();
    expect(done.points).toEqual([]);
    await expectExactCopy(folder, file);
    expect(await readdir(folder)).toEqual([file.filename]);
  });

  it('a body written to its resume file as it arrives records the point first, and leaves no resume file once done', async () => {
    const folder = await temporaryFolder();
    const file = listed.files[7]!;
    const done = await attempt(file, folder, { heldBodyBytes: 0 });
    expect(done.points).toEqual([expect.objectContaining({ name: expect.stringMatching(/\.resume$/) })]);
    await expectExactCopy(folder, file);
    expect(await readdir(folder)).toEqual([file.filename]);
  });
});
