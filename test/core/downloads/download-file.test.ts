import { readFile, utimes, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { downloadFile, type DownloadOptions } from '../../../src-main/core/downloads/download-file';
import type { OpenFileSink } from '../../../src-main/core/downloads/file-sink';
import { isCompleteFitsFile } from '../../../src-main/core/downloads/fits-completeness';
import type { ResumePoint } from '../../../src-main/core/downloads/resume-file';
import { handlingFor } from '../../../src-main/core/downloads/retry-policy';
import { removeStaleTemporaryFiles, temporaryNameFor } from '../../../src-main/core/downloads/temporary-files';
import { CancelledError, DiskFullError, DownloadError, NetworkError, SessionError } from '../../../src-main/core/errors';
import { listFolder, oddServer, temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { useSignedInListing } from './signed-in-listing';
import { diskThatFills } from '../../helpers/full-disk';
import { dataUnit, header, imageHeader, multiHduFile, primaryHeader } from '../../science/fits/fits-test-files';
import { sha256Hex } from '../../helpers/sha256';

const emulator = useEmulator({ imageSize: 128 });
const listed = useSignedInListing(emulator);

function download(file: FileEntry, folder: string, options: DownloadOptions = {}) {
  return downloadFile(listed.client.openDownload.bind(listed.client), { url: file.url, filename: file.filename, folder }, options);
}

async function expectExactCopy(folder: string, file: FileEntry): Promise<void> {
  const expected = await emulator().fileBytes('kcor', file.filename);
  const written = await readFile(path.join(folder, file.filename));
  expect(written.equals(expected)).toBe(true);
}

describe('one-file download', () => {
  it.each(['gzip-body', 'content-encoding'] as const)('writes the decompressed FITS for a %s answer', async (bodyForm) => {
    emulator().setOptions({ bodyForm });
    const folder = await temporaryFolder();
    const file = listed.files[0]!;
    const result = await download(file, folder);
    await expectExactCopy(folder, file);
    const bytes = await readFile(result.path);
    expect(result.sha256).toBe(sha256Hex(bytes));
    expect(result.bytesWritten).toBe(bytes.length);
    expect(result.bytesReceived).toBeLessThan(bytes.length);
    expect(await listFolder(folder)).toEqual([file.filename]);
    expect(await isCompleteFitsFile(result.path)).toBe(true);
  });

  it('handles a body of several concatenated gzip members', async () => {
    emulator().setOptions({ gzipMembers: 4, bodyForm: 'gzip-body' });
    const folder = await temporaryFolder();
    await download(listed.files[1]!, folder);
    await expectExactCopy(folder, listed.files[1]!);
  });

  it('handles older URLs without .gz (an uncompressed body)', async () => {
    const folder = await temporaryFolder();
    const file = listed.files[2]!;
    const url = new URL(file.url);
    url.searchParams.set('filename', file.filename);
    await downloadFile(listed.client.openDownload.bind(listed.client), { url: url.href, filename: file.filename, folder });
    await expectExactCopy(folder, file);
  });

  it('reports progress in received and written bytes', async () => {
    const folder = await temporaryFolder();
    const seen: number[] = [];
    const result = await download(listed.files[0]!, folder, { onProgress: (p) => seen.push(p.bytesWritten) });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toBe(result.bytesWritten);
  });

  it('refuses unsafe names from the listing before any request', async () => {
    const folder = await temporaryFolder();
    emulator().resetStats();
    for (const filename of ['../escape.fts', 'sub/dir.fts', 'bad\u0007.fts', '..']) {
      const error = await downloadFile(listed.client.openDownload.bind(listed.client), { url: listed.files[0]!.url, filename, folder }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DownloadError);
      expect((error as DownloadError).reason).toBe('unsafe-name');
    }
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(await listFolder(folder)).toEqual([]);
  });
});

describe('bodies that are not the file', () => {
  it.each([
    ['json-200', 'error-body', /message instead of/],
    ['html-200', 'error-body', /web page instead of/],
    ['not-fits', 'not-fits', /not a FITS file/],
  ] as const)('a %s answer is an error and nothing is saved', async (fault, reason, message) => {
    const folder = await temporaryFolder();
    emulator().injectFault(listed.files[0]!.filename, fault);
    const error = await download(listed.files[0]!, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).reason).toBe(reason);
    expect((error as Error).message).toMatch(message);
    expect(await listFolder(folder)).toEqual([]);
  });

  it('an error status carries the server message and Retry-After', async () => {
    const folder = await temporaryFolder();
    emulator().injectFault(listed.files[0]!.filename, 'status-429');
    await expect(download(listed.files[0]!, folder)).rejects.toMatchObject({ kind: 'server', status: 429, retryAfterSeconds: 1 });
    emulator().injectFault(listed.files[0]!.filename, 'html-500');
    await expect(download(listed.files[0]!, folder)).rejects.toMatchObject({ kind: 'server', status: 500 });
    expect(await listFolder(folder)).toEqual([]);
  });

  it('a refused session is a session error', async () => {
    const folder = await temporaryFolder();
    emulator().injectFault(listed.files[0]!.filename, 'unauthorized');
    await expect(download(listed.files[0]!, folder)).rejects.toBeInstanceOf(SessionError);
    await listed.client.signOut();
    await expect(download(listed.files[0]!, folder)).rejects.toBeInstanceOf(SessionError);
    expect(await listFolder(folder)).toEqual([]);
  });
});

describe('broken transfers leave nothing behind', () => {
  it('a connection reset mid-body', async () => {
    const folder = await temporaryFolder();
    emulator().injectFault(listed.files[0]!.filename, 'reset');
    const error = await download(listed.files[0]!, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(await listFolder(folder)).toEqual([]);
  });

  it('a gzip stream that ends early although the response ended cleanly (what arrived is kept to resume from, nothing else)', async () => {
    const folder = await temporaryFolder();
    emulator().injectFault(listed.files[0]!.filename, 'truncate');
    const kept: (ResumePoint | null)[] = [];
    const error = await download(listed.files[0]!, folder, { onResumePoint: (point) => kept.push(point) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).reason).toBe('truncated');
    // Sent without Content-Length, the body's size was unknown, so it was kept for resuming.
    expect(kept).toEqual([expect.objectContaining({ name: expect.stringMatching(/\.resume$/) })]);
    expect(await listFolder(folder)).toEqual([kept[0]!.name]);
    // A caller that records no resume point gets nothing kept.
    emulator().injectFault(listed.files[0]!.filename, 'truncate');
    const elsewhere = await temporaryFolder();
    await download(listed.files[0]!, elsewhere).catch(() => undefined);
    expect(await listFolder(elsewhere)).toEqual([]);
  });

  it('a stalled read', async () => {
    const folder = await temporaryFolder();
    emulator().injectFault(listed.files[0]!.filename, 'stall');
    const error = await download(listed.files[0]!, folder, { stallTimeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', reason: 'stalled' });
    expect(await listFolder(folder)).toEqual([]);
  });

  it('a server that never sends the headers counts as stalled after the same idle time as a body', async () => {
    const silent = await oddServer(() => undefined);
    try {
      const folder = await temporaryFolder();
      const c = new MlsoClient({ baseUrl: silent.url });
      const started = Date.now();
      const error = await downloadFile(c.openDownload.bind(c), { url: `${silent.url}/f`, filename: 'silent.fts', folder }, { stallTimeoutMs: 300 }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(NetworkError);
      // Far below the 60 s default the header wait used to keep whatever the stall time was.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(await listFolder(folder)).toEqual([]);
    } finally {
      await silent.close();
    }
  });

  it('an identity body shorter than its Content-Length', async () => {
    const fits = await emulator().fileBytes('kcor', listed.files[0]!.filename);
    const short = await oddServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(fits.length) });
      res.write(fits.subarray(0, 5000));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    try {
      const folder = await temporaryFolder();
      const c = new MlsoClient({ baseUrl: short.url });
      const error = await downloadFile(c.openDownload.bind(c), { url: `${short.url}/f`, filename: 'short.fts', folder }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(await listFolder(folder)).toEqual([]);
    } finally {
      await short.close();
    }
  });

  it('a full disk stops with a disk-full error and removes the temporary file', async () => {
    const folder = await temporaryFolder();
    const error = await download(listed.files[0]!, folder, {
      openSink: diskThatFills(() => true, 20_000),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiskFullError);
    expect((error as Error).message).toMatch(/is full/);
    expect(await listFolder(folder)).toEqual([]);
  });

  it('cancelling removes the partial file', async () => {
    emulator().setOptions({ bandwidthBytesPerSecond: 20_000 });
    const folder = await temporaryFolder();
    const cancel = new AbortController();
    const pending = download(listed.files[0]!, folder, { signal: cancel.signal, onProgress: () => cancel.abort() });
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(await listFolder(folder)).toEqual([]);
    emulator().setOptions({ bandwidthBytesPerSecond: 0 });
  });
});

describe('files on disk', () => {
  it('tells complete FITS files from truncated ones and other files', async () => {
    const folder = await temporaryFolder();
    const result = await download(listed.files[0]!, folder);
    const bytes = await readFile(result.path);
    const truncated = path.join(folder, 'truncated.fts');
    await writeFile(truncated, bytes.subarray(0, bytes.length - 4000));
    const unpadded = path.join(folder, 'unpadded.fts');
    const header = bytes.subarray(0, 2880);
    const dataBytes = 128 * 128 * 4;
    await writeFile(unpadded, bytes.subarray(0, header.length + dataBytes));
    const text = path.join(folder, 'text.fts');
    await writeFile(text, '{"message": "nope"}');
    expect(await isCompleteFitsFile(result.path)).toBe(true);
    expect(await isCompleteFitsFile(truncated)).toBe(false);
    expect(await isCompleteFitsFile(unpadded)).toBe(false); // the archive serves whole 2,880-byte blocks
    expect(await isCompleteFitsFile(text)).toBe(false);
    expect(await isCompleteFitsFile(path.join(folder, 'missing.fts'))).toBe(false);
  });

  it('removes stale temporary files and nothing else', async () => {
    const folder = await temporaryFolder();
    const stale = temporaryNameFor('20250324_210304_kcor_l2_pb.fts');
    await writeFile(path.join(folder, stale), 'partial');
    await writeFile(path.join(folder, 'keep.fts'), 'x');
    await writeFile(path.join(folder, '.keep.part'), 'x');
    expect(await removeStaleTemporaryFiles(folder)).toEqual([stale]);
    expect(await listFolder(folder)).toEqual(['.keep.part', 'keep.fts']);
  });

  it('with an age limit, removes only temporary files older than it (another process may be writing the young ones)', async () => {
    const folder = await temporaryFolder();
    const old = temporaryNameFor('old.fts');
    const young = temporaryNameFor('young.fts');
    await writeFile(path.join(folder, old), 'partial');
    await writeFile(path.join(folder, young), 'partial');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(path.join(folder, old), anHourAgo, anHourAgo);
    expect(await removeStaleTemporaryFiles(folder, { olderThanMs: 60_000 })).toEqual([old]);
    expect(await listFolder(folder)).toEqual([young]);
    expect(await removeStaleTemporaryFiles(path.join(folder, 'no such folder'))).toEqual([]);
  });
});

describe('what arrives is checked against its FITS headers', () => {
  const servers: { close: () => Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  /** Serves `body` with a Content-Length (a cleanly ended answer) and downloads it as `name`. */
  async function downloadServed(body: Buffer, options: DownloadOptions & { encoding?: 'gzip' } = {}) {
    const server = await oddServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(body.length), ...(options.encoding ? { 'content-encoding': options.encoding } : {}) });
      res.end(body);
    });
    servers.push(server);
    const folder = await temporaryFolder();
    const c = new MlsoClient({ baseUrl: server.url });
    const outcome = await downloadFile(c.openDownload.bind(c), { url: `${server.url}/f`, filename: 'served.fts', folder }, options).then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error }),
    );
    return { ...outcome, folder };
  }

  const image64 = Buffer.concat([imageHeader(64), dataUnit(64 * 64 * 4)]);

  it('a complete gzip stream holding only a header that declares 10,000 data bytes is truncated', async () => {
    const { error, folder } = await downloadServed(gzipSync(primaryHeader(10_000)));
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).reason).toBe('truncated');
    expect((error as Error).message).toBe('served.fts arrived incomplete (2880 of 12880 bytes its FITS headers declare).');
    expect(handlingFor(error)).toEqual({ action: 'retry' });
    expect(await listFolder(folder)).toEqual([]);
  });

  it('a file of several HDUs arrives whole, in every wire form', async () => {
    const { bytes } = multiHduFile({ longHeader: true });
    for (const [body, encoding] of [
      [gzipSync(bytes), undefined],
      [gzipSync(bytes), 'gzip'],
      [bytes, undefined],
    ] as const) {
      const { result, error, folder } = await downloadServed(body, encoding ? { encoding } : {});
      expect(error).toBeUndefined();
      expect((await readFile(result!.path)).equals(bytes)).toBe(true);
      expect(result!.bytesWritten).toBe(bytes.length);
      expect(await isCompleteFitsFile(result!.path)).toBe(true);
      expect(await listFolder(folder)).toEqual(['served.fts']);
    }
  });

  it("a file of several HDUs missing its last extension's data is truncated", async () => {
    const { parts } = multiHduFile();
    const { error, folder } = await downloadServed(gzipSync(Buffer.concat(parts.slice(0, 6))));
    expect(error).toMatchObject({ reason: 'truncated' });
    expect((error as Error).message).toMatch(/^served\.fts arrived incomplete \(\d+ of \d+ bytes/);
    expect(await listFolder(folder)).toEqual([]);
  });

  it('a file without the final padding of its last data unit is truncated, as fits-completeness judges it', async () => {
    const unpadded = image64.subarray(0, 2880 + 64 * 64 * 4);
    const { error, folder } = await downloadServed(gzipSync(unpadded));
    expect(error).toMatchObject({ reason: 'truncated' });
    expect((error as Error).message).toBe(
      'served.fts arrived incomplete (19264 of 20160 bytes: it ends inside its last 2,880-byte block, whose padding is cut short).',
    );
    expect(handlingFor(error)).toEqual({ action: 'retry' });
    expect(await listFolder(folder)).toEqual([]);
  });

  it('a 64x64 image followed by 64 MiB of zeros is refused as longer than declared, and not retried', async () => {
    const { error, folder } = await downloadServed(gzipSync(Buffer.concat([image64, Buffer.alloc(64 * 1024 * 1024)]), { level: 1 }));
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).reason).toBe('oversized');
    expect((error as Error).message).toBe(`served.fts is longer than its FITS headers declare (more than ${image64.length} bytes arrived); it was not saved.`);
    expect(handlingFor(error)).toEqual({ action: 'fail' });
    expect(await listFolder(folder)).toEqual([]);
  });

  it('stops reading at the declared end: nothing beyond it is written, and the rest of the body is never fetched', async () => {
    // 1024 gzip members of 64 MiB of zeros each: a 64 GiB file in about 64 MB on the wire.
    const zeros = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    const plannedMembers = 1024;
    let membersSent = 0;
    let serverDone!: () => void;
    const served = new Promise<void>((resolve) => (serverDone = resolve));
    const server = await oddServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      void sendMembers(res, gzipSync(image64), zeros, plannedMembers, () => (membersSent += 1)).finally(serverDone);
    });
    servers.push(server);
    const folder = await temporaryFolder();
    const sink = countingSink(32 * 1024 * 1024);
    const c = new MlsoClient({ baseUrl: server.url });
    const error = await downloadFile(c.openDownload.bind(c), { url: `${server.url}/f`, filename: 'inflated.fts', folder }, { openSink: sink.open }).catch(
      (e: unknown) => e,
    );
    expect(sink.written()).toBe(image64.length);
    expect(error).toMatchObject({ reason: 'oversized' });
    await served;
    // The client hung up: the server got rid of no more than what socket buffers hold.
    expect(membersSent).toBeLessThan(plannedMembers / 2);
    expect(await listFolder(folder)).toEqual([]);
  });

  it.each([
    [
      'no END card in the first 1000 header blocks',
      header(
        [
          ['SIMPLE', true],
          ['BITPIX', 8],
          ['NAXIS', 0],
        ],
        { fillerCards: 36 * 1001 },
      ),
    ],
    [
      'a non-numeric axis length',
      Buffer.concat([
        header([
          ['SIMPLE', true],
          ['BITPIX', 8],
          ['NAXIS', 1],
          ['NAXIS1', 'lots'],
        ]),
        dataUnit(100),
      ]),
    ],
    [
      'a negative axis length',
      Buffer.concat([
        header([
          ['SIMPLE', true],
          ['BITPIX', 8],
          ['NAXIS', 1],
          ['NAXIS1', -100],
        ]),
        dataUnit(100),
      ]),
    ],
  ])('a header with %s is corrupt', async (_what, bytes) => {
    const { error, folder } = await downloadServed(gzipSync(bytes));
    expect(error).toMatchObject({ reason: 'corrupt' });
    expect((error as Error).message).toMatch(/^served\.fts arrived corrupted \(.*FITS header.*\); it was not saved\.$/);
    expect(await listFolder(folder)).toEqual([]);
  });
});

/** Writes `first`, then `member` up to `times` times, honouring backpressure, until the client goes away. */
async function sendMembers(res: ServerResponse, first: Buffer, member: Buffer, times: number, sent: () => void): Promise<void> {
  res.on('error', () => undefined);
  const gone = new Promise<void>((resolve) => res.once('close', resolve));
  const drained = (): Promise<void> => new Promise<void>((resolve) => res.once('drain', resolve));
  if (!res.write(first)) await Promise.race([drained(), gone]);
  for (let i = 0; i < times && !res.destroyed; i += 1) {
    const ok = res.write(member);
    sent();
    if (!ok) await Promise.race([drained(), gone]);
  }
  res.end();
}

/** A sink that counts the bytes it is given and keeps none; it fails once they pass `limit` (a stop for the broken case). */
function countingSink(limit: number): { open: OpenFileSink; written: () => number } {
  let written = 0;
  return {
    written: () => written,
    open: async () => ({
      writable: new Writable({
        write(chunk: Buffer, _encoding, done) {
          written += chunk.length;
          done(written > limit ? new Error('the test sink took more than it should ever be given') : null);
        },
      }),
      sync: async () => undefined,
      close: async () => undefined,
    }),
  };
}
