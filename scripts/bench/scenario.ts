// The numbers the benchmark is about, in one place: the link the emulator imitates and the files fetched over it.
// Sizes are binary everywhere (the CLI parses 25MB as 25 MiB), so the link limit, MB/s and RSS columns all use MiB.

export const MIB = 1024 * 1024;

/** The imitated link: every request waits this long before its answer... */
export const LATENCY_SECONDS = 0.04;
/** ...and every connection is paced to this rate (the emulator's --bandwidth, per connection). */
export const BANDWIDTH_BYTES_PER_SECOND = 25 * MIB;

/** KCor-sized files: 1024x1024 float32 FITS, 4.0 MiB raw, ~2.7 MiB gzip (measured each run). */
export const BATCH_IMAGE_SIZE = 1024;
export const BATCH = {
  instrument: 'kcor',
  product: 'pb',
  /** pB files come every 15 s, so 60 files span 15 minutes of one observing day. */
  start: '2025-03-24T20:00:00',
  cadenceSeconds: 15,
  files: 60,
  quickFiles: 20,
  concurrencies: [1, 4, 8],
  quickConcurrencies: [8],
} as const;

/** The concurrency of the generic downloaders the CLI is compared with. */
export const BASELINE_CONCURRENCY = 8;

/** 8192x8192 float32 = 256 MiB of image: far more than the RSS budget, so holding a file in memory would show. */
export const BIG_IMAGE_SIZE = 8192;
export const BIG_RAW_MIN_BYTES = 256 * MIB;
export const BIG = {
  instrument: 'kcor',
  /** A daily product: one file per observing day. */
  product: 'pbextavg',
  single: { start: '2025-03-24', end: '2025-03-25', files: 1 },
  /** The emulator's five default observing days end 2025-03-24: five big files for the concurrent run. */
  batch: { start: '2025-03-20', end: '2025-03-25', files: 5, concurrency: 8 },
} as const;

/** Targets the tables let a reader judge (printed, never asserted). */
export const TARGETS = {
  batchOverLinkLimitAtEight: 1.3,
  /** Issue 8: the whole mlso-dl process at concurrency 8 against aria2c -j8 on a prepared URL list, wall time. */
  endToEndOverAria2c: 1.1,
  /** Issue 22 item 6: the whole mlso-dl process at concurrency 8 against the plain-Node floor, wall time. */
  overNodeFloor: 1.1,
  /** ...and against aria2c -j8, then gzip -dc and sha256sum of every file on both cores, then sync. */
  overShellWay: 0.9,
  peakRssBytes: 200 * MIB,
} as const;
