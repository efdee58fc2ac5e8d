import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { downloadFile, type DownloadOptions } from '../../../src-main/core/downloads/download-file';
import { isCompleteFitsFile } from '../../../src-main/core/downloads/fits-completeness';
import { removeStaleTemporaryFiles, temporaryNameFor } from '../../../src-main/core/downloads/temporary-files';
import { CancelledError, DiskFullError, DownloadError, NetworkError, SessionError } from '../../../src-main/core/errors';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { listFolder, oddServer, temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { diskThatFills } from '../../helpers/full-disk';

const emulator = useEmulator({ imageSize: 128 });
let client: MlsoClient;
let files: FileEntry[];

beforeEach(async () => {
  client = new MlsoClient({ baseUrl: emulator().url });
  await client.authenticate(DEMO_EMAIL);
  files = (await client.files({ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24T20:00:00', 'end-date': '2025-03-24T20:05:00' } })).files;
});

function download(file: FileEntry, folder: string, options: DownloadOptions = {}) {
  return downloadFile(client.openDownload.bind(client), { url: file.url, filename: file.filename, folder }, options);
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
    const file = files[0]!;
    const result = await download(file, folder);
    await expectExactCopy(folder, file);
    const bytes = await readFile(result.path);
    expect(result.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(result.bytesWritten).toBe(bytes.length);
    expect(result.bytesReceived).toBeLessThan(bytes.length);
    expect(await listFolder(folder)).toEqual([file.filename]);
    expect(await isCompleteFitsFile(result.path)).toBe(true);
  });

  it('handles a body of several concatenated gzip members', async () => {
    emulator().setOptions({ gzipMembers: 4, bodyForm: 'gzip-body' });
    const folder = await temporaryFolder();
    await download(files[1]!, folder);
    await expectExactCopy(folder, files[1]!);
  });

  it('handles older URLs without .gz (an uncompressed body)', async () => {
    const folder = await temporaryFolder();
    const file = files[2]!;
    const url = new URL(file.url);
    url.searchParams.set('filename', file.filename);
    await downloadFile(client.openDownload.bind(client), { url: url.href, filename: file.filename, folder });
    await expectExactCopy(folder, file);
  });

  it('reports progress in received and written bytes', async () => {
    const folder = await temporaryFolder();
    const seen: number[] = [];
    const result = await download(files[0]!, folder, { onProgress: (p) => seen.push(p.bytesWritten) });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toBe(result.bytesWritten);
  });

  it('refuses unsafe names from the listing before any request', async () => {
    const folder = await temporaryFolder();
    emulator().resetStats();
    for (const filename of ['../escape.fts', 'sub/dir.fts', 'bad\u0007.fts', '..']) {
      const error = await downloadFile(client.openDownload.bind(client), { url: files[0]!.url, filename, folder }).catch((e: unknown) => e);
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
    emulator().injectFault(files[0]!.filename, fault);
    const error = await download(files[0]!, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).reason).toBe(reason);
    expect((error as Error).message).toMatch(message);
    expect(await listFolder(folder)).toEqual([]);
  });

  it('an error status carries the server message and Retry-After', async () => {
    const folder = await temporaryFolder();
    emulator().injectFault(files[0]!.filename, 'status-429');
    await expect(download(files[0]!, folder)).rejects.toMatchObject({ kind: 'server', status: 429, retryAfterSeconds: 1 });
    emulator().injectFault(files[0]!.filename, 'html-500');
    await expect(download(files[0]!, folder)).rejects.toMatchObject({ kind: 'server', status: 500 });
    expect(await listFolder(folder)).toEqual([]);
  });

  it('a refused session is a session error', async () => {
    const folder = await temporaryFolder();
    emulator().injectFault(files[0]!.filename, 'unauthorized');
    await expect(download(files[0]!, folder)).rejects.toBeInstanceOf(SessionError);
    await client.signOut();
    await expect(download(files[0]!, folder)).rejects.toBeInstanceOf(SessionError);
    expect(await listFolder(folder)).toEqual([]);
  });
});

describe('broken transfers leave nothing behind', () => {
  it('a connection reset mid-body', async () => {
    const folder = await temporaryFolder();
    emulator().injectFault(files[0]!.filename, 'reset');
    const error = await download(files[0]!, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(await listFolder(folder)).toEqual([]);
  });

  it('a gzip stream that ends early although the response ended cleanly', async () => {
    const folder = await temporaryFolder();
    emulator().injectFault(files[0]!.filename, 'truncate');
    const error = await download(files[0]!, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).reason).toBe('truncated');
    expect(await listFolder(folder)).toEqual([]);
  });

  it('a stalled read', async () => {
    const folder = await temporaryFolder();
    emulator().injectFault(files[0]!.filename, 'stall');
    const error = await download(files[0]!, folder, { stallTimeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', reason: 'stalled' });
    expect(await listFolder(folder)).toEqual([]);
  });

  it('an identity body shorter than its Content-Length', async () => {
    const fits = await emulator().fileBytes('kcor', files[0]!.filename);
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
    const error = await download(files[0]!, folder, {
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
    const pending = download(files[0]!, folder, { signal: cancel.signal, onProgress: () => cancel.abort() });
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(await listFolder(folder)).toEqual([]);
    emulator().setOptions({ bandwidthBytesPerSecond: 0 });
  });
});

describe('files on disk', () => {
  it('tells complete FITS files from truncated ones and other files', async () => {
    const folder = await temporaryFolder();
    const result = await download(files[0]!, folder);
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
    expect(await isCompleteFitsFile(unpadded)).toBe(true);
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
});
