// One truth per campaign on the Campaigns screen (issue 21, item 4): a campaign never synced is "not yet synced"
// (grey), not "missing" (red); the last sync's summary says what it downloaded, found already there and failed (and
// what is still queued while files move); the Verify report shows the card's own figures, and the card keeps
// showing what verify found.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { DEMO_EMAIL, FakeContract } from './fake-contract';
import { renderApp } from './render-app';

const SIGNED_IN = { signedIn: true, email: DEMO_EMAIL, expiresAt: Date.now() + 86_400_000 };

async function openCampaigns(fake: FakeContract) {
  await renderApp(fake);
  await fireEvent.click(screen.getByRole('button', { name: 'Campaigns' }));
  await screen.findByRole('heading', { level: 1, name: 'Campaigns' });
}

const card = (name: string): HTMLElement => screen.getByRole('listitem', { name });

/** The figures of the card's counts line, as read. */
const figuresOf = (list: HTMLElement): string[] =>
  within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent?.trim() ?? '');
const cardFigures = (name: string): string[] => figuresOf(within(card(name)).getByRole('list', { name: 'File counts' }));

describe('one truth per campaign', () => {
  it('says a campaign never synced is not yet synced, in grey, not missing', async () => {
    const fake = new FakeContract();
    fake.campaigns.seed({ name: 'Imported', files: { missing: 24 } });
    await openCampaigns(fake);
    const figure = within(card('Imported')).getByText('24 not yet synced');
    expect(figure.classList.contains('alert')).toBe(false);
    expect(within(card('Imported')).queryByText(/missing/)).toBeNull();
  });

  it("sums up the last sync as downloaded, already there and failed, with what is still queued while files move, as the card's counts", async () => {
    const fake = new FakeContract({ session: SIGNED_IN, listingSize: 12 });
    fake.campaigns.seed({ name: 'Eclipse', files: {} });
    await openCampaigns(fake);
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Sync' }));
    await within(card('Eclipse')).findByText('Last sync: 0 downloaded, 0 already there, 0 failed, 12 queued');
    fake.campaigns.arrive('Eclipse', 5);
    await within(card('Eclipse')).findByText('Last sync: 5 downloaded, 0 already there, 0 failed, 7 queued');
    fake.campaigns.arrive('Eclipse');
    await within(card('Eclipse')).findByText('Last sync: 12 downloaded, 0 already there, 0 failed');
    expect(cardFigures('Eclipse')).toEqual(['12 on disk', '0 missing', '0 failed']);

    // A second sync finds them all already there.
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Sync' }));
    await within(card('Eclipse')).findByText('Last sync: 0 downloaded, 12 already there, 0 failed');
  });

  it('shows in the Verify report the figures the card shows, and the card keeps them', async () => {
    const fake = new FakeContract();
    fake.campaigns.seed({ name: 'Eclipse', layout: '{instrument}', lastSyncAt: '2025-03-25T10:00:00.000Z', files: { onDisk: 185, failed: 1 } });
    await openCampaigns(fake);
    expect(cardFigures('Eclipse')).toEqual(['185 on disk', '0 missing', '1 failed']);
    fake.campaigns.verifyProblems = [
      { path: 'kcor/20250324_180000_kcor_l2_pb.fts', problem: 'missing' },
      { path: 'kcor/20250324_180001_kcor_l2_pb.fts', problem: 'changed' },
      { path: 'kcor/20250324_180185_kcor_l2_pb.fts', problem: 'failed' },
    ];
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Verify' }));
    const report = await within(card('Eclipse')).findByRole('group', { name: 'Verify report' });
    const reportFigures = figuresOf(within(report).getByRole('list', { name: 'Verify counts' }));
    expect(reportFigures).toEqual(['183 on disk', '1 changed on disk', '1 missing', '1 failed']);
    await waitFor(() => expect(cardFigures('Eclipse')).toEqual(reportFigures));
  });
});
