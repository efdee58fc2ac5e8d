// Downloads: the queue from a snapshot, live progress events, the queue and per-file controls, the engine's
// pause reason, and the rail's badge.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import type { JobView } from '../../src-shared/downloads/progress-types';
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

async function openDownloads(options: FakeOptions = {}) {
  const rendered = await renderApp(new FakeContract({ jobs: queue(), ...options }));
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
  it('loads a snapshot on entry and shows each file with its state and progress', async () => {
    const { fake, table } = await openDownloads();
    // Once at start-up (for the badge) and again on entering the screen.
    expect(fake.callsTo('downloads:snapshot').length).toBeGreaterThanOrEqual(2);
    within(rowOf(table, A)).getByText('active');
    within(rowOf(table, A)).getByText('50%');
    within(rowOf(table, B)).getByText('queued');
    within(rowOf(table, D)).getByText('The server closed the connection before the file was complete.');
    within(rowOf(table, E)).getByText('done');
    within(screen.getByRole('region', { name: 'Downloads' })).getByText('1 of 5 files');
  });

  it('says in a paused file’s row whether it resumes from what it kept or starts again', async () => {
    const jobs = [
      makeJob(1, A, 'paused', { bytesReceived: 1_291_014, resumeBytes: 1_291_014 }),
      makeJob(2, B, 'paused', { bytesReceived: 645_507, resumeBytes: 0 }),
      makeJob(3, C, 'paused'),
    ];
    const rendered = await renderApp(new FakeContract({ jobs }));
    await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    const table = await screen.findByRole('table', { name: 'Download queue' });
    within(rowOf(table, A)).getByText('resumes after the 1.2 MB kept');
    within(rowOf(table, B)).getByText('starts again: nothing kept to resume from');
    expect(rowOf(table, C).textContent).not.toMatch(/resumes|starts again/);
    rendered.unmount();
  });

  it('follows progress events that carry only the changed jobs', async () => {
    const { fake, table } = await openDownloads();
    const jobs = queue();
    const done = { ...jobs[0]!, state: 'done' as const, bytesReceived: 2_582_027, speed: 0 };
    const started = { ...jobs[1]!, state: 'active' as const, bytesReceived: 645_507, speed: 1_000_000 };
    fake.emit('downloads:progress', { jobs: [done, started], overall: overallOf([done, started, jobs[2]!, jobs[3]!, jobs[4]!]) });
    await waitFor(() => within(rowOf(table, A)).getByText('done'));
    within(rowOf(table, B)).getByText('active');
    within(rowOf(table, B)).getByText('25%');
    within(screen.getByRole('contentinfo')).getByText('2 of 5 files');

    // A job the window has not seen yet is added to the list.
    const added = makeJob(6, '20250324_210419_kcor_l2_pb.fts', 'queued');
    fake.emit('downloads:progress', { jobs: [added], overall: overallOf([done, started, jobs[2]!, jobs[3]!, jobs[4]!, added]) });
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
    await fireEvent.click(screen.getByRole('button', { name: 'Clear finished' }));
    await screen.findByText('Cleared 1 finished file from the list.');
    expect(screen.queryByText(E)).toBeNull();
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
    const before = fake.callsTo('downloads:snapshot').length;
    await fireEvent.click(within(table).getByRole('button', { name: `Move ${B} to the front of the queue` }));
    await waitFor(() => expect(fake.callsTo('downloads:move-to-front')).toEqual([{ id: 2 }]));
    await waitFor(() => expect(fake.callsTo('downloads:snapshot').length).toBe(before + 1));
    const names = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelector('.mono')?.textContent);
    expect(names[0]).toBe(B);
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
