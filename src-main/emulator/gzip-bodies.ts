// Gzip bodies of downloads, optionally as several concatenated gzip members (valid per RFC 1952; a client that
// stops after the first member gets a short file, which is what `gzipMembers > 1` is there to catch).
import { createGzip, gzip } from 'node:zlib';
import { Readable, pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { GZIP_OPTIONS } from './synthetic-fits';

const gzipAsync = promisify(gzip);

/** Byte offsets where each member's share of `total` raw bytes ends. */
function memberEnds(total: number, members: number): number[] {
  return Array.from({ length: members }, (_, i) => Math.floor(((i + 1) * total) / members));
}

/** Whole-body gzip, compressed on libuv's thread pool so the event loop stays free. */
export async function gzipBuffer(raw: Buffer, members: number): Promise<Buffer> {
  let start = 0;
  const parts = await Promise.all(
    memberEnds(raw.length, members).map((end) => {
      const part = raw.subarray(start, end);
      start = end;
      return gzipAsync(part, GZIP_OPTIONS);
    }),
  );
  return Buffer.concat(parts);
}

/**
 * Streams gzip members of raw chunks produced on demand: generation, compression and sending proceed together
 * and only pull as fast as the consumer reads, so memory stays at a few chunks whatever the file size.
 */
export async function* gzipStream(rawChunks: Iterator<Buffer>, total: number, members: number): AsyncGenerator<Buffer> {
  const source = new ByteSource(rawChunks);
  let start = 0;
  for (const end of memberEnds(total, members)) {
    const gz = createGzip({ ...GZIP_OPTIONS, chunkSize: 256 * 1024 });
    // Large buffers let generation run ahead of compression, so a big image is not made a small read at a time. pipeline destroys
    // the reader when gz is destroyed (e.g. the consumer stopped), and vice versa.
    pipeline(Readable.from(source.take(end - start), { objectMode: false, highWaterMark: 1024 * 1024 }), gz, () => undefined);
    start = end;
    for await (const out of gz as AsyncIterable<Buffer>) yield out;
  }
}

/** Hands out the bytes of a chunk iterator in runs of exact lengths, slicing chunks at the boundaries. */
class ByteSource {
  private pending: Buffer | undefined;

  constructor(private readonly chunks: Iterator<Buffer>) {}

  *take(length: number): Generator<Buffer> {
    let left = length;
    while (left > 0) {
      if (!this.pending || this.pending.length === 0) {
        const next = this.chunks.next();
        if (next.done) return;
        this.pending = next.value;
      }
      const piece = this.pending.subarray(0, left);
      this.pending = this.pending.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
  }
}
