// The listed files a finished download holds, as the player's frames: one rule for the window (a listing it holds)
// and the core (a kept search, read a chunk at a time), so both find the same files.
import type { JobView } from './progress-types';

export interface DownloadedFrame {
  jobId: number;
  /** The file's name on disk. */
  name: string;
  /** UT, as the listing (or, once read, the file's header) gives it; null while unknown. */
  dateObs: string | null;
}

/** What the rule reads of a listed file. */
interface ListedFile {
  filename: string;
  'date-obs': string;
}

/** The listed files that a finished download holds (the newest download when a file was fetched twice), in listing order. */
export function downloadedFrames(listed: readonly ListedFile[], jobs: readonly JobView[]): DownloadedFrame[] {
  const done = new Map<string, JobView>();
  for (const job of jobs) {
    if (job.state !== 'done') continue;
    const kept = done.get(job.filename);
    if (!kept || kept.id < job.id) done.set(job.filename, job);
  }
  if (done.size === 0) return [];
  return listed.flatMap((entry) => {
    const job = done.get(entry.filename);
    return job ? [{ jobId: job.id, name: job.localName, dateObs: entry['date-obs'] || job.dateObs }] : [];
  });
}
