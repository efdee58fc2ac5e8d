// The beginning of a body as it came over the wire, kept in a hidden file beside the target (resume-file-writer.ts
// writes it), so a transfer cut short (Pause, Ctrl-C, a dropped connection, a crash) asks only for the rest next
// time, as `wget -c` and aria2c do, whatever the file's size. The bytes are kept as sent (the gzip stream when the file goes gzipped): a
// decompressor's state cannot be saved, so a resumed file is inflated again from its first byte, and gzip's own
// check (CRC-32 and length of every member) covers the joined body. Kept only when the server says it serves byte
// ranges and names the version it sent, so the rest is asked of that version alone (If-Range).
import { hiddenNameBeside, isHiddenNameBeside } from './temporary-files';

/** Where the resume file (the beginning of a body, kept) is, and the version of the file it is the beginning of. */
export interface ResumePoint {
  /** The hidden file beside the target, `.<name>.<8 hex>.resume`. */
  name: string;
  /** The body's strong ETag, or its Last-Modified date: what If-Range sends back. */
  validator: string;
}

export function resumeFileNameFor(localName: string): string {
  return hiddenNameBeside(localName, 'resume');
}

export function isResumeFileName(name: string): boolean {
  return isHiddenNameBeside(name, 'resume');
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * What If-Range can name this answer's version by, when the server serves byte ranges: its ETag if strong (a
 * weak one cannot be used with ranges), else its Last-Modified. Undefined when the answer cannot be resumed.
 */
export function resumeValidator(headers: Headers): string | undefined {
  const ranges = headers['accept-ranges'];
  if (typeof ranges !== 'string' || !ranges.split(',').some((unit) => unit.trim().toLowerCase() === 'bytes')) return undefined;
  const tag = headers['etag'];
  if (typeof tag === 'string' && /^"[^"]*"$/.test(tag.trim())) return tag.trim();
  const modified = headers['last-modified'];
  if (typeof modified === 'string' && !Number.isNaN(Date.parse(modified))) return modified.trim();
  return undefined;
}

/** The part a 206 answer carries: `Content-Range: bytes first-last/length` (the length may be unknown: `*`). */
export interface ContentRange {
  first: number;
  last: number;
  length?: number;
}

export function contentRangeOf(headers: Headers): ContentRange | undefined {
  const value = headers['content-range'];
  if (typeof value !== 'string') return undefined;
  const match = /^\s*bytes\s+(\d{1,15})-(\d{1,15})\/(\d{1,15}|\*)\s*$/i.exec(value);
  if (!match) return undefined;
  const first = Number(match[1]);
  const last = Number(match[2]);
  const length = match[3] === '*' ? undefined : Number(match[3]);
  if (last < first || (length !== undefined && last >= length)) return undefined;
  return { first, last, ...(length !== undefined ? { length } : {}) };
}
