// How numbers, times and rates are written in the window. Sizes come from the shared formatter so the app
// and the command line agree; the rest is presentation only.
import { humanSize } from '../../src-shared/format/human-size';

// The shared filter hints count too: the window takes its counts from the same place.
export { formatCount, plural } from '../../src-shared/format/counts';

/** Bytes per second as "12.3 MB/s"; nothing moving reads "0 B/s". */
export function formatSpeed(bytesPerSecond: number): string {
  return `${humanSize(Math.max(0, Math.round(bytesPerSecond)))}/s`;
}

/** Seconds left as "45 s", "3 min 20 s", "2 h 05 min"; null when the engine cannot tell. */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '—';
  const total = Math.round(seconds);
  if (total < 60) return `${total} s`;
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes} min ${String(total % 60).padStart(2, '0')} s`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** The day part of a service timestamp. */
export function dayOf(timestamp: string): string {
  return timestamp.slice(0, 10);
}

/** The host (and port) of a URL, or the text itself when it is not one. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** Whole percent, clamped to 0–100. */
export function percent(part: number, whole: number): number {
  if (!(whole > 0)) return 0;
  return Math.max(0, Math.min(100, Math.floor((part / whole) * 100)));
}
