// One measured run, and the median row of several: medians, because one slow outlier (a GC pause, the other
// core busy) should not move the table, and they need no assumption about the spread.

export interface Sample {
  wallSeconds: number;
  /** From the first file request to the last file finished; falls back to wall time (see batchSource). */
  batchSeconds: number;
  batchSource: 'cli-stats' | 'worker' | 'wall';
  files: number;
  /** Gzip bytes over the wire (the client's own count, else the measured body sizes of the files it fetched). */
  wireBytes?: number;
  wireSource: 'cli-stats' | 'measured';
  /** Decompressed bytes on disk; undefined for baselines, which keep the gzip bodies. */
  fitsBytes?: number;
  peakRssBytes?: number;
  /** User plus system CPU seconds of the whole process tree (see TimedRun.cpuSeconds). */
  cpuSeconds?: number;
  /** From the emulator: the most downloads it was answering at once. */
  peakActiveDownloads?: number;
  leftovers?: string[];
}

export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median of one field over the samples that have it. */
export function medianOf(samples: readonly Sample[], pick: (sample: Sample) => number | undefined): number | undefined {
  return median(samples.map(pick).filter((value): value is number => value !== undefined));
}
