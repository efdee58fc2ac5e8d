// A body arriving in small socket reads goes on to gunzip in pieces of a quarter megabyte: one inflate call (a trip
// through libuv's threads), one hash update and one write for a piece rather than for every read of some 16-64 KB,
// about half the system calls and thread hand-overs of a KCor file. Progress still follows every read.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../../src-main/core/api/http-transport';
import { downloadFile, type OpenDownload } from '../../../src-main/core/downloads/download-file';
import { openFileSink, type OpenFileSink } from '../../../src-main/core/downloads/file-sink';
import { temporaryFolder } from '../../helpers/fixtures';
import { imageHeader, split } from '../../science/fits/fits-test-files';

const READ_BYTES = 16 * 1024;
// A 1024 x 1024 float image of noise, padded to whole blocks: gzip hardly shrinks it, so its body is some 256 reads of 16 KB.
const fits = Buffer.concat([imageHeader(1024), randomBytes(1024 * 1024 * 4), Buffer.alloc(2880 - ((1024 * 1024 * 4) % 2880))]);
const body = gzipSync(fits);

/** Answers with the gzip body in reads of 16 KB, as a socket hands them over. */
const openInSmallReads: OpenDownload = async (url) =>
  ({
    status: 200,
    headers: { 'content-length': String(body.length), 'content-type': 'application/gzip' },
    data: Readable.from(split(body, READ_BYTES), { objectMode: false }),
    url,
  }) satisfies HttpResponse<Readable>;

/** The real file sink, with the sizes of the pieces written to it noted. */
function notingSink(sizes: number[]): OpenFileSink {
  return async (file) => {
    const sink = await openFileSink(file);
    const noting = new Writable({
      write(chunk: Buffer, _encoding, done) {
        sizes.push(chunk.length);
        sink.writable.write(chunk, done);
      },
      final(done) {
        sink.writable.end(done);
      },
    });
    return { writable: noting, sync: () => sink.sync(), close: () => sink.close() };
  };
}

describe('a body in small reads', () => {
  it('reaches the file in pieces of a quarter megabyte, not read by read, and whole', async () => {
    const folder = await temporaryFolder();
    const sizes: number[] = [];
    const received: number[] = [];
    const result = await downloadFile(
      openInSmallReads,
      { url: 'http://example.invalid/noise.fts.gz', filename: 'noise.fts', folder },
      { openSink: notingSink(sizes), onProgress: (progress) => received.push(progress.bytesReceived) },
    );
    expect(result.sha256).toBe(createHash('sha256').update(fits).digest('hex'));
    expect((await readFile(path.join(folder, 'noise.fts'))).equals(fits)).toBe(true);
    expect(body.length / READ_BYTES).toBeGreaterThan(250);
    // Some 17 pieces of up to 256 KB (gunzip's own output size) plus a few split at the header; 257 before.
    expect(sizes.length).toBeLessThan(64);
    // Reads that came once the file was open were reported as they came, though their bytes went on later: far
    // more reports than pieces (the reads before it, up to the stream's megabyte of buffer, were not).
    expect(new Set(received).size).toBeGreaterThan(128);
    expect(received.at(-1)).toBe(body.length);
  });
});
