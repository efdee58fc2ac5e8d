// The Downloads screen's channels through the app core: pages of the queue read one after another make the whole
// list in the screen's order (the comparator of src-shared/downloads/job-order.ts) with live views, a page with its
// counts carries the queue's figures, a folder keeps its own files and counts, and the player finds a listing's
// downloaded files. The SQL's own test, over 10,000 jobs in every state, is test/core/downloads/job-pages.unit.test.ts.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobPageRequest } from '../../../src-shared/downloads/job-page';
import type { JobView } from '../../../src-shared/downloads/progress-types';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { jobComparator } from '../../../src-renderer/downloads/job-order';
import { coreHarness, type CoreHarness } from '../../helpers/app-core-harness';
import { useEmulator } from '../../helpers/fixtures';
import { completedSearch, positionsChosen } from '../../helpers/kept-search';
import { waitFor } from '../../helpers/wait-for';

const emulator = useEmulator({ imageSize: 32 });
let h: CoreHarness;
let everyJob: JobView[];
let listed: string[];

beforeAll(async () => {
  h = await coreHarness(emulator());
  await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
  const query = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', every: '1hour' } };
  const listing = await completedSearch(h.core.handlers, query);
  listed = listing.files.map((file) => file.filename);
  await h.core.handlers['downloads:enqueue']({ searchId: listing.searchId, selection: positionsChosen(0, 1, 2) });
  await waitFor(async () => (await h.core.handlers['downloads:snapshot']()).overall.done === 3, 'the first three files');
  // The rest into another folder, paused at once: a list in two folders and several states.
  await h.core.handlers['downloads:pause-all']();
  await h.core.handlers['downloads:enqueue']({ searchId: listing.searchId, folder: path.join(h.downloadFolder, 'later') });
  everyJob = (await h.core.handlers['downloads:snapshot']()).jobs;
});

afterAll(async () => {
  await h?.core.close();
});

const request = (change: Partial<JobPageRequest>): JobPageRequest => ({
  offset: 0,
  limit: 4,
  states: null,
  place: null,
  sort: null,
  counted: false,
  ...change,
});

async function everyPage(change: Partial<JobPageRequest>): Promise<JobView[]> {
  const rows: JobView[] = [];
  for (;;) {
    const page = await h.core.handlers['downloads:page'](request({ ...change, offset: rows.length }));
    expect(page.offset).toBe(rows.length);
    for (const job of page.jobs) rows.push(job);
    if (page.jobs.length < 4) return rows;
  }
}

describe('the Downloads screen’s pages through the core', () => {
  it('reads the list page by page in the screen’s order, each row the job’s view', async () => {
    const positions = new Map(everyJob.map((job, index) => [job.id, index]));
    for (const sort of [null, { key: 'name', direction: 'descending' } as const, { key: 'state', direction: 'ascending' } as const]) {
      const expected = [...everyJob].sort(jobComparator(sort, (id) => positions.get(id)!));
      expect(await everyPage({ sort })).toEqual(expected);
    }
  });

  it('counts with a page when asked, for the whole list or one folder, and lists the folders', async () => {
    const later = path.join(h.downloadFolder, 'later');
    const count = (jobs: JobView[], state: JobView['state']) => jobs.filter((job) => job.state === state).length;
    const whole = await h.core.handlers['downloads:page'](request({ counted: true }));
    expect(whole.overall).toMatchObject({ total: everyJob.length, done: count(everyJob, 'done'), queued: count(everyJob, 'queued') });
    expect(whole.counts).toMatchObject({ total: everyJob.length, done: count(everyJob, 'done') });
    const place = { folder: later, nested: false };
    const laterJobs = everyJob.filter((job) => job.folder === later);
    const inLater = await h.core.handlers['downloads:page'](request({ place, counted: true, states: ['queued'] }));
    expect(inLater.counts).toMatchObject({ total: laterJobs.length, done: count(laterJobs, 'done'), queued: count(laterJobs, 'queued') });
    expect(inLater.jobs.map((job) => job.id)).toEqual(laterJobs.filter((job) => job.state === 'queued').map((job) => job.id));
    expect((await everyPage({ place })).map((job) => job.folder)).toEqual(everyJob.filter((job) => job.folder === later).map((job) => job.folder));
    expect(await h.core.handlers['downloads:folders']()).toEqual([h.downloadFolder, later].sort());
  });

  it('finds the downloaded files of a listing for the player', async () => {
    const found = await h.core.handlers['downloads:finished-of']({ filenames: listed });
    const done = everyJob.filter((job) => job.state === 'done');
    expect(done.length).toBeGreaterThanOrEqual(3);
    expect(found.map((job) => job.id)).toEqual(done.map((job) => job.id).sort((a, b) => a - b));
    expect(found.every((job) => listed.includes(job.filename))).toBe(true);
  });
});
