// The Campaigns screen at a million files (issue 22 item 3): the list comes at once with the counts each campaign had
// when last counted, marked as being counted again, or "Counting files…" for one never counted; the fresh counts
// replace them when `campaigns:changed` brings them.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/svelte';
import type { CampaignOverview } from '../../src-shared/campaigns/campaign-types';
import { FakeContract } from './fake-contract';
import { renderApp } from './render-app';

/** The fake's campaigns as the core's list answers before counting: `counts` as remembered, or none yet. */
function answeredAtOnce(fake: FakeContract, remembered: Record<string, Partial<CampaignOverview['counts']> | null>): CampaignOverview[] {
  return fake.campaigns.list().map((campaign) => {
    const counts = remembered[campaign.name];
    return counts === null
      ? { ...campaign, countsAre: 'uncounted', counts: { ...campaign.counts, files: 0, onDisk: 0, queued: 0, failed: 0, missing: 0, notSynced: 0 } }
      : { ...campaign, countsAre: 'remembered', counts: { ...campaign.counts, ...counts } };
  });
}

describe("the campaign list's counts", () => {
  it('show the remembered counts as being counted again, "Counting files…" for a campaign never counted, then the fresh counts', async () => {
    const fake = new FakeContract();
    const lastSyncAt = new Date(Date.now() - 60_000).toISOString();
    fake.campaigns.seed({ name: 'KCor mirror', lastSyncAt, files: { onDisk: 9, queued: 1 } });
    fake.campaigns.seed({ name: 'Imported', lastSyncAt, files: { onDisk: 4 } });
    const fresh = fake.campaigns.list();
    fake.handle('campaigns:list', () => answeredAtOnce(fake, { 'KCor mirror': { onDisk: 7, queued: 3 }, Imported: null }));
    await renderApp(fake);
    await fireEvent.click(screen.getByRole('button', { name: 'Campaigns' }));

    const mirror = await screen.findByRole('listitem', { name: 'KCor mirror' });
    within(mirror).getByText('7 on disk');
    within(mirror).getByText('3 queued');
    within(mirror).getByText('· counting…');
    const imported = screen.getByRole('listitem', { name: 'Imported' });
    within(imported).getByText('Counting files…');
    expect(within(imported).queryByText(/on disk/)).toBeNull();

    fake.emit('campaigns:changed', fresh);
    await within(mirror).findByText('9 on disk');
    within(mirror).getByText('1 queued');
    expect(within(mirror).queryByText('· counting…')).toBeNull();
    within(imported).getByText('4 on disk');
    expect(within(imported).queryByText('Counting files…')).toBeNull();
  });
});
