// Browse into campaigns: "Save as campaign" takes the search on screen (the query of the listing shown, not what the
// fields hold since) into the New form or, once campaigns exist, adds it to one of them if the user picks that.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { FakeContract, KCOR_PB_DAY } from './fake-contract';
import { renderApp } from './render-app';

async function searchKcorPb(fake: FakeContract): Promise<void> {
  await renderApp(fake);
  await fireEvent.change(screen.getByRole('combobox', { name: 'Instrument' }), { target: { value: 'kcor' } });
  await waitFor(() => expect((screen.getByRole('combobox', { name: 'Product' }) as HTMLSelectElement).value).toBe('pb'));
  await waitFor(() => expect(screen.queryByText(/Loading the product/)).toBeNull());
  await fireEvent.input(screen.getByRole('textbox', { name: 'Start date' }), { target: { value: '2025-03-24' } });
  await fireEvent.input(screen.getByRole('textbox', { name: 'End date' }), { target: { value: '2025-03-25' } });
  await fireEvent.input(screen.getByRole('textbox', { name: 'Every' }), { target: { value: '2hours' } });
  await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  await screen.findByRole('grid', { name: 'Files found' });
}

describe('save a search as a campaign', () => {
  it('opens the New form on the Campaigns screen with the search as its query, and creates the campaign', async () => {
    const fake = new FakeContract();
    await searchKcorPb(fake);
    // A field changed after the search does not count: the campaign takes the search whose files are shown.
    await fireEvent.input(screen.getByRole('textbox', { name: 'Every' }), { target: { value: '1day' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save as campaign' }));

    const form = await screen.findByRole('region', { name: 'New campaign' });
    expect(screen.queryByRole('region', { name: 'Browse' })).toBeNull();
    screen.getByRole('region', { name: 'Campaigns' });
    expect(document.activeElement).toBe(within(form).getByRole('textbox', { name: 'Name' }));
    within(form).getByText('kcor pb');
    within(form).getByText('2025-03-24 – 2025-03-25 UT · Every 2hours');
    await fireEvent.input(within(form).getByRole('textbox', { name: 'Name' }), { target: { value: '2024 eclipse' } });
    await fireEvent.input(within(form).getByRole('textbox', { name: 'Folder layout' }), { target: { value: '{instrument}/{yyyy}/{mm}/{dd}' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Create campaign' }));

    const card = await screen.findByRole('listitem', { name: '2024 eclipse' });
    expect(fake.callsTo('campaigns:create')).toEqual([
      { name: '2024 eclipse', layout: '{instrument}/{yyyy}/{mm}/{dd}', queries: [KCOR_PB_DAY], autoSyncHours: null },
    ]);
    within(card).getByText('/home/ada/mlso/2024-eclipse');
    expect(screen.queryByRole('region', { name: 'New campaign' })).toBeNull();
  });

  it('adds the search to an existing campaign, once', async () => {
    const fake = new FakeContract();
    fake.campaigns.seed({ name: 'Eclipse', queries: [{ instrument: 'ucomp', product: 'l2', filters: { 'start-date': '2025-03-24' } }] });
    await searchKcorPb(fake);
    const save = screen.getByRole('button', { name: 'Save as campaign' });
    expect(save.getAttribute('aria-expanded')).toBe('false');
    await fireEvent.click(save);
    const choices = screen.getByRole('group', { name: 'Save the search as' });
    expect(document.activeElement).toBe(within(choices).getByRole('button', { name: 'New campaign…' }));
    const existing = within(choices).getByRole('list', { name: 'Add to a campaign' });
    await fireEvent.click(within(existing).getByRole('button', { name: 'Eclipse' }));
    await screen.findByText('Added the search to "Eclipse". Sync it to fetch the new files.');
    expect(fake.callsTo('campaigns:update')).toEqual([
      { name: 'Eclipse', change: { queries: [{ instrument: 'ucomp', product: 'l2', filters: { 'start-date': '2025-03-24' } }, KCOR_PB_DAY] } },
    ]);
    expect(screen.queryByRole('group', { name: 'Save the search as' })).toBeNull();

    await fireEvent.click(save);
    await fireEvent.click(within(screen.getByRole('group', { name: 'Save the search as' })).getByRole('button', { name: 'Eclipse' }));
    await screen.findByText('"Eclipse" already holds this search.');
    expect(fake.callsTo('campaigns:update')).toHaveLength(1);

    await fireEvent.click(screen.getByRole('button', { name: 'View campaigns' }));
    const card = await screen.findByRole('listitem', { name: 'Eclipse' });
    within(card).getByText('2025-03-24 – 2025-03-25 UT · Every 2hours');
  });

  it('offers a new campaign beside the existing ones, and Escape closes the choice', async () => {
    const fake = new FakeContract();
    fake.campaigns.seed({ name: 'Eclipse' });
    await searchKcorPb(fake);
    const save = screen.getByRole('button', { name: 'Save as campaign' });
    await fireEvent.click(save);
    await fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Save the search as' })).toBeNull();
    await fireEvent.click(save);
    await fireEvent.click(screen.getByRole('button', { name: 'New campaign…' }));
    const form = await screen.findByRole('region', { name: 'New campaign' });
    within(form).getByText('2025-03-24 – 2025-03-25 UT · Every 2hours');
    expect(fake.callsTo('campaigns:update')).toEqual([]);
  });

  it('offers no campaign action before a search', async () => {
    await renderApp();
    expect(screen.queryByRole('button', { name: 'Save as campaign' })).toBeNull();
  });
});
