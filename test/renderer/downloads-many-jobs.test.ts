// The Downloads screen over a queue of 10,000 jobs: the 10,000-job version of the bench's `downloads-million` rows
// for the screen (scripts/bench/downloads-benchmark.ts: first rows after opening, a progress event, at a million in
// Chromium). It never asks for the whole list (the snapshot), reads pages of at most 500 rows, draws only the rows
// in view, and a progress event re-reads only the page in view, without the counts. The SQL behind the pages, over
// 10,000 jobs, is test/core/downloads/job-pages.unit.test.ts.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import type { JobState } from '../../src-shared/downloads/job-state';
import { FakeContract, makeJob } from './fake-contract';
import { renderApp } from './render-app';

const JOBS = 10_000;

const nameOf = (index: number): string => `20250324_${String(index).padStart(6, '0')}_kcor_l2_pb.fts`;

/** As a first sync of a long campaign leaves the queue: most done, a few moving, the rest waiting. */
function stateOf(index: number): JobState {
  if (index < 6_000) return 'done';
  if (index < 6_008) return 'active';
  if (index < 6_020) return 'failed';
  return 'queued';
}

/** Names in the order the table shows them. */
function shownNames(table: HTMLElement): string[] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelector('.name')?.getAttribute('title') ?? '');
}

describe('the Downloads screen over 10,000 jobs', () => {
  it('opens on a page of rows, never the whole list, draws only the rows in view, and re-reads only those on progress', async () => {
    const jobs = Array.from({ length: JOBS }, (_, index) =>
      makeJob(index + 1, nameOf(index), stateOf(index), stateOf(index) === 'active' ? { bytesReceived: 1000 } : {}),
    );
    const fake = new FakeContract({ jobs });
    await renderApp(fake);
    await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    const table = await screen.findByRole('table', { name: 'Download queue' });
    await waitFor(() => expect(shownNames(table)[0]).toBe(nameOf(6_000)));

    expect(fake.callsTo('downloads:snapshot')).toHaveLength(0);
    const pages = fake.callsTo('downloads:page');
    for (const page of pages) expect(page.limit).toBeLessThanOrEqual(500);
    expect(within(table).getAllByRole('row').length).toBeLessThan(60);
    // What moves first, then what waits: the work in progress on top of ten thousand rows.
    expect(shownNames(table).slice(0, 8)).toEqual(Array.from({ length: 8 }, (_, index) => nameOf(6_000 + index)));
    expect(shownNames(table)[8]).toBe(nameOf(6_020));

    // The first moving file finishes: one page of the rows in view is read again, without the counts.
    const before = pages.length;
    fake.progress([{ ...jobs[6_000]!, state: 'done', finishedAt: new Date().toISOString() }]);
    await waitFor(() => expect(shownNames(table)[0]).toBe(nameOf(6_001)));
    const reloads = fake.callsTo('downloads:page').slice(before);
    expect(reloads).toHaveLength(1);
    expect(reloads[0]).toMatchObject({ offset: 0, counted: false });
    expect(reloads[0]!.limit).toBeLessThanOrEqual(500);
    expect(within(table).getAllByRole('row').length).toBeLessThan(60);
  });
});
