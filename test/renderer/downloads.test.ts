// Downloads: the queue from a snapshot, live progress events, the queue and per-file controls, the engine's
// pause reason, and the rail's badge.
import { describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import type { JobView } from '../../src-shared/downloads/progress-types';
import { apiClientFrom } from '../../src-renderer/lib/api';
import { nameParts } from '../../src-renderer/downloads/job-text';
import { SparseRows } from '../../src-renderer/lib/sparse-rows.svelte';
import { DownloadsStore, HOLD_MS } from '../../src-renderer/downloads/downloads.svelte';
import { FakeContract, makeJob, overallOf, runOf, type FakeOptions } from './fake-contract';
import { renderApp } from './render-app';

const A = '20250324_210304_kcor_l2_pb.fts';
const B = '20250324_210319_kcor_l2_pb.fts';
const C = '20250324_210334_kcor_l2_pb.fts';
const D = '20250324_210349_kcor_l2_pb.fts';
const E = '20250324_210404_kcor_l2_pb.fts';

function queue(): JobView[] {
  return [
    makeJob(1, A, 'active', { bytesReceived: 1_291_014, speed: 2_000_000 }),
    makeJob(2, B, 'queued'),
    makeJob(3, C, 'paused'),
    makeJob(4, D, 'failed', { lastError: 'The server closed the connection before the file was complete.', attempts: 4 }),
    makeJob(5, E, 'done'),
  ];
}

async function openDownloads(options: FakeOptions = {}, fake = new FakeContract({ jobs: queue(), ...options })) {
  const rendered = await renderApp(fake);
  await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
  const table = await screen.findByRole('table', { name: 'Download queue' });
  return { ...rendered, table };
}

function rowOf(table: HTMLElement, filename: string): HTMLElement {
  const cell = within(table).getByText(filename);
  const found = cell.closest<HTMLElement>('[role="row"]');
  if (!found) throw new Error(`no row for ${filename}`);
  return found;
}

describe('downloads screen', () => {
  it('loads the rows on entry and shows each file with its state and progress', async () => {
    const { fake, table } = await openDownloads();
    // Once at start-up (for the badge) and again on entering the screen, with the counts each time.
    expect(fake.callsTo('downloads:page').filter((request) => request.counted).length).toBeGreaterThanOrEqual(2);
    // The rows first, then the folder filter's choices, once (the core answers one call at a time; over a million
    // jobs its scan of the folders takes a second or more that the rows read after it would wait for). New folders
    // come with the progress events from then on.
    const order = fake.calls.map((call) => call.channel).filter((channel) => channel === 'downloads:page' || channel === 'downloads:folders');
    expect(order.slice(0, 3)).toEqual(['downloads:page', 'downloads:folders', 'downloads:page']);
    expect(fake.callsTo('downloads:folders')).toHaveLength(1);
    within(rowOf(table, A)).getByText('active');
    within(rowOf(table, A)).getByText('50%');
    within(rowOf(table, B)).getByText('queued');
    within(rowOf(table, D)).getByText('The server closed the connection before the file was complete.');
    within(rowOf(table, E)).getByText('done');
    within(screen.getByRole('region', { name: 'Downloads' })).getByText('1 of 5 files');
  });

  it('says in a paused file’s row whether it resumes from what it kept or starts again, and shows only what it kept', async () => {
    const jobs = [
      makeJob(1, A, 'paused', { bytesReceived: 1_291_014, resumeBytes: 1_291_014 }),
      // A KCor-sized file that kept nothing of the 60 % it had received: its server serves no byte ranges.
      makeJob(2, B, 'paused', { bytesReceived: 1_549_216, resumeBytes: 0 }),
      makeJob(3, C, 'paused'),
    ];
    const rendered = await renderApp(new FakeContract({ jobs }));
    await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    const table = await screen.findByRole('table', { name: 'Download queue' });
    within(rowOf(table, A)).getByText('resumes after the 1.2 MB kept');
    within(rowOf(table, A)).getByText('50%');
    within(rowOf(table, A)).getByText('1.2 MB of 2.5 MB');
    within(rowOf(table, B)).getByText('starts again: nothing kept to resume from');
    // Never a percentage that the restart then throws away.
    within(rowOf(table, B)).getByText('0%');
    within(rowOf(table, B)).getByText('2.5 MB listed');
    expect(rowOf(table, B).textContent).not.toMatch(/60%|1\.5 MB of/);
    expect(rowOf(table, C).textContent).not.toMatch(/resumes|starts again/);
    rendered.unmount();
  });

  it('follows progress events that carry only the changed jobs', async () => {
    const { fake, table } = await openDownloads();
    const jobs = queue();
    const done = { ...jobs[0]!, state: 'done' as const, bytesReceived: 2_582_027, speed: 0 };
    const started = { ...jobs[1]!, state: 'active' as const, bytesReceived: 645_507, speed: 1_000_000 };
    fake.progress([done, started]);
    await waitFor(() => within(rowOf(table, A)).getByText('done'));
    within(rowOf(table, B)).getByText('active');
    within(rowOf(table, B)).getByText('25%');
    within(screen.getByRole('contentinfo')).getByText('2 of 5 files');

    // A job the window has not seen yet is added to the list.
    const added = makeJob(6, '20250324_210419_kcor_l2_pb.fts', 'queued');
    fake.progress([added]);
    await waitFor(() => within(table).getByText('20250324_210419_kcor_l2_pb.fts'));
  });

  it('sends the queue controls', async () => {
    const { fake } = await openDownloads();
    await fireEvent.click(screen.getByRole('button', { name: 'Pause all' }));
    await waitFor(() => expect(fake.callsTo('downloads:pause-all')).toHaveLength(1));
    await within(screen.getByRole('region', { name: 'Downloads' })).findByText('Queue paused');
    await fireEvent.click(screen.getByRole('button', { name: 'Resume all' }));
    await waitFor(() => expect(fake.callsTo('downloads:resume-all')).toHaveLength(1));
    await fireEvent.click(screen.getByRole('button', { name: 'Retry failed' }));
    await screen.findByText('Retrying 1 file.');
    const folders = fake.callsTo('downloads:folders').length;
    await fireEvent.click(screen.getByRole('button', { name: 'Clear finished' }));
    await screen.findByText('Cleared 1 finished file from the list.');
    expect(screen.queryByText(E)).toBeNull();
    // Clearing is what can take a folder out of the list: its choices are asked for again.
    await waitFor(() => expect(fake.callsTo('downloads:folders')).toHaveLength(folders + 1));
  });

  it('sends the per-file controls with the job id', async () => {
    const { fake, table } = await openDownloads();
    await fireEvent.click(within(table).getByRole('button', { name: `Pause ${A}` }));
    await fireEvent.click(within(table).getByRole('button', { name: `Resume ${C}` }));
    await fireEvent.click(within(table).getByRole('button', { name: `Retry ${D}` }));
    await fireEvent.click(within(table).getByRole('button', { name: `Cancel ${B}` }));
    await waitFor(() => expect(fake.callsTo('downloads:cancel')).toEqual([{ id: 2 }]));
    expect(fake.callsTo('downloads:pause')).toEqual([{ id: 1 }]);
    expect(fake.callsTo('downloads:resume')).toEqual([{ id: 3 }]);
    expect(fake.callsTo('downloads:retry')).toEqual([{ id: 4 }]);
    await waitFor(() => within(rowOf(table, A)).getByText('paused'));
    within(rowOf(table, B)).getByText('cancelled');
  });

  it('moves a queued file to the front and reloads the order', async () => {
    const { fake, table } = await openDownloads();
    const counted = () => fake.callsTo('downloads:page').filter((request) => request.counted).length;
    const before = counted();
    // The paused C waits behind the queued B; moved to the front, it comes first of what waits (after what moves).
    await fireEvent.click(within(table).getByRole('button', { name: `Move ${C} to the front of the queue` }));
    await waitFor(() => expect(fake.callsTo('downloads:move-to-front')).toEqual([{ id: 3 }]));
    await waitFor(() => expect(counted()).toBe(before + 1));
    const names = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelector('.mono')?.getAttribute('title'));
    expect(names.slice(0, 3)).toEqual([A, C, B]);
  });

  it('opens the folder and shows a finished file when native dialogs exist', async () => {
    const { fake, table } = await openDownloads();
    await fireEvent.click(screen.getByRole('button', { name: 'Open download folder' }));
    await fireEvent.click(within(table).getByRole('button', { name: `Show ${E} in folder` }));
    await waitFor(() => expect(fake.callsTo('shell:show-file')).toEqual([{ id: 5 }]));
    expect(fake.callsTo('shell:open-folder')).toEqual([{}]);
  });

  it('hides the folder buttons where the front end cannot open folders', async () => {
    const { table } = await openDownloads({ appInfo: { canUseNativeDialogs: false, transport: 'web' } });
    expect(screen.queryByRole('button', { name: 'Open download folder' })).toBeNull();
    expect(within(table).queryByRole('button', { name: `Show ${E} in folder` })).toBeNull();
  });

  it('shows why the engine paused the queue, and clears it when the queue resumes', async () => {
    const { fake } = await openDownloads();
    fake.emit('downloads:queue-paused', { kind: 'disk-full', message: 'No space left in /home/ada/mlso: free some space, then resume.' });
    await screen.findByText('No space left in /home/ada/mlso: free some space, then resume.');
    screen.getByText('The queue stopped.');
    fake.emit('downloads:queue-resumed', null);
    await waitFor(() => expect(screen.queryByText('The queue stopped.')).toBeNull());
  });

  it('shows a failed control in the app’s words', async () => {
    const { fake } = await openDownloads();
    fake.fail('downloads:retry-failed', { kind: 'internal', message: 'The download ledger is locked by another instance.' });
    await fireEvent.click(screen.getByRole('button', { name: 'Retry failed' }));
    await screen.findByText('The download ledger is locked by another instance.');
  });

  it('filters the list by state', async () => {
    const { table } = await openDownloads();
    await fireEvent.click(screen.getByRole('radio', { name: /Failed/ }));
    await waitFor(() => expect(within(table).queryByText(A)).toBeNull());
    within(table).getByText(D);
  });

  it('says what to do when the queue is empty', async () => {
    await renderApp();
    await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    await screen.findByText('No downloads yet.');
    await fireEvent.click(screen.getByRole('button', { name: 'Find files' }));
    expect(screen.getByRole('button', { name: 'Browse' }).getAttribute('aria-current')).toBe('page');
  });

  it('keeps a virtualized list for thousands of jobs', async () => {
    const jobs = Array.from({ length: 5000 }, (_, index) => makeJob(index + 1, `20250324_${String(index).padStart(6, '0')}_kcor_l2_pb.fts`, 'queued'));
    const { table } = await openDownloads({ jobs });
    expect(within(table).getAllByRole('row').length).toBeLessThan(60);
  });
});

describe('badge and status bar', () => {
  it('counts active and failed files on the Downloads rail item, live', async () => {
    const { fake } = await renderApp(new FakeContract({ jobs: queue() }));
    const downloads = screen.getByRole('button', { name: 'Downloads' });
    await waitFor(() => expect(downloads.getAttribute('aria-describedby')).toBe('downloads-badge'));
    expect(document.getElementById('downloads-badge')?.textContent).toContain('2 active or queued, 1 failed');
    const jobs = queue().map((job) => (job.state === 'failed' ? { ...job, state: 'done' as const } : job));
    fake.emit('downloads:progress', { jobs: [jobs[3]!], overall: overallOf(jobs) });
    await waitFor(() => expect(document.getElementById('downloads-badge')?.textContent?.trim()).toBe('2 active or queued'));
  });

  it('shows overall progress, speed, ETA and free disk space', async () => {
    await renderApp(new FakeContract({ jobs: queue(), freeSpace: 5 * 1024 ** 3 }));
    const status = screen.getByRole('contentinfo');
    await waitFor(() => within(status).getByText('1 of 5 files'));
    within(status).getByText('1.9 MB/s');
    within(status).getByText(/^\d+ (s|min \d+ s) left$/);
    within(status).getByText('5.0 GB free');
  });
});

describe('the work in progress now', () => {
  /** Five files finished in earlier runs, and a run of three now: one done, one moving, one waiting. */
  function ledgerWithEarlierRuns(): JobView[] {
    const earlier = Array.from({ length: 5 }, (_, index) => makeJob(10 + index, `20250320_18000${index}_kcor_l2_pb.fts`, 'done'));
    return [...earlier, ...queue().slice(0, 2), makeJob(6, '20250324_210419_kcor_l2_pb.fts', 'done')];
  }

  it('counts the current run in the status bar and the Downloads header, not every file the ledger holds', async () => {
    const jobs = ledgerWithEarlierRuns();
    const fake = new FakeContract({ jobs });
    const current = jobs.filter((job) => job.id < 10);
    fake.overall = () => overallOf(jobs, { run: runOf(current, { number: 2 }) });
    await renderApp(fake);
    const status = screen.getByRole('contentinfo');
    await waitFor(() => within(status).getByText('1 of 3 files'));
    within(status).getByText('1.9 MB/s');
    within(status).getByText(/ left$/);
    await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    within(screen.getByRole('region', { name: 'Downloads' })).getByText('1 of 3 files');
  });

  it('says idle with the last run’s result when nothing runs', async () => {
    const jobs = [...queue().slice(3), makeJob(6, '20250324_210419_kcor_l2_pb.fts', 'done')];
    const fake = new FakeContract({ jobs });
    fake.overall = () => overallOf(jobs, { run: runOf(jobs, { number: 3 }) });
    await renderApp(fake);
    const status = screen.getByRole('contentinfo');
    await waitFor(() => within(status).getByText('Idle'));
    within(status).getByText('last run: 2 of 3 files');
    within(status).getByText('1 failed');
    expect(within(status).queryByText(/ left$/)).toBeNull();
  });

  it('says idle, with no figures, before the first run', async () => {
    const jobs = Array.from({ length: 3 }, (_, index) => makeJob(index + 1, `20250320_18000${index}_kcor_l2_pb.fts`, 'done'));
    const fake = new FakeContract({ jobs });
    fake.overall = () => overallOf(jobs, { run: runOf([], { number: 0 }) });
    await renderApp(fake);
    const status = screen.getByRole('contentinfo');
    await waitFor(() => within(status).getByText('Idle'));
    expect(within(status).queryByText(/of \d+ files?/)).toBeNull();
  });

  it('takes the retry note away once the retried file is done, not before', async () => {
    const { fake, table } = await openDownloads();
    await fireEvent.click(screen.getByRole('button', { name: 'Retry failed' }));
    await screen.findByText('Retrying 1 file.');
    const retried = { ...fake.jobs.find((job) => job.id === 4)!, state: 'active' as const, lastError: null };
    fake.jobs = fake.jobs.map((job) => (job.id === 4 ? retried : job));
    fake.emit('downloads:progress', { jobs: [retried], overall: fake.overall() });
    await waitFor(() => within(rowOf(table, D)).getByText('active'));
    screen.getByText('Retrying 1 file.');

    // Every file of the run is finished: the run has ended, and so has the retrying.
    fake.jobs = fake.jobs.map((job) => (job.state === 'active' || job.state === 'queued' ? { ...job, state: 'done' as const } : job));
    fake.emit('downloads:progress', { jobs: fake.jobs, overall: fake.overall() });
    await waitFor(() => expect(screen.queryByText('Retrying 1 file.')).toBeNull());
  });

  it('counts as active only the files moving now; the rest wait in Queued', async () => {
    const jobs = [...queue(), ...Array.from({ length: 6 }, (_, index) => makeJob(20 + index, `20250324_22000${index}_kcor_l2_pb.fts`, 'queued'))];
    const { table } = await openDownloads({ jobs });
    expect(
      screen
        .getByRole('radio', { name: /^Active/ })
        .textContent?.replace(/\s+/g, ' ')
        .trim(),
    ).toBe('Active 1');
    expect(
      screen
        .getByRole('radio', { name: /^Queued/ })
        .textContent?.replace(/\s+/g, ' ')
        .trim(),
    ).toBe('Queued 7');
    await fireEvent.click(screen.getByRole('radio', { name: /^Active/ }));
    await waitFor(() => expect(within(table).queryByText(B)).toBeNull());
    within(table).getByText(A);
  });
});

describe('sizes and names', () => {
  it('labels the three sizes: listed in the results, received and on disk in the queue', async () => {
    const { table } = await openDownloads();
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent?.trim());
    expect(headers).toEqual(expect.arrayContaining(['Received', 'On disk']));
    expect(headers).not.toContain('Size');
    // The finished file: 2.5 MB came over the network, 4.9 MB were written (decompressed).
    within(rowOf(table, E)).getByText('2.5 MB');
    within(rowOf(table, E)).getByText('4.9 MB');
    // A file on its way shows what arrived of what the listing announced.
    within(rowOf(table, A)).getByText('1.2 MB of 2.5 MB');

    await fireEvent.click(screen.getByRole('button', { name: 'Browse' }));
    await fireEvent.change(screen.getByRole('combobox', { name: 'Instrument' }), { target: { value: 'kcor' } });
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Product' }) as HTMLSelectElement).value).toBe('pb'));
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const grid = await screen.findByRole('grid', { name: 'Files found' });
    within(grid).getByRole('columnheader', { name: 'Listed size' });
  });

  it('names the Downloads rail entry by its visible label and gives the counts as its description', async () => {
    await renderApp(new FakeContract({ jobs: queue() }));
    const entry = screen.getByRole('button', { name: 'Downloads' });
    await waitFor(() => expect(entry.getAttribute('aria-describedby')).toBe('downloads-badge'));
    // No aria-label: the name is the label people see, so it can never drift from it (WCAG 2.5.3).
    expect(entry.hasAttribute('aria-label')).toBe(false);
    expect(entry.querySelector('.label')?.textContent).toBe('Downloads');
  });

  it('lets the keyboard reach the queue’s scrolling list', async () => {
    const { table } = await openDownloads();
    expect(table.tabIndex).toBe(0);
  });
});

describe('the work in progress first', () => {
  /** Names in the order the table shows them (the full names, which screen readers and the tooltip give). */
  function shownNames(table: HTMLElement): string[] {
    return within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelector('.name')?.getAttribute('title') ?? '');
  }

  const at = (minute: number): string => new Date(Date.UTC(2025, 2, 24, 22, minute)).toISOString();
  const F = '20250324_210434_kcor_l2_pb.fts';
  const G = '20250324_210449_kcor_l2_pb.fts';

  /** The engine's order (oldest first, as the ledger lists it): old finished files above the work in progress. */
  function ledger(): JobView[] {
    return [
      makeJob(1, A, 'done', { finishedAt: at(1), folder: '/home/ada/mlso' }),
      makeJob(2, B, 'cancelled', { finishedAt: at(5), folder: '/home/ada/mlso' }),
      makeJob(3, C, 'failed', { finishedAt: at(3), lastError: 'The server answered 404: the file is not there.', folder: '/data/eclipse/2025/03' }),
      makeJob(4, D, 'done', { finishedAt: at(9), folder: '/data/eclipse/2025/03', expectedSize: 10 }),
      makeJob(5, E, 'queued', { folder: '/data/eclipse/2025/03' }),
      makeJob(6, F, 'active', { bytesReceived: 1000, folder: '/data/eclipse/2025/03' }),
      makeJob(7, G, 'paused', { folder: '/home/ada/mlso' }),
    ];
  }

  it('shows what moves, then what waits, then what failed, then what finished, newest first', async () => {
    const { table } = await openDownloads({ jobs: ledger() });
    expect(shownNames(table)).toEqual([F, E, G, C, D, B, A]);
  });

  it('moves a file to its place as its state changes, reading again only the rows in view', async () => {
    const { fake, table } = await openDownloads({ jobs: ledger() });
    const jobs = ledger();
    const finished = { ...jobs[5]!, state: 'done' as const, finishedAt: at(30) };
    const started = { ...jobs[4]!, state: 'active' as const };
    const pages = fake.callsTo('downloads:page').length;
    fake.progress([finished, started]);
    await waitFor(() => expect(shownNames(table)).toEqual([E, G, C, F, D, B, A]));
    // One page of the rows in view, without the counts (the tabs count from the event's overall figures).
    const reloads = fake.callsTo('downloads:page').slice(pages);
    expect(reloads).toHaveLength(1);
    expect(reloads[0]).toMatchObject({ offset: 0, counted: false });
    expect(reloads[0]!.limit).toBeLessThanOrEqual(500);
  });

  it('sorts by a column from its header, shows the sort there, reverses it and comes back to the work-first order', async () => {
    const { table } = await openDownloads({ jobs: ledger() });
    const nameHeader = within(table).getByRole('columnheader', { name: /File name/ });
    expect(nameHeader.getAttribute('aria-sort')).toBe('none');
    await fireEvent.click(within(nameHeader).getByRole('button'));
    await waitFor(() => expect(nameHeader.getAttribute('aria-sort')).toBe('ascending'));
    expect(shownNames(table)).toEqual([A, B, C, D, E, F, G]);
    await fireEvent.click(within(nameHeader).getByRole('button'));
    await waitFor(() => expect(nameHeader.getAttribute('aria-sort')).toBe('descending'));
    expect(shownNames(table)).toEqual([G, F, E, D, C, B, A]);

    const sizeHeader = within(table).getByRole('columnheader', { name: /Received/ });
    await fireEvent.click(within(sizeHeader).getByRole('button'));
    await waitFor(() => expect(sizeHeader.getAttribute('aria-sort')).not.toBe('none'));
    expect(nameHeader.getAttribute('aria-sort')).toBe('none');
    expect(shownNames(table).at(sizeHeader.getAttribute('aria-sort') === 'ascending' ? 0 : -1)).toBe(D);

    const finishedHeader = within(table).getByRole('columnheader', { name: /Finished/ });
    await fireEvent.click(within(finishedHeader).getByRole('button'));
    await waitFor(() => expect(finishedHeader.getAttribute('aria-sort')).toBe('descending'));
    expect(shownNames(table).slice(0, 4)).toEqual([D, B, C, A]);

    for (const name of ['State', 'Product', 'Date-obs']) within(within(table).getByRole('columnheader', { name: new RegExp(name) })).getByRole('button');

    // The Order list shows the order and sorts by any column, also those a narrow window hides, and brings back the default.
    const order = screen.getByRole('combobox', { name: 'Order' }) as HTMLSelectElement;
    expect(order.value).toBe('finishedAt:descending');
    await fireEvent.change(order, { target: { value: 'dateObs:ascending' } });
    await waitFor(() =>
      expect(
        within(table)
          .getByRole('columnheader', { name: /Date-obs/ })
          .getAttribute('aria-sort'),
      ).toBe('ascending'),
    );
    await fireEvent.change(order, { target: { value: '' } });
    await waitFor(() => expect(shownNames(table)).toEqual([F, E, G, C, D, B, A]));
    expect(finishedHeader.getAttribute('aria-sort')).toBe('none');
    expect(within(table).getByRole('columnheader', { name: /State/ }).getAttribute('aria-sort')).toBe('other');
  });

  it('keeps a column sort while progress comes in', async () => {
    const { fake, table } = await openDownloads({ jobs: ledger() });
    const nameHeader = within(table).getByRole('columnheader', { name: /File name/ });
    await fireEvent.click(within(nameHeader).getByRole('button'));
    const jobs = ledger();
    const finished = { ...jobs[5]!, state: 'done' as const, finishedAt: at(30) };
    fake.progress([finished]);
    await waitFor(() => within(table).getByRole('button', { name: `Quick look at ${F}` }));
    expect(shownNames(table)).toEqual([A, B, C, D, E, F, G]);
  });

  it('shows a destination by its campaign’s name or its folder’s last two parts, with the full path on hover', async () => {
    const jobs = [makeJob(1, A, 'done', { folder: '/home/ada/observations/Downloads/MLSO' }), makeJob(2, B, 'done', { folder: '/data/eclipse/2025/03/24' })];
    const fake = new FakeContract({ jobs });
    fake.campaigns.seed({ name: 'Eclipse 2025', folder: '/data/eclipse' });
    const { table } = await openDownloads({}, fake);
    within(table).getByRole('columnheader', { name: /Destination/ });
    const own = within(rowOf(table, A)).getByText('Downloads/MLSO');
    expect(own.closest('[title]')?.getAttribute('title')).toBe('/home/ada/observations/Downloads/MLSO');
    const campaign = await within(rowOf(table, B)).findByText('Eclipse 2025');
    expect(campaign.closest('[title]')?.getAttribute('title')).toBe('/data/eclipse/2025/03/24');
  });

  it('splits a file name so that its observation date and time and its product never give way', () => {
    expect(nameParts('20250324_183215_kcor_l2_pb.fts')).toEqual({ stamp: '20250324_183215', middle: '', tail: '_kcor_l2_pb.fts' });
    expect(nameParts('20250324.183215.ucomp.1074.l2.polarization.fts')).toEqual({
      stamp: '20250324.183215',
      middle: '.ucomp.1074.l',
      tail: '2.polarization.fts',
    });
  });

  it('keeps a paused row under the pointer until the pointer leaves the list, then applies the order', async () => {
    const { table } = await openDownloads({ jobs: ledger() });
    expect(shownNames(table)).toEqual([F, E, G, C, D, B, A]);
    // Only the timers are fake: the reload that would move the row comes after a wait the test steps through.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await fireEvent.click(within(rowOf(table, F)).getByRole('button', { name: `Pause ${F}` }));
      await vi.advanceTimersByTimeAsync(HOLD_MS - 100);
      flushSync();
      // Paused, so it belongs after the queued E; it stays first, under the pointer, and E's Pause is not there.
      within(rowOf(table, F)).getByText('paused');
      expect(shownNames(table)).toEqual([F, E, G, C, D, B, A]);
      await fireEvent.pointerLeave(table);
      await vi.advanceTimersByTimeAsync(1_000);
      flushSync();
      expect(shownNames(table)).toEqual([E, F, G, C, D, B, A]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the rows in place while the pointer moves over the list, so a click lands on the file it aimed at', async () => {
    const { fake, table } = await openDownloads({ jobs: ledger() });
    expect(shownNames(table)).toEqual([F, E, G, C, D, B, A]);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await fireEvent.pointerMove(table);
      // F finishes as the pointer nears its row: it is shown done where it stands, not moved down the list.
      fake.progress([{ ...ledger()[5]!, state: 'done' as const, finishedAt: at(30) }]);
      await vi.advanceTimersByTimeAsync(HOLD_MS - 100);
      flushSync();
      within(rowOf(table, F)).getByRole('button', { name: `Quick look at ${F}` });
      expect(shownNames(table)).toEqual([F, E, G, C, D, B, A]);
      // Moving on keeps the hold; a moment of stillness then applies the order.
      await fireEvent.pointerMove(table);
      await vi.advanceTimersByTimeAsync(HOLD_MS - 100);
      flushSync();
      expect(shownNames(table)[0]).toBe(F);
      await vi.advanceTimersByTimeAsync(1_100);
      flushSync();
      await vi.waitFor(() => expect(shownNames(table)[0]).not.toBe(F));
    } finally {
      vi.useRealTimers();
    }
  });

  it('applies the order once a moment passes after a row’s control, even with the pointer still on the list', async () => {
    const { table } = await openDownloads({ jobs: ledger() });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await fireEvent.click(within(rowOf(table, F)).getByRole('button', { name: `Pause ${F}` }));
      await vi.advanceTimersByTimeAsync(HOLD_MS - 100);
      flushSync();
      expect(shownNames(table)[0]).toBe(F);
      await vi.advanceTimersByTimeAsync(1_100);
      flushSync();
      expect(shownNames(table)).toEqual([E, F, G, C, D, B, A]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts a cancelled file in its own tab, not as done, and the tabs add up to All', async () => {
    const { table } = await openDownloads({ jobs: ledger() });
    const tabs = screen.getByRole('radiogroup', { name: 'Show' });
    const countOf = (name: string): number =>
      Number(
        within(tabs)
          .getByRole('radio', { name: new RegExp(`^${name}\\b`) })
          .querySelector('.count')?.textContent,
      );
    expect(countOf('Done')).toBe(2);
    expect(countOf('Cancelled')).toBe(1);
    const states = ['Active', 'Queued', 'Paused', 'Failed', 'Done', 'Cancelled'];
    expect(states.reduce((sum, name) => sum + countOf(name), 0)).toBe(countOf('All'));
    await fireEvent.click(within(tabs).getByRole('radio', { name: /^Done\b/ }));
    await waitFor(() => expect(shownNames(table)).toEqual([D, A]));
    await fireEvent.click(within(tabs).getByRole('radio', { name: /^Cancelled\b/ }));
    await waitFor(() => expect(shownNames(table)).toEqual([B]));
  });

  it('filters by folder and by campaign, and the tabs count what the filter keeps', async () => {
    const { fake, table } = await openDownloads({ jobs: ledger() });
    const where = screen.getByRole('combobox', { name: 'Folder' });
    const options = within(where)
      .getAllByRole('option')
      .map((option) => option.textContent?.trim());
    expect(options).toEqual(expect.arrayContaining(['All folders', '/data/eclipse/2025/03', '/home/ada/mlso']));
    await fireEvent.change(where, { target: { value: 'folder:/home/ada/mlso' } });
    await waitFor(() => expect(shownNames(table)).toEqual([G, B, A]));
    const tab = (name: string) =>
      screen
        .getByRole('radio', { name: new RegExp(`^${name}`) })
        .textContent?.replace(/\s+/g, ' ')
        .trim();
    expect([tab('All'), tab('Active'), tab('Paused'), tab('Done'), tab('Cancelled')]).toEqual(['All 3', 'Active 0', 'Paused 1', 'Done 1', 'Cancelled 1']);

    // Progress keeps the filtered counts: the paused file of this folder is queued again.
    const jobs = ledger();
    const resumed = { ...jobs[6]!, state: 'queued' as const };
    fake.progress([resumed]);
    await waitFor(() => expect(tab('Paused')).toBe('Paused 0'));
    expect(tab('Queued')).toBe('Queued 1');

    await fireEvent.change(where, { target: { value: '' } });
    await waitFor(() => expect(shownNames(table)).toHaveLength(7));
    expect(tab('All')).toBe('All 7');
  });

  it('lists the campaigns’ folders in the filter and keeps the files under a campaign’s folder', async () => {
    const fake = new FakeContract({ jobs: ledger() });
    fake.campaigns.seed({ name: 'Eclipse 2025', folder: '/data/eclipse' });
    const { table } = await openDownloads({}, fake);
    const where = screen.getByRole('combobox', { name: 'Folder' });
    const campaign = within(where).getByRole('option', { name: /Eclipse 2025/ }) as HTMLOptionElement;
    await fireEvent.change(where, { target: { value: campaign.value } });
    await waitFor(() => expect(shownNames(table)).toEqual([F, E, C, D]));
  });

  it('holds a few pages of a 100,000-file queue and applies progress to the rows loaded, at a cost that follows them', async () => {
    const count = 100_000;
    const jobs = Array.from({ length: count }, (_, index) =>
      makeJob(index + 1, `20250324_${String(index).padStart(6, '0')}_kcor_l2_pb.fts`, index % 3 === 0 ? 'done' : 'queued'),
    );
    const fake = new FakeContract({ jobs });
    const store = new DownloadsStore(apiClientFrom(fake));
    let started = performance.now();
    await store.refresh();
    const loadMs = performance.now() - started;
    expect(store.rowCount).toBe(count);
    // Scrolling through the list asks for the pages in view, never the whole list, and keeps a bounded number of them.
    for (const first of [0, 30_000, 66_640, 99_960, 12_345, 50_000, 80_000, 0]) {
      store.showRows(first, first + 39);
      await waitFor(() => expect(store.rowAt(first + 39)).toBeDefined());
    }
    expect(store.rowAt(66_666)?.state).toBe('done');
    expect(fake.callsTo('downloads:page').every((request) => request.limit <= 500)).toBe(true);
    expect(store.heldRows).toBeLessThanOrEqual(2_400);
    // Ten updates of ten files each, bytes for files in view: replaced in place, nothing asked for again.
    const pages = fake.callsTo('downloads:page').length;
    const times: number[] = [];
    for (let round = 0; round < 10; round++) {
      const changed = Array.from({ length: 10 }, (_, index) => ({ ...store.rowAt(index)!, bytesReceived: (round + 1) * 1000 }));
      const overall = fake.overall();
      started = performance.now();
      store.apply({ jobs: changed, overall });
      times.push(performance.now() - started);
    }
    const updateMs = times.sort((a, b) => a - b)[5]!;
    console.log(`100,000 rows: first page loaded in ${loadMs.toFixed(1)} ms; a 10-file progress update applied in ${updateMs.toFixed(2)} ms (median of 10)`);
    expect(store.rowAt(3)?.bytesReceived).toBe(10_000);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fake.callsTo('downloads:page')).toHaveLength(pages);
    // Files that end move in the order: the rows in view are read again, once for a burst of events.
    for (let round = 0; round < 5; round++) fake.progress([{ ...store.rowAt(round)!, state: 'done', finishedAt: at(40 + round) }]);
    await waitFor(() => expect(store.rowAt(0)?.id).not.toBe(jobs[1]!.id));
    expect(fake.callsTo('downloads:page').length - pages).toBeLessThanOrEqual(2);
    // An update costs a small part of loading a page (which sorted the whole list, in the fake).
    expect(updateMs).toBeLessThan(loadMs / 4);
  });
});

describe('a 100,000-file queue on screen', () => {
  it('shows a progress event without measuring every row again', async () => {
    const count = 100_000;
    const jobs = Array.from({ length: count }, (_, index) =>
      makeJob(index + 1, `20250324_${String(index).padStart(6, '0')}_kcor_l2_pb.fts`, index % 3 === 0 ? 'done' : 'queued'),
    );
    const fake = new FakeContract({ jobs });
    await renderApp(fake);
    await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    const table = await screen.findByRole('table', { name: 'Download queue' });
    await within(table).findByText(jobs[1]!.filename);
    // Ten files start: they move to the top, and the rows in view are read again (once, a moment later).
    const moving = jobs.slice(1, 11).map((job) => ({ ...job, state: 'active' as const }));
    fake.progress(moving);
    await new Promise((resolve) => setTimeout(resolve, 500));
    flushSync();
    // Bytes arriving for the files in flight: nothing moves, so nothing is measured (or read) again.
    const measures = vi.spyOn(SparseRows.prototype, 'remeasure');
    const pages = fake.callsTo('downloads:page').length;
    const overall = fake.overall();
    const times: number[] = [];
    for (let round = 1; round <= 10; round++) {
      const started = performance.now();
      fake.emit('downloads:progress', { jobs: moving.map((job) => ({ ...job, bytesReceived: round * 1000 })), overall });
      flushSync();
      times.push(performance.now() - started);
    }
    expect(measures).not.toHaveBeenCalled();
    // And one file that fails: its reason takes a second line, so the rows are measured again, once.
    fake.emit('downloads:progress', { jobs: [{ ...moving[0]!, state: 'failed', lastError: 'The server said no.' }], overall });
    flushSync();
    expect(measures).toHaveBeenCalledTimes(1);
    measures.mockRestore();
    const updateMs = times.sort((a, b) => a - b)[5]!;
    console.log(`100,000 rows on screen: a progress event in ${updateMs.toFixed(1)} ms (median of 10)`);
    within(table).getByText(moving[1]!.filename);
    await within(table).findByText('The server said no.');
    // The bytes asked for nothing; the failure (it moves to the failed group) for one read of the rows in view, which
    // waits while the last read's cost (the fake sorts 100,000 jobs for it) says the core is busy.
    await waitFor(() => expect(fake.callsTo('downloads:page').length).toBe(pages + 1), { timeout: 15_000 });
  });
});

describe('columns that fit', () => {
  const UCOMP = '20250324.183213.ucomp.1074.l2.fts';

  it('shortens a long file name in the middle: the date and the wave region and product both stay', async () => {
    const { table } = await openDownloads({ jobs: [makeJob(1, UCOMP, 'queued')] });
    const cell = rowOf(table, UCOMP).querySelector<HTMLElement>('.name')!;
    expect(cell.getAttribute('title')).toBe(UCOMP);
    const [stamp, middle, tail] = ['.stamp', '.middle', '.tail'].map((part) => cell.querySelector(part)!.textContent);
    // The middle gives way (CSS ellipsis at its end); the date and time and the tail (wave region, level, extension) stay.
    expect(stamp).toBe('20250324.183213');
    expect(tail).toContain('1074.l2.fts');
    expect(`${stamp}${middle}${tail}`).toBe(UCOMP);
  });

  it('shows a failure reason in the row, on a line of its own, not only in a tooltip', async () => {
    const reason = 'The server closed the connection before the file was complete.';
    const { table } = await openDownloads();
    const note = within(rowOf(table, D)).getByText(reason);
    expect(note.classList.contains('detail')).toBe(true);
    expect(rowOf(table, D).classList.contains('two-lines')).toBe(true);
    expect(rowOf(table, B).classList.contains('two-lines')).toBe(false);
  });

  it('places rows of two lines below one another without overlap', async () => {
    const { table } = await openDownloads();
    const rows = within(table).getAllByRole('row').slice(1);
    const tops = rows.map((row) => Number(/translateY\((\d+)px\)/.exec(row.style.transform)?.[1]));
    expect(rows.filter((row) => row.classList.contains('two-lines')).length).toBeGreaterThan(0);
    const heights = rows.map((row) => (row.classList.contains('two-lines') ? 48 : 32));
    for (let index = 1; index < rows.length; index++) expect(tops[index]).toBe(tops[index - 1]! + heights[index - 1]!);
  });
});
