// What the app says is so (issue 29, item 9): a verify while files are still queued says how many are on disk and
// intact and how many are still to download, not "All good" in green; files copied or linked from another folder are
// called reused, with the folder, on the campaign card's last sync and its table, and in the Downloads row (not
// "Received 0 B" as if downloaded).
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/svelte';
import { DEMO_EMAIL, FakeContract, makeJob } from './fake-contract';
import { renderApp } from './render-app';

const SIGNED_IN = { signedIn: true, email: DEMO_EMAIL, expiresAt: Date.now() + 86_400_000 };

async function openCampaigns(fake: FakeContract) {
  await renderApp(fake);
  await fireEvent.click(screen.getByRole('button', { name: 'Campaigns' }));
  await screen.findByRole('heading', { level: 1, name: 'Campaigns' });
}

const card = (name: string): HTMLElement => screen.getByRole('listitem', { name });

describe('what a campaign says is so', () => {
  it('says a verify while files are still queued found those on disk intact and the rest still to download, not all good', async () => {
    const fake = new FakeContract();
    fake.campaigns.seed({ name: 'Eclipse', lastSyncAt: '2025-03-25T10:00:00.000Z', files: { onDisk: 4, queued: 5 } });
    await openCampaigns(fake);
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Verify' }));
    const report = await within(card('Eclipse')).findByRole('group', { name: 'Verify report' });
    within(report).getByText('4 of 9 on disk and intact; 5 still to download');
    expect(within(report).queryByText(/All good/)).toBeNull();
    // Not the all-good green: the files are not all there yet.
    expect(report.classList.contains('incomplete')).toBe(true);
  });

  it('still says all good when every file of the set is on disk as downloaded', async () => {
    const fake = new FakeContract();
    fake.campaigns.seed({ name: 'Eclipse', lastSyncAt: '2025-03-25T10:00:00.000Z', files: { onDisk: 9 } });
    await openCampaigns(fake);
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Verify' }));
    const report = await within(card('Eclipse')).findByRole('group', { name: 'Verify report' });
    within(report).getByText('All good: 9 files on disk, each as downloaded');
    expect(report.classList.contains('incomplete')).toBe(false);
  });

  it('names the files the archive no longer lists apart, in grey, on the card and in the Verify report', async () => {
    const fake = new FakeContract();
    fake.campaigns.seed({ name: 'Gone', lastSyncAt: '2025-03-25T10:00:00.000Z', files: { onDisk: 8, noLongerListed: 1 } });
    await openCampaigns(fake);
    const figure = within(card('Gone')).getByText('1 no longer listed');
    expect(figure.classList.contains('quiet')).toBe(true);
    await fireEvent.click(within(card('Gone')).getByRole('button', { name: 'Verify' }));
    const report = await within(card('Gone')).findByRole('group', { name: 'Verify report' });
    within(report).getByText('All good: 8 files on disk, each as downloaded; 1 no longer listed by the archive');
  });

  it('calls files a sync took from another folder reused, with the folder, in its summary and its table', async () => {
    const fake = new FakeContract({ session: SIGNED_IN, listingSize: 12 });
    fake.campaigns.seed({ name: 'Mirror', files: {} });
    fake.campaigns.reuseFrom = '/data/kcor';
    await openCampaigns(fake);
    await fireEvent.click(within(card('Mirror')).getByRole('button', { name: 'Sync' }));
    const summary = await within(card('Mirror')).findByText('Last sync: 0 downloaded, 12 reused from /data/kcor, 0 already there, 0 failed');
    await fireEvent.click(summary);
    const table = within(card('Mirror')).getByRole('table');
    const headings = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent?.trim());
    expect(headings).toContain('Reused');
    const total = within(table)
      .getByRole('rowheader', { name: /^Total/ })
      .closest('tr')!;
    const cells = [...total.querySelectorAll('td')].map((cell) => cell.textContent?.trim());
    // Listed, New, Downloaded, Reused, Already there, Queued, Failed, Missing.
    expect(cells).toEqual(['12', '12', '0', '12', '0', '0', '0', '0']);
  });
});

describe('a reused file in Downloads', () => {
  it('says it was reused and from where, not "0 B" received', async () => {
    const reused = makeJob(1, '20250324_210304_kcor_l2_pb.fts', 'done', { bytesReceived: 0, bytesWritten: 6_000_000, reusedFrom: '/data/kcor' });
    const fetched = makeJob(2, '20250324_210319_kcor_l2_pb.fts', 'done');
    await renderApp(new FakeContract({ jobs: [reused, fetched] }));
    await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    const table = await screen.findByRole('table', { name: 'Download queue' });
    const rowOf = (filename: string): HTMLElement => within(table).getByText(filename).closest<HTMLElement>('[role="row"]')!;
    const cells = (row: HTMLElement): string[] =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent?.trim() ?? '');
    within(rowOf(reused.filename)).getByText('reused from /data/kcor');
    expect(cells(rowOf(reused.filename))).toContain('reused');
    expect(cells(rowOf(reused.filename))).not.toContain('0 B');
    expect(rowOf(fetched.filename).textContent).not.toMatch(/reused/);
  });
});
