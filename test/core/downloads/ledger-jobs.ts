// A job as the enqueuer would insert it into the ledger, for tests of the ledger and of what reads it.
import path from 'node:path';
import type { NewJob } from '../../../src-main/core/downloads/download-ledger';
import type { JobState } from '../../../src-shared/downloads/job-state';

const JOB_FOLDER = path.resolve('/data/fits');

export function newJob(filename: string, options: { folder?: string; batchId?: string | null; expectedSize?: number; state?: JobState } = {}): NewJob {
  const folder = options.folder ?? JOB_FOLDER;
  return {
    url: `http://127.0.0.1:1/v1/download?filename=${filename}.gz`,
    instrument: 'kcor',
    product: 'pb',
    dateObs: '2025-03-24T21:03:04',
    filename,
    folder,
    targetPath: path.join(folder, filename),
    expectedSize: options.expectedSize ?? 1_000,
    batchId: options.batchId ?? null,
    ...(options.state ? { state: options.state } : {}),
  };
}
