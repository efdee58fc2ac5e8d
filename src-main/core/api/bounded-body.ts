// The body of a catalogue answer, decoded and held to a size cap. Bytes are counted as sent and again
// once decoded: a small gzip answer may inflate a thousandfold, and a gzip stream of empty blocks never
// inflates at all. The first byte over the cap fails the stream, which closes the connection.
import { pipeline, Transform, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { InvalidResponseError } from '../errors';

/** The Content-Encoding values this client decodes, for the Accept-Encoding of catalogue requests. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

export interface BodyBounds {
  /** Most bytes accepted, as sent and once decoded alike. */
  maxBytes: number;
  /** The failure for a body over the cap. */
  tooLarge: () => Error;
  /** Called for every chunk that arrives (the idle timer listens). */
  heard: () => void;
}

export interface BoundedBody {
  /** The decoded bytes; fails with `tooLarge()` past the cap. */
  chunks: Readable;
  /** Whether a failure of `chunks` came from decoding (a damaged compressed body), not the connection. */
  isDecodingFailure: (error: unknown) => boolean;
}

export function boundedBody(raw: Readable, contentEncoding: unknown, url: string, bounds: BodyBounds): BoundedBody {
  const decoders = decodersFor(contentEncoding, url);
  const asSent = byteCounter(bounds, true);
  const decoded = decoders.length > 0 ? byteCounter(bounds, false) : undefined;
  const stages = [raw, asSent, ...decoders, ...(decoded ? [decoded] : [])];
  // Failures reach the reader through the last stage; pipeline destroys every stage with the first one,
  // so the stage that reported a failure first is where it began.
  const firstReporter = new Map<unknown, Readable>();
  for (const stage of stages) {
    stage.on('error', (error) => {
      if (!firstReporter.has(error)) firstReporter.set(error, stage);
    });
  }
  pipeline(stages, () => undefined);
  return {
    chunks: decoded ?? asSent,
    isDecodingFailure: (error) => decoders.some((decoder) => firstReporter.get(error) === decoder),
  };
}

function byteCounter(bounds: BodyBounds, asSent: boolean): Transform {
  let count = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (asSent) bounds.heard();
      count += chunk.length;
      if (count > bounds.maxBytes) done(bounds.tooLarge());
      else done(null, chunk);
    },
  });
}

/** Decoders in the order to apply them (the reverse of the order the server applied the codings). */
function decodersFor(contentEncoding: unknown, url: string): Transform[] {
  const header = typeof contentEncoding === 'string' ? contentEncoding : '';
  const codings = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  return codings.reverse().map((coding) => {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return createGunzip();
      case 'deflate':
        return createInflate();
      case 'br':
        return createBrotliDecompress();
      default:
        throw new InvalidResponseError(url, `the answer is compressed as "${coding}", which this client cannot read`);
    }
  });
}
