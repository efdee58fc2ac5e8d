// File names come from the server's listing and become paths on the user's disk, so only a plain
// base name is ever accepted: no separators, not "." or "..", no control characters (C0, DEL, C1), no
// bidirectional marks or overrides (they make `evil\u202egnp.fts` show as `evilstf.png`), nothing a Windows
// or macOS file system would treat specially, and no leading dot (the downloader's own temporary files
// are hidden dot-files beside their targets).

// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const FORBIDDEN = /[/\\<>:"|?*\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
const MAX_NAME_BYTES = 255;

export type FilenameCheck = { ok: true } | { ok: false; reason: string };

export function checkSafeFilename(name: string): FilenameCheck {
  if (name.length === 0) return { ok: false, reason: 'the name is empty' };
  if (name === '.' || name === '..') return { ok: false, reason: 'the name is "." or ".."' };
  if (FORBIDDEN.test(name)) return { ok: false, reason: 'the name contains a path separator, a control character or a reserved character' };
  if (name.startsWith('.')) return { ok: false, reason: 'the name starts with a dot' };
  if (name !== name.trim() || name.endsWith('.')) return { ok: false, reason: 'the name starts or ends with a space or a dot' };
  if (WINDOWS_RESERVED.test(name)) return { ok: false, reason: 'the name is reserved by Windows' };
  if (new TextEncoder().encode(name).length > MAX_NAME_BYTES) return { ok: false, reason: 'the name is longer than 255 bytes' };
  return { ok: true };
}
