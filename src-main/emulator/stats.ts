// Counters that tests and the benchmark read to see what a client really did (retries, parallelism, aborts).

export interface EmulatorStats {
  /** API requests (everything but /__emulator control calls). */
  requests: number;
  /** Download requests naming a listed file, whatever their outcome (errors, faults and refusals included). */
  downloadsStarted: number;
  /** Downloads whose whole file body was sent. */
  downloadsCompleted: number;
  /** Downloads whose body was begun but not finished: client went away, reset, truncate, stall. */
  downloadsAborted: number;
  /** Download requests being answered right now, and the most at once. */
  activeDownloads: number;
  peakActiveDownloads: number;
  /** TCP connections open right now, and the most at once. */
  activeConnections: number;
  peakConnections: number;
  /** TCP connections accepted in all (a proxy's tunnels each count one). */
  connectionsOpened: number;
  authentications: number;
  failedAuthentications: number;
  /** Started downloads per listed file name (without .gz). */
  downloadsByFile: Record<string, number>;
  /**
   * When the first STARTS_KEPT_PER_FILE of those downloads started (ms since the epoch, the emulator's clock):
   * the waits between attempts. Only the first ones, so a long demo run that fetches the same files again and
   * again does not grow it.
   */
  downloadStartsByFile: Record<string, number[]>;
  completedByFile: Record<string, number>;
  /** Downloads answered with part of the body (206) for a Range request. */
  partialDownloads: number;
  /** The first byte each of those answers began at, per listed file name (the first STARTS_KEPT_PER_FILE). */
  partialStartsByFile: Record<string, number[]>;
  /** Files-endpoint answers being sent right now (an endless listing stays here until its client leaves). */
  activeListings: number;
  /** Body bytes of files-endpoint answers handed to the sockets. */
  listingBytesSent: number;
}

/** Start times kept per file: more than any retry sequence a test looks at. */
export const STARTS_KEPT_PER_FILE = 32;

export class StatsRecorder {
  private stats: EmulatorStats = emptyStats(0, 0, 0);

  snapshot(): EmulatorStats {
    const starts = Object.fromEntries(Object.entries(this.stats.downloadStartsByFile).map(([name, times]) => [name, [...times]]));
    const partialStarts = Object.fromEntries(Object.entries(this.stats.partialStartsByFile).map(([name, offsets]) => [name, [...offsets]]));
    return {
      ...this.stats,
      downloadsByFile: { ...this.stats.downloadsByFile },
      downloadStartsByFile: starts,
      completedByFile: { ...this.stats.completedByFile },
      partialStartsByFile: partialStarts,
    };
  }

  /** Zeroes the counters; what is in flight stays counted as in flight, and peaks restart from it. */
  reset(): void {
    this.stats = emptyStats(this.stats.activeDownloads, this.stats.activeConnections, this.stats.activeListings);
  }

  request(): void {
    this.stats.requests++;
  }

  authentication(succeeded: boolean): void {
    if (succeeded) this.stats.authentications++;
    else this.stats.failedAuthentications++;
  }

  connectionOpened(): void {
    this.stats.connectionsOpened++;
    this.stats.activeConnections++;
    this.stats.peakConnections = Math.max(this.stats.peakConnections, this.stats.activeConnections);
  }

  connectionClosed(): void {
    this.stats.activeConnections = Math.max(0, this.stats.activeConnections - 1);
  }

  /** Returns the function to call exactly once when that response is over. */
  downloadInFlight(): () => void {
    this.stats.activeDownloads++;
    this.stats.peakActiveDownloads = Math.max(this.stats.peakActiveDownloads, this.stats.activeDownloads);
    return onlyOnce(() => {
      this.stats.activeDownloads = Math.max(0, this.stats.activeDownloads - 1);
    });
  }

  downloadStarted(filename: string): void {
    this.stats.downloadsStarted++;
    this.stats.downloadsByFile[filename] = (this.stats.downloadsByFile[filename] ?? 0) + 1;
    const starts = (this.stats.downloadStartsByFile[filename] ??= []);
    if (starts.length < STARTS_KEPT_PER_FILE) starts.push(Date.now());
  }

  downloadCompleted(filename: string): void {
    this.stats.downloadsCompleted++;
    this.stats.completedByFile[filename] = (this.stats.completedByFile[filename] ?? 0) + 1;
  }

  partialDownload(filename: string, firstByte: number): void {
    this.stats.partialDownloads++;
    const offsets = (this.stats.partialStartsByFile[filename] ??= []);
    if (offsets.length < STARTS_KEPT_PER_FILE) offsets.push(firstByte);
  }

  downloadAborted(): void {
    this.stats.downloadsAborted++;
  }

  /** Returns the function to call exactly once when that listing's response is over. */
  listingInFlight(): () => void {
    this.stats.activeListings++;
    return onlyOnce(() => {
      this.stats.activeListings = Math.max(0, this.stats.activeListings - 1);
    });
  }

  listingBytes(bytes: number): void {
    this.stats.listingBytesSent += bytes;
  }
}

/** `release`, run the first time it is called and never again. */
function onlyOnce(release: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
}

function emptyStats(activeDownloads: number, activeConnections: number, activeListings: number): EmulatorStats {
  return {
    requests: 0,
    downloadsStarted: 0,
    downloadsCompleted: 0,
    downloadsAborted: 0,
    activeDownloads,
    peakActiveDownloads: activeDownloads,
    activeConnections,
    peakConnections: activeConnections,
    connectionsOpened: 0,
    authentications: 0,
    failedAuthentications: 0,
    downloadsByFile: {},
    downloadStartsByFile: {},
    completedByFile: {},
    partialDownloads: 0,
    partialStartsByFile: {},
    activeListings,
    listingBytesSent: 0,
  };
}
