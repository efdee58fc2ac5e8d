// A campaign's first sync into a paused queue at some 10,000 files: the 10,000-file version of the bench's
// `campaign-million` first row (scripts/bench/campaign-million-probe.ts, which times the same steps at a million and
// records their peak RSS). Every listed file is recorded once, at its place in the layout, and queued once; nothing
// is downloaded while the queue is paused; the report and the campaign's counts say so. The second sync with
// nothing new and the one after a new day are test/core/campaigns/incremental-sync.test.ts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { listing, useHarnesses } from '../downloads/engine-harness';
import { serviceOver } from './campaign-harness';

const DAY_MS = 24 * 60 * 60 * 1000;

const emulator = useEmulator({ imageSize: 32 });
const { harness } = useHarnesses(emulator);

describe('a first campaign sync of 10,000 files into a paused queue', () => {
  it('records and queues every listed file once, in its layout place, and downloads nothing', async () => {
    // 40 days of KCor every 45 s, up to yesterday: an open-ended query over two months, listed in month windows.
    const lastDay = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    emulator().setOptions({ lastDay, days: 40, cadenceSeconds: 45, zeroFilesizeRate: 0 });
    const firstDay = new Date(Date.parse(`${lastDay}T00:00:00Z`) - 39 * DAY_MS).toISOString().slice(0, 10);
    const query = { instrument: 'kcor', product: 'pb', filters: { 'start-date': firstDay } };
    const listed = await listing(emulator(), query.filters);
    expect(listed.length).toBeGreaterThanOrEqual(10_000);

    const h = await harness({ concurrency: 8 });
    h.engine.pauseAll();
    const service = serviceOver(h);
    const folder = path.join(await temporaryFolder(), 'mirror');
    const campaign = await service.create({ name: 'mirror', folder, layout: '{yyyy}/{mm}/{dd}', queries: [query] });
    emulator().resetStats();
    const run = await service.sync(campaign.name, h.engine);

    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(run.report.total).toMatchObject({ listed: listed.length, new: listed.length, queued: listed.length, onDisk: 0, failed: 0 });
    expect(service.store.counts(campaign.id)).toMatchObject({ files: listed.length, queued: listed.length, onDisk: 0 });
    // One job per file, in the campaign's folder at the place its layout gives (the day of its observation).
    const jobs = h.state.connection
      .prepare<[], { filename: string; targetPath: string; state: string }>('SELECT filename, target_path AS targetPath, state FROM jobs ORDER BY filename')
      .all();
    expect(jobs.map((job) => job.filename)).toEqual(listed.map((file) => file.filename).sort());
    expect(new Set(jobs.map((job) => job.state))).toEqual(new Set(['queued']));
    for (const [index, job] of jobs.entries()) {
      const day = job.filename.slice(0, 8);
      const place = path.join(folder, day.slice(0, 4), day.slice(4, 6), day.slice(6, 8), job.filename.replace(/\.gz$/, ''));
      expect(job.targetPath, `job ${index}`).toBe(place);
    }
  }, 60_000);
});
