// Which downloads keep the beginning of their body to resume from (the core, download-file.ts) and so which paused
// files the queue's rows speak of resuming or starting again (the renderer): one threshold for both.

/**
 * Bodies announced shorter than this are not kept for resuming: fetching one again costs less than writing it
 * twice. A body of unknown length is kept.
 */
const RESUMABLE_FROM_BYTES = 1024 * 1024;

/** Whether a body of `bytes` (undefined or 0: unknown) is big enough to be kept for resuming. */
export function isWorthResuming(bytes: number | undefined, threshold = RESUMABLE_FROM_BYTES): boolean {
  return bytes === undefined || bytes === 0 || bytes >= threshold;
}
