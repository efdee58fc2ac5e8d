// What a link from the web or a campaign file opened from the desktop does in the window (the core checked it and
// sent app:open-request): Browse filled with the saved search, or the import form opened with the file; nothing is
// listed, downloaded or imported until the user presses the button. And the Settings switches for notices and updates.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { renderApp } from './render-app';

function field(name: string): HTMLInputElement | HTMLSelectElement {
  return screen.getByLabelText(name, { selector: 'input, select' }) as HTMLInputElement | HTMLSelectElement;
}

describe('a link or a file handed to the window', () => {
  it('fills Browse with the search, and lists nothing until Search', async () => {
    const { fake } = await renderApp();
    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    fake.emit('app:open-request', {
      kind: 'search',
      query: { instrument: 'ucomp', product: 'l2', filters: { 'start-date': '2025-03-20', every: '2hours', 'wave-region': '1074' } },
    });
    const browse = await screen.findByRole('region', { name: 'Browse' });
    await waitFor(() => expect((within(browse).getByRole('combobox', { name: 'Product' }) as HTMLSelectElement).value).toBe('l2'));
    expect((within(browse).getByRole('combobox', { name: 'Instrument' }) as HTMLSelectElement).value).toBe('ucomp');
    await waitFor(() => expect(field('Wave region').value).toBe('1074'));
    expect(field('Start date').value).toBe('2025-03-20');
    expect(field('Every').value).toBe('2hours');
    expect(field('End date').value).toBe('');
    expect(fake.callsTo('search:start')).toEqual([]);
    expect(fake.callsTo('downloads:enqueue')).toEqual([]);
  });

  it('opens the import form with the file, and imports it only on Import', async () => {
    const { fake } = await renderApp();
    const text = JSON.stringify({
      name: 'Shared eclipse',
      layout: '',
      queries: [{ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24' } }],
    });
    fake.emit('app:open-request', { kind: 'import', source: 'https://mlso.hao.ucar.edu/c/eclipse.mlso-campaign.json', text });
    const form = await screen.findByRole('region', { name: 'Import campaign' });
    expect((within(form).getByLabelText('Campaign file') as HTMLInputElement).value).toBe('https://mlso.hao.ucar.edu/c/eclipse.mlso-campaign.json');
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByLabelText('Folder')));
    expect(fake.callsTo('campaigns:import')).toEqual([]);
    await fireEvent.click(within(form).getByRole('button', { name: 'Import' }));
    await screen.findByRole('listitem', { name: 'Shared eclipse' });
    expect(fake.callsTo('campaigns:import')).toEqual([{ text }]);
  });
});

describe('the Settings switches of the desktop', () => {
  it('turns notifications off, and offers updates in the desktop app', async () => {
    const { fake } = await renderApp();
    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const notify = (await screen.findByRole('checkbox', { name: 'Notifications Notify when downloads or a campaign sync end' })) as HTMLInputElement;
    const updates = screen.getByRole('checkbox', { name: 'Updates Keep the app up to date' }) as HTMLInputElement;
    expect([notify.checked, updates.checked]).toEqual([true, true]);
    await fireEvent.click(notify);
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(fake.callsTo('settings:update')).toEqual([{ notifyWhenDone: false }]);
  });
});
