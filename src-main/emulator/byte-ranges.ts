// Byte ranges on downloads (RFC 9110 §14), so a client can resume a cut transfer the way wget -c and aria2c do.
// Ranges count bytes of the body as sent: with Content-Encoding gzip that is the gzip stream, not the FITS file.
// One range is honoured; a header with several, or one that does not parse, is ignored and the whole body sent,
// as the RFC allows. The `byteRanges` knob turns all of it off, since the real service may not honour ranges.
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import parseRange from 'range-parser';

/** The part of the body to send: bytes start..end inclusive of a body `length` long. */
export interface ByteSpan {
  start: number;
  end: number;
  length: number;
}

export type RangeAnswer = { kind: 'whole' } | { kind: 'partial'; span: ByteSpan } | { kind: 'unsatisfiable'; length: number };

/** A strong validator for one body: the same bytes always get the same tag, other bytes another. */
export function entityTag(bodyKey: string): string {
  return `"${createHash('sha256').update(bodyKey).digest('base64url').slice(0, 22)}"`;
}

/**
 * What to answer to a request's Range (and If-Range) for a body of `length` bytes tagged `tag`. A range that
 * starts at or past the end is unsatisfiable (416); If-Range naming another tag (the file changed since the
 * client's first part) gets the whole body, so old and new bytes are never spliced.
 */
export function answerRange(headers: IncomingHttpHeaders, length: number, tag: string): RangeAnswer {
  const range = headers.range;
  if (typeof range !== 'string') return { kind: 'whole' };
  const ifRange = headers['if-range'];
  if (ifRange !== undefined && ifRange !== tag) return { kind: 'whole' };
  const parsed = parseRange(length, range);
  if (parsed === -1) return { kind: 'unsatisfiable', length };
  if (parsed === -2 || parsed.type !== 'bytes' || parsed.length !== 1) return { kind: 'whole' };
  const [only] = parsed;
  if (!only) return { kind: 'whole' };
  return { kind: 'partial', span: { start: only.start, end: only.end, length } };
}

/** The bytes start..end (inclusive) of a body given as chunks, without copying more than the chunks that hold them. */
export function* bytesOf(chunks: Iterable<Buffer>, span: ByteSpan): Generator<Buffer> {
  let offset = 0;
  for (const chunk of chunks) {
    const chunkEnd = offset + chunk.length;
    if (chunkEnd > span.start) {
      const from = Math.max(0, span.start - offset);
      const to = Math.min(chunk.length, span.end + 1 - offset);
      if (to > from) yield chunk.subarray(from, to);
    }
    offset = chunkEnd;
    if (offset > span.end) return;
  }
}
