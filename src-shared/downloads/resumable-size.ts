// Which downloads keep the beginning of their body to resume from (the core, download-file.ts) and so which paused
// files the queue's rows speak of resuming or starting again (the renderer): one threshold for both.

/**
 * Bodies announced shorter than this are not kept for resuming: fetching one again costs less than writing it
 * twice. A body of unknown length is kept. Keeping writes every byte a second time and removes the file after, about
 * 0.6 ms of CPU a MiB (measured over 60 KCor files of 2.7 MB at concurrency 8: 1.97 against 1.87 CPU s, some 6 % of
 * a files --download), paid by every file; a cut transfer is rare, and a body under 8 MiB is fetched again in
 * seconds even at a few MB/s. KCor's files (2-3 MB) are not kept; UCoMP's and the daily averages are.
 */
const RESUMABLE_FROM_BYTES = 8 * 1024 * 1024;

/** Whether a body of `bytes` (undefined or 0: unknown) is big enough to be kept for resuming. */
export function isWorthResuming(bytes: number | undefined, threshold = RESUMABLE_FROM_BYTES): boolean {
  return bytes === undefined || bytes === 0 || bytes >= threshold;
}
