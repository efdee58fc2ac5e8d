// Hashing many files on every core: a small pool of worker threads, each reading its files with synchronous reads
// into one reused buffer (no stream objects, no promise per chunk) and hashing them. Files go out in batches, so a
// hundred thousand small files cost a few thousand messages, not a hundred thousand; a batch is smaller near the end
// so that no core waits idle on another's last large files.
// The worker is plain JavaScript evaluated from a string: no entry file for each bundle (command line, Electron main,
// tests) to build and find, and no pool library for the fifty lines a fixed-size pool takes.
// Only regular files are read: a FIFO is opened without waiting for a writer (a thread stuck in open() could not be
// stopped, nor the process end) and, like a device or a folder, named by what it is instead of being read.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { whatIsThere } from '../files/regular-file';

/** What hashing found of a regular file: its size, modification time and SHA-256. */
interface FileDigest {
  size: number;
  mtimeMs: number;
  sha256: string;
}

/** Something other than a regular file is at the path (`instead`: "a FIFO", "a folder"); it was not read. */
export interface NotAFile {
  instead: string;
  size?: never;
  mtimeMs?: never;
  sha256?: never;
}

/** What is at a path: a regular file's digest, or what is there instead; undefined when nothing is. */
export type FileFound = FileDigest | NotAFile;

export interface HashOptions {
  signal?: AbortSignal;
  /** Called as batches come back, with how many files are done and how many there are. */
  onHashed?: (done: number, total: number) => void;
  /** How many threads; one per core unless told. */
  threads?: number;
  /** Only look at size and modification time (the SHA-256 is left empty): a quick verify's first pass. */
  statOnly?: boolean;
}

type WorkerAnswer = { batch: number; digests: (FileDigest | null | { mode: number } | { error: string })[] };

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { closeSync, constants, fstatSync, openSync, readSync, statSync } = require('node:fs');
const { createHash, hash } = require('node:crypto');
const buffer = Buffer.allocUnsafe(1024 * 1024);
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
function look(file) {
  try {
    const info = statSync(file);
    return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs, sha256: '' } : { mode: info.mode };
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    return { error: error.message };
  }
}
function digest(file) {
  let fd;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    return { error: error.message };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { mode: info.mode };
    let read = readSync(fd, buffer, 0, buffer.length, null);
    // A small file whole in one read (as its size says) is hashed at once: no second read to find the end, no Hash object.
    if (read === info.size && read < buffer.length) return { size: info.size, mtimeMs: info.mtimeMs, sha256: hash('sha256', buffer.subarray(0, read), 'hex') };
    const sha256 = createHash('sha256');
    for (; read > 0; read = readSync(fd, buffer, 0, buffer.length, null)) sha256.update(buffer.subarray(0, read));
    return { size: info.size, mtimeMs: info.mtimeMs, sha256: sha256.digest('hex') };
  } catch (error) {
    return { error: error.message };
  } finally {
    closeSync(fd);
  }
}
parentPort.on('message', ({ batch, paths, statOnly }) => parentPort.postMessage({ batch, digests: paths.map(statOnly ? look : digest) }));
`;

const LARGEST_BATCH = 256;
/** Batches sent ahead to each thread, so that it starts the next as it answers the last, not when the answer is read. */
const AHEAD = 2;

/**
 * The SHA-256, size and modification time of each file, in the order given (undefined for a file not there; what is
 * there instead of a regular file is named, not read). A file that cannot be read stops it with an error naming it.
 */
export async function hashFiles(paths: readonly string[], options: HashOptions = {}): Promise<(FileFound | undefined)[]> {
  options.signal?.throwIfAborted();
  if (paths.length === 0) return [];
  const pool = new HashPool({ ...options, expected: paths.length });
  try {
    pool.add(paths);
    pool.allAdded();
    return await pool.finish();
  } finally {
    await pool.close();
  }
}

interface Batch {
  start: number;
  paths: string[];
}

/**
 * Hashing threads that take files as they come: verify hands them each page of files it reads from the ledger, so
 * the hashing starts with the first page instead of after the last. `expected` (how many files will be added, at
 * most) sizes the pool, shrinks the batches near the end and is the total the progress reports until allAdded()
 * says how many there are.
 */
export class HashPool {
  private readonly workers: Worker[];
  private readonly inFlight = new Map<Worker, number>();
  private readonly batches = new Map<number, Batch>();
  private readonly paths: string[] = [];
  private readonly digests: (FileFound | undefined)[] = [];
  private nextBatch = 0;
  private sent = 0;
  private done = 0;
  private complete = false;
  private failure: Error | undefined;
  private settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
  private readonly stop = (): void =>
    this.fail(this.options.signal?.reason instanceof Error ? this.options.signal.reason : new Error('Verifying was cancelled.'));

  constructor(private readonly options: HashOptions & { expected: number }) {
    const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), Math.ceil(options.expected / 16)));
    this.workers = Array.from({ length: threads }, () => new Worker(WORKER_SOURCE, { eval: true }));
    for (const worker of this.workers) {
      this.inFlight.set(worker, 0);
      worker.on('error', (error) => this.fail(error));
      worker.on('message', (answer: WorkerAnswer) => this.answered(worker, answer));
    }
    options.signal?.addEventListener('abort', this.stop, { once: true });
  }

  /** Hashes these files too, after those added before. */
  add(paths: readonly string[]): void {
    for (const file of paths) this.paths.push(file);
    for (const worker of this.workers) this.send(worker);
  }

  /** No more files come: the progress counts of the files added from now on (reported at once). */
  allAdded(): void {
    this.complete = true;
    this.options.onHashed?.(this.done, this.paths.length);
  }

  /** Every file added, in the order added, once all are hashed; the first failure (or the cancel) otherwise. */
  finish(): Promise<(FileFound | undefined)[]> {
    return new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
      this.settleIfDone();
    }).then(() => this.digests);
  }

  /** Throws the failure that stopped the pool, if one did (a caller adding files in pieces stops early with it). */
  throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  async close(): Promise<void> {
    this.options.signal?.removeEventListener('abort', this.stop);
    // Terminating stops a worker in the middle of a file too: that is how cancelling stops at once.
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private send(worker: Worker): void {
    while (this.failure === undefined && this.sent < this.paths.length && this.inFlight.get(worker)! < AHEAD) {
      // Smaller batches as the end nears: about four per thread of what is left, at most LARGEST_BATCH.
      const left = Math.max(this.options.expected, this.paths.length) - this.sent;
      const size = Math.max(1, Math.min(LARGEST_BATCH, Math.ceil(left / (this.workers.length * 4)), this.paths.length - this.sent));
      const batch = { start: this.sent, paths: this.paths.slice(this.sent, this.sent + size) };
      this.batches.set(this.nextBatch, batch);
      worker.postMessage({ batch: this.nextBatch, paths: batch.paths, statOnly: this.options.statOnly === true });
      this.nextBatch += 1;
      this.sent += size;
      this.inFlight.set(worker, this.inFlight.get(worker)! + 1);
    }
  }

  private answered(worker: Worker, { batch: id, digests: found }: WorkerAnswer): void {
    const batch = this.batches.get(id)!;
    this.batches.delete(id);
    this.inFlight.set(worker, this.inFlight.get(worker)! - 1);
    if (this.failure) return;
    for (const [index, digest] of found.entries()) {
      if (digest !== null && 'error' in digest) {
        this.fail(new Error(`Could not read ${batch.paths[index]!}: ${digest.error}`));
        return;
      }
      this.digests[batch.start + index] = digest === null ? undefined : 'mode' in digest ? { instead: whatIsThere(digest.mode) } : digest;
    }
    this.done += found.length;
    this.options.onHashed?.(this.done, this.complete ? this.paths.length : Math.max(this.options.expected, this.paths.length));
    this.send(worker);
    this.settleIfDone();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.settleIfDone();
  }

  private settleIfDone(): void {
    if (!this.settle) return;
    if (this.failure) this.settle.reject(this.failure);
    else if (this.done === this.paths.length) this.settle.resolve();
  }
}
