// Undoes gzip by looking at the bytes, not the headers: the service may send a .gz body as it is, or
// the same bytes with `Content-Encoding: gzip`, or both layers at once; and a gzip file may hold several
// members one after another (Node's gunzip reads them all).
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

const MAX_LAYERS = 3;
// Large output chunks mean fewer callbacks per file: decompression is the hot path of a bulk download.
const GUNZIP_CHUNK_BYTES = 256 * 1024;

function startsWithGzipMagic(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** The body with every leading gzip layer removed. Errors of the source propagate into what is returned. */
export async function withoutGzipLayers(source: Readable): Promise<Readable> {
  let stream = source;
  for (let layer = 0; layer < MAX_LAYERS; layer += 1) {
    const peeked = await peekStream(stream, 2);
    stream = peeked.stream;
    if (!startsWithGzipMagic(peeked.head)) break;
    const gunzip = createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES });
    // pipeline carries a source failure (a reset connection) into gunzip, where the reader sees it.
    pipeline(stream, gunzip, () => {});
    keepErrorsForTheReader(gunzip);
    stream = gunzip;
  }
  return stream;
}

/**
 * The first `size` bytes of a stream (fewer if it ends first), and a stream that yields them again
 * followed by the rest: the same stream, or a replay when it has already ended. Rejects if the stream
 * fails before the bytes arrive.
 */
export async function peekStream(stream: Readable, size: number): Promise<{ head: Buffer; stream: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = stream.readableEnded;
  while (length < size && !ended) {
    // Only the bytes still missing, when they are in the buffer: read() whole would concatenate everything that
    // arrived (up to a megabyte of socket reads) into a new buffer, only to put it back. Taking part of a chunk
    // is a view of it. With nothing buffered, read() asks the source for more.
    const buffered = stream.readableLength;
    const chunk = (buffered > 0 ? stream.read(Math.min(size - length, buffered)) : stream.read()) as Buffer | null;
    if (chunk !== null) {
      chunks.push(chunk);
      length += chunk.length;
      continue;
    }
    ended = await nextReadable(stream);
  }
  const taken = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const head = taken.subarray(0, size);
  // A stream that has emitted 'end' cannot take bytes back; a short body is replayed from memory instead.
  if (ended) return { head, stream: Readable.from(taken.length > 0 ? [taken] : []) };
  if (taken.length > 0) stream.unshift(taken);
  return { head, stream };
}

/** Waits until the stream has data (false) or has ended (true); rejects on error. */
function nextReadable(stream: Readable): Promise<boolean> {
  if (stream.errored) return Promise.reject(stream.errored);
  if (stream.readableEnded || stream.destroyed) return Promise.resolve(true);
  return new Promise((resolve, reject) => {
    const done = (result: boolean | Error): void => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onReadable = (): void => done(false);
    const onEnd = (): void => done(true);
    const onError = (error: Error): void => done(error);
    const onClose = (): void => done(stream.errored ?? true);
    stream.on('readable', onReadable);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

/**
 * Between one reader and the next (a peek done, the final pipeline not yet attached) a stream may fail,
 * e.g. gunzip finding the body cut short. With no listener that would be an uncaught exception; this
 * one only keeps the process alive: the stream remembers its error (`errored`) and the next reader,
 * a peek or the final pipeline, receives it.
 */
export function keepErrorsForTheReader(stream: Readable): void {
  stream.on('error', () => {});
}
