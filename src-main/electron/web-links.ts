// Which addresses may leave the app for the system browser: web links only. Anything else (file:,
// javascript:, custom app schemes) could run or open local things, so it is never handed to the OS.

/** The normalised address when `url` is an http(s) link, otherwise null. */
export function webLinkOrNull(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
}
