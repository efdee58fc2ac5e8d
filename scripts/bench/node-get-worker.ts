// The built-in baseline, "a generic parallel downloader": N workers over one keep-alive agent, each streaming raw
// bodies to files, nothing more (no decompression, no verification, no retries). With `fits`, each body is also
// gunzipped, hashed (SHA-256) and flushed (fsync) before a rename, the least work that delivers what mlso-dl
// delivers: the floor for Node on this machine. It runs as its own process from its own small bundle
// (dist/bench/node-get-worker.js, see node-get-worker-main.ts), so its RSS and wall time compare fairly with
// mlso-dl's and do not include the benchmark's own modules.
import { readFile } from 'node:fs/promises';
import { getFitsFile, getRawBody, keepAliveAgent, mapWithConcurrency } from './raw-http';

export interface NodeGetJob {
  cookie: string;
  concurrency: number;
  files: { url: string; path: string }[];
  /** Save decompressed, hashed and flushed FITS files instead of the raw bodies. */
  fits?: boolean;
}

export interface NodeGetResult {
  batchSeconds: number;
  bytes: number;
}

export async function runNodeGetWorker(jobPath: string): Promise<void> {
  const job = JSON.parse(await readFile(jobPath, 'utf8')) as NodeGetJob;
  const agent = keepAliveAgent(job.concurrency);
  // Timed like mlso-dl's batchSeconds: first request to last body written, without process start.
  const started = performance.now();
  const flushes: Promise<string>[] = [];
  const sizes = await mapWithConcurrency(job.files, job.concurrency, async (file) => {
    if (!job.fits) return (await getRawBody(file.url, job.cookie, agent, file.path)).bytes;
    const saved = await getFitsFile(file.url, job.cookie, agent, file.path);
    // Awaited all together at the end; a failure meanwhile is not unhandled, it fails the run there.
    saved.flushed.catch(() => undefined);
    flushes.push(saved.flushed);
    return saved.bytes;
  });
  await Promise.all(flushes);
  const result: NodeGetResult = { batchSeconds: (performance.now() - started) / 1000, bytes: sizes.reduce((sum, size) => sum + size, 0) };
  agent.destroy();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
