// Undoes gzip by looking at the bytes, not the headers: the service may send a .gz body as it is, or
// the same bytes with `Content-Encoding: gzip`, or both layers at once; and a gzip file may hold several
// members one after another (Node's gunzip reads them all).
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

const GZIP_MAGIC = [0x1f, 0x8b] as const;
const MAX_LAYERS = 3;

export function startsWithGzipMagic(bytes: Uint8Array): boolean {
  return bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
}

/** Yields the body with every leading gzip layer removed. Errors of the source or of gunzip propagate. */
export async function* withoutGzipLayers(source: AsyncIterable<Buffer>, layersLeft = MAX_LAYERS): AsyncGenerator<Buffer> {
  const { head, rest } = await peek(source, GZIP_MAGIC.length);
  if (layersLeft > 0 && startsWithGzipMagic(head)) {
    const gunzip = createGunzip({ chunkSize: 64 * 1024 });
    // pipeline carries a source failure (a reset connection) into gunzip, where the reader sees it.
    pipeline(Readable.from(rest), gunzip, () => {});
    yield* withoutGzipLayers(gunzip, layersLeft - 1);
  } else {
    yield* rest;
  }
}

/**
 * Reads at least `size` bytes (fewer if the source ends first) and returns them with an iterable that
 * replays them followed by the remainder of the source.
 */
export async function peek(source: AsyncIterable<Buffer>, size: number): Promise<{ head: Buffer; rest: AsyncGenerator<Buffer> }> {
  const iterator = source[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < size) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* replay(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head;
      if (ended) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      // Stopping early (an error downstream, a cancel) must release the source, e.g. close the socket.
      if (!ended) await iterator.return?.();
    }
  }
  return { head, rest: replay() };
}
