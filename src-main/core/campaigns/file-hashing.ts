// Hashing many files on every core: a small pool of worker threads, each reading its files with synchronous reads
// into one reused buffer (no stream objects, no promise per chunk) and hashing them. Files go out in batches, so a
// hundred thousand small files cost a few thousand messages, not a hundred thousand; a batch is smaller near the end
// so that no core waits idle on another's last large files.
// The worker is plain JavaScript evaluated from a string: no entry file for each bundle (command line, Electron main,
// tests) to build and find, and no pool library for the fifty lines a fixed-size pool takes.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** What hashing found of a file: its size, modification time and SHA-256; undefined when it is not a file. */
export interface FileDigest {
  size: number;
  mtimeMs: number;
  sha256: string;
}

export interface HashOptions {
  signal?: AbortSignal;
  /** Called as batches come back, with how many files are done and how many there are. */
  onHashed?: (done: number, total: number) => void;
  /** How many threads; one per core unless told. */
  threads?: number;
  /** Only look at size and modification time (the SHA-256 is left empty): a quick verify's first pass. */
  statOnly?: boolean;
}

type WorkerAnswer = { batch: number; digests: (FileDigest | null | { error: string })[] };

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { closeSync, fstatSync, openSync, readSync, statSync } = require('node:fs');
const { createHash, hash } = require('node:crypto');
const buffer = Buffer.allocUnsafe(1024 * 1024);
function look(file) {
  try {
    const info = statSync(file);
    return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs, sha256: '' } : null;
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    return { error: error.message };
  }
}
function digest(file) {
  let fd;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    return { error: error.message };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return null;
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

/**
 * The SHA-256, size and modification time of each file, in the order given (undefined for a file not there). A
 * file that is there but cannot be read stops it with an error naming the file.
 */
export async function hashFiles(paths: readonly string[], options: HashOptions = {}): Promise<(FileDigest | undefined)[]> {
  options.signal?.throwIfAborted();
  const digests: (FileDigest | undefined)[] = new Array<FileDigest | undefined>(paths.length);
  if (paths.length === 0) return digests;
  const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), Math.ceil(paths.length / 16)));
  const workers = Array.from({ length: threads }, () => new Worker(WORKER_SOURCE, { eval: true }));
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let done = 0;
      let batches = 0;
      const starts: number[] = [];
      const stop = (): void => reject(options.signal?.reason instanceof Error ? options.signal.reason : new Error('Verifying was cancelled.'));
      options.signal?.addEventListener('abort', stop, { once: true });
      const send = (worker: Worker): void => {
        if (next >= paths.length) return;
        // Smaller batches as the end nears: about four per thread of what is left, at most LARGEST_BATCH.
        const size = Math.max(1, Math.min(LARGEST_BATCH, Math.ceil((paths.length - next) / (threads * 4))));
        starts[batches] = next;
        worker.postMessage({ batch: batches, paths: paths.slice(next, next + size), statOnly: options.statOnly === true });
        batches += 1;
        next += size;
      };
      for (const worker of workers) {
        worker.on('error', reject);
        worker.on('message', ({ batch, digests: found }: WorkerAnswer) => {
          const start = starts[batch]!;
          for (const [index, digest] of found.entries()) {
            if (digest !== null && 'error' in digest) {
              reject(new Error(`Could not read ${paths[start + index]!}: ${digest.error}`));
              return;
            }
            digests[start + index] = digest ?? undefined;
          }
          done += found.length;
          options.onHashed?.(done, paths.length);
          if (done === paths.length) {
            options.signal?.removeEventListener('abort', stop);
            resolve();
          } else send(worker);
        });
        send(worker);
      }
    });
  } finally {
    // Terminating stops a worker in the middle of a file too: that is how cancelling stops at once.
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return digests;
}
