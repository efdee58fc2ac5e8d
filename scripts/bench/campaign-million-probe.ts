// One sync of the million-file campaign (issue 22 items 2 and 3), measured in a process of its own so that its peak
// RSS is the sync's (dist/bench/campaign-million-probe.js; see campaign-million-benchmark.ts for the phases):
// - first: the campaign's first sync into a paused queue (nothing downloads): the enqueue, timed to the moment the
//   sync has recorded, taken in and queued every listed file. A million downloads would take hours here, so their
//   outcome is then written into the ledger: every job done, with an empty file at its place recorded as written at
//   size 0 with the time the file has, which is what a sync's quick check compares (every finished file is looked
//   at, the settled months' too).
// - again: a sync with the queue running, timed until the queue has settled (what a nightly run waits for).
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MlsoClient } from '../../src-main/core/api/mlso-client';
import { openDownloadEngine } from '../../src-main/core/app/open-engine';
import { CampaignService } from '../../src-main/core/campaigns/campaign-service';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { ownPeakRssBytes } from './peak-rss';

export interface CampaignProbeJob {
  baseUrl: string;
  stateDir: string;
  folder: string;
  /** The campaign's one query: KCor pB from this day on, open-ended (a mirror). */
  startDate: string;
  phase: 'first' | 'again';
}

export interface CampaignProbeResult {
  /** From the sync's start to its return (first: everything queued) or to the queue settled (again). */
  seconds: number;
  cpuSeconds: number;
  peakRssBytes: number;
  listed: number;
  new: number;
  onDisk: number;
  /** Jobs the batch queued (first) or that ran (again). */
  queued: number;
  windows: { listed: number; settled: number; changed: number };
}

const NAME = 'million';

export async function runCampaignProbe(job: CampaignProbeJob): Promise<CampaignProbeResult> {
  const client = new MlsoClient({ baseUrl: job.baseUrl });
  const opened = await openDownloadEngine(job.stateDir, { client, username: () => DEMO_EMAIL, concurrency: 8, batchId: randomUUID() });
  try {
    const service = new CampaignService({ ledger: opened.ledger, state: opened.state, client });
    if (job.phase === 'first') {
      opened.engine.pauseAll();
      await service.create({
        name: NAME,
        folder: job.folder,
        layout: '{yyyy}/{mm}/{dd}',
        queries: [{ instrument: 'kcor', product: 'pb', filters: { 'start-date': job.startDate } }],
        autoSyncHours: null,
      });
    }
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const run = await service.sync(NAME, opened.engine);
    if (job.phase === 'again') await opened.engine.whenSettled();
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const peakRssBytes = ownPeakRssBytes();
    const report = run.refresh();
    const queued = job.phase === 'first' ? run.report.total.queued : report.total.downloaded;
    if (job.phase === 'first') await downloadedAsIfFetched(opened.state.connection, job.folder);
    return {
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      peakRssBytes,
      listed: report.total.listed,
      new: report.total.new,
      onDisk: service.store.counts(run.campaignId).onDisk,
      queued,
      windows: run.windows,
    };
  } finally {
    await opened.close();
  }
}

/** Every job done, its file written empty at its place and recorded with the time it has (see the top). */
async function downloadedAsIfFetched(
  db: { prepare(sql: string): { run(...values: unknown[]): unknown; all(...values: unknown[]): unknown[] }; transaction(work: () => void): () => void },
  folder: string,
): Promise<void> {
  const files = db.prepare('SELECT id, target_path AS targetPath FROM jobs').all() as { id: number; targetPath: string }[];
  const made = new Set<string>();
  const written: { id: number; mtimeMs: number }[] = [];
  for (const { id, targetPath } of files) {
    const dir = path.dirname(targetPath);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    if (!targetPath.startsWith(folder)) throw new Error(`a job outside the campaign's folder: ${targetPath}`);
    await writeFile(targetPath, '');
    written.push({ id, mtimeMs: statSync(targetPath).mtimeMs });
  }
  const now = new Date().toISOString();
  const done = db.prepare(`UPDATE jobs SET state = 'done', sha256 = ?, bytes_written = 0, written_mtime_ms = ?, started_at = ?, finished_at = ? WHERE id = ?`);
  db.transaction(() => {
    for (const { id, mtimeMs } of written) done.run('0'.repeat(64), mtimeMs, now, now, id);
  })();
}
