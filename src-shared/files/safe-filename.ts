// File names come from the server's listing and become paths on the user's disk, so only a plain
// base name is ever accepted: no separators, not "." or "..", no control characters (C0, DEL, C1), no
// bidirectional marks or overrides (they make `evil\u202egnp.fts` show as `evilstf.png`), nothing a Windows
// or macOS file system would treat specially, and no leading dot (the downloader's own temporary files
// are hidden dot-files beside their targets).

// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const FORBIDDEN = /[/\\<>:"|?*\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// A lone surrogate (JSON can carry one as "\ud800") is written to disk as U+FFFD: two listed names would be one file.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Windows opens a device instead of a file for these names, whatever follows the first dot ("nul.tar.gz"),
// also with spaces before that dot ("CON .fts"), and for the superscript digits of COM and LPT.
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$) *(\..*)?$/i;
/** The longest name ext4 and APFS take, in UTF-8 bytes (any such name also fits NTFS's 255 UTF-16 units). */
export const MAX_NAME_BYTES = 255;

export type FilenameCheck = { ok: true } | { ok: false; reason: string };

export function checkSafeFilename(name: string): FilenameCheck {
  if (name.length === 0) return { ok: false, reason: 'the name is empty' };
  if (name === '.' || name === '..') return { ok: false, reason: 'the name is "." or ".."' };
  if (FORBIDDEN.test(name)) return { ok: false, reason: 'the name contains a path separator, a control character or a reserved character' };
  if (LONE_SURROGATE.test(name)) return { ok: false, reason: 'the name is not valid Unicode text' };
  if (name.startsWith('.')) return { ok: false, reason: 'the name starts with a dot' };
  if (name !== name.trim() || name.endsWith('.')) return { ok: false, reason: 'the name starts or ends with a space or a dot' };
  if (WINDOWS_RESERVED.test(name)) return { ok: false, reason: 'the name is reserved by Windows' };
  // A UTF-16 unit is at most 3 bytes of UTF-8: a short name needs no count (a listing checks a million names).
  if (name.length * 3 > MAX_NAME_BYTES && utf8Length(name) > MAX_NAME_BYTES) return { ok: false, reason: `the name is longer than ${MAX_NAME_BYTES} bytes` };
  return { ok: true };
}

/**
 * Any text made into a name that checkSafeFilename accepts, for folder names built from the server's text: forbidden
 * characters and lone surrogates become `_`, as does a leading dot; leading spaces and trailing dots and spaces go; a
 * Windows device name gets a `_` in front; the name is cut between characters to fit `maxBytes` of UTF-8; `_` if
 * nothing is left.
 */
export function toSafeName(text: string, maxBytes = MAX_NAME_BYTES): string {
  const replaced = text.replace(new RegExp(FORBIDDEN.source, 'g'), '_').replace(new RegExp(LONE_SURROGATE.source, 'g'), '_');
  let name = truncateUtf8(replaced, maxBytes).replace(/^\s+|[\s.]+$/g, '');
  if (name.startsWith('.')) name = `_${name.slice(1)}`;
  // "nul.anything" is a device name too: cut by one byte more to make room for the `_` (and tidy the new end again).
  if (WINDOWS_RESERVED.test(name)) name = `_${truncateUtf8(name, maxBytes - 1).replace(/[\s.]+$/, '')}`;
  return name === '' ? '_' : name;
}

/** The longest start of `text` within `maxBytes` of UTF-8, cut between characters (never inside a surrogate pair). */
export function truncateUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    bytes += utf8Bytes(character.codePointAt(0)!);
    if (bytes > maxBytes) break;
    end += character.length;
  }
  return text.slice(0, end);
}

/** Bytes of one code point in UTF-8 (a lone surrogate is written as U+FFFD, three bytes). */
const utf8Bytes = (codePoint: number): number => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

const ENCODER = new TextEncoder();

/** Bytes of `text` in UTF-8, as file systems count a name (TextEncoder: this module also runs in the renderer). */
export function utf8Length(text: string): number {
  return ENCODER.encode(text).length;
}
