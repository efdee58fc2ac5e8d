// The speed cap as people type it, read the one way every front end reads it (--limit-rate, the Settings field):
// the forms curl's --limit-rate and aria2c's --max-overall-download-limit take (500K, 5M, 1G, a number of bytes),
// with the "B", "iB" and "/s" people add (5MB/s, 5 MiB/s). Multiples are binary, as both tools count them.

const MULTIPLES: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** The slowest cap: a file's socket read (64 KB) must pass well within the stall timeout (a minute). */
const MIN_RATE_LIMIT_BYTES = 10 * 1024;

/** What to type, for a refusal. */
const RATE_LIMIT_HINT = 'Use a speed such as 5M, 5MB/s or 500K (bytes per second), or leave it empty for no cap.';

/** The cap in bytes per second, null for none (empty or 0); a string saying what to type when the text is not a speed. */
export function parseRateLimit(text: string): { ok: true; bytesPerSecond: number | null } | { ok: false; reason: string } {
  const trimmed = text.trim();
  if (trimmed === '' || /^0+(\.0*)?$/.test(trimmed)) return { ok: true, bytesPerSecond: null };
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?(?:\/s)?$/i.exec(trimmed);
  if (!match) return { ok: false, reason: `"${trimmed}" is not a speed. ${RATE_LIMIT_HINT}` };
  const bytesPerSecond = Math.round(Number(match[1]) * MULTIPLES[match[2]!.toLowerCase()]!);
  if (bytesPerSecond < MIN_RATE_LIMIT_BYTES) return { ok: false, reason: `A speed cap must be at least 10K (10 KB/s). ${RATE_LIMIT_HINT}` };
  return { ok: true, bytesPerSecond };
}
