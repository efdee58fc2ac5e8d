// The built-in baseline, "a generic parallel downloader": N workers over one keep-alive agent, each streaming raw
// bodies to files, nothing more (no decompression, no verification, no retries). It runs as its own process from
// its own small bundle (dist/bench/node-get-worker.js, see node-get-worker-main.ts), so its RSS and wall time
// compare fairly with mlso-dl's and do not include the benchmark's own modules.
import { readFile } from 'node:fs/promises';
import { getRawBody, keepAliveAgent, mapWithConcurrency } from './raw-http';

export interface NodeGetJob {
  cookie: string;
  concurrency: number;
  files: { url: string; path: string }[];
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
  const sizes = await mapWithConcurrency(job.files, job.concurrency, async (file) => (await getRawBody(file.url, job.cookie, agent, file.path)).bytes);
  const result: NodeGetResult = { batchSeconds: (performance.now() - started) / 1000, bytes: sizes.reduce((sum, size) => sum + size, 0) };
  agent.destroy();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
