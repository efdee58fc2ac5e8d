// Settings: the form shows the saved values, saves only what changed with settings:update, and shows the main
// side's validation message as it is.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/svelte';
import { renderApp } from './render-app';
import type { FakeOptions } from './fake-contract';
import { SETTING_DEFINITIONS, WHOLE_NUMBER_SETTINGS } from '../../src-shared/settings/setting-definitions';

async function openSettings(options: FakeOptions = {}) {
  const rendered = await renderApp(options);
  await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
  const folder = (await screen.findByRole('textbox', { name: 'Download folder' })) as HTMLInputElement;
  return { ...rendered, folder };
}

function spin(name: string): HTMLInputElement {
  return screen.getByRole('spinbutton', { name }) as HTMLInputElement;
}

/** The text of the error message a field points to (aria-describedby), or null when none. */
function messageUnder(field: HTMLElement): string | null {
  const id = (field.getAttribute('aria-describedby') ?? '').split(' ').find((candidate) => candidate.endsWith('-error'));
  return id ? (document.getElementById(id)?.textContent?.trim() ?? null) : null;
}

describe('settings', () => {
  it('bounds every number field, and words its hint, by the table the main side checks it by', async () => {
    await openSettings();
    const fields: Record<(typeof WHOLE_NUMBER_SETTINGS)[number], string> = {
      concurrency: 'Concurrent downloads',
      retries: 'Retries',
      listingTimeoutMinutes: 'Listing time limit',
      maxListingMegabytes: 'Listing size limit',
      settleDays: 'Campaign months settle after',
    };
    for (const key of WHOLE_NUMBER_SETTINGS) {
      const { min, max } = SETTING_DEFINITIONS[key].range;
      const field = spin(fields[key]);
      expect([field.min, field.max], key).toEqual([String(min), String(max)]);
    }
    const { concurrency, retries } = SETTING_DEFINITIONS;
    screen.getByText(`${concurrency.range.min} to ${concurrency.range.max} files at a time`);
    screen.getByText(`further attempts for a file that fails, ${retries.range.min} to ${retries.range.max}`);
  });

  it('shows the saved settings', async () => {
    const { folder } = await openSettings({ settings: { retries: 3 } });
    expect(folder.value).toBe('/home/ada/mlso');
    expect(spin('Concurrent downloads').value).toBe('4');
    expect(spin('Retries').value).toBe('3');
    expect((screen.getByRole('radio', { name: /Skip/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Base URL' }) as HTMLInputElement).value).toBe('http://api.mlso.ucar.edu');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('saves only the changed fields and confirms', async () => {
    const { fake, folder } = await openSettings();
    await fireEvent.input(folder, { target: { value: '/data/solar' } });
    await fireEvent.input(spin('Concurrent downloads'), { target: { value: '8' } });
    await fireEvent.click(screen.getByRole('radio', { name: /Keep both/ }));
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(fake.callsTo('settings:update')).toEqual([{ downloadFolder: '/data/solar', concurrency: 8, existingFiles: 'keep-both' }]);
    // A new folder means new free space in the status bar.
    expect(fake.callsTo('disk:free-space').length).toBeGreaterThanOrEqual(2);
  });

  it("shows the main side's validation message and keeps what was typed", async () => {
    const { fake } = await openSettings();
    await fireEvent.input(spin('Concurrent downloads'), { target: { value: '40' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The core's sentence (settings-rules.ts), which the fake words from the same table.
    await screen.findByText('Concurrency must be a whole number from 1 to 16.');
    screen.getByText('Not saved.');
    expect(spin('Concurrent downloads').value).toBe('40');
    expect(fake.settings.concurrency).toBe(4);
    await fireEvent.click(screen.getByRole('button', { name: 'Revert' }));
    expect(spin('Concurrent downloads').value).toBe('4');
  });

  it('shows a refused setting at its field, and moves the focus there', async () => {
    const { fake, folder } = await openSettings();
    fake.fail('settings:update', { kind: 'invalid-input', message: 'The download folder must be a full path, such as /home/you/MLSO.' });
    await fireEvent.input(folder, { target: { value: 'relative/folder' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(folder.getAttribute('aria-invalid')).toBe('true'));
    expect(messageUnder(folder)).toBe('The download folder must be a full path, such as /home/you/MLSO.');
    expect(document.activeElement).toBe(folder);
    // Said once, at the field: no banner repeats it.
    expect(screen.getAllByText('The download folder must be a full path, such as /home/you/MLSO.')).toHaveLength(1);
    screen.getByText('Not saved.');

    // The next save that goes through takes the message away.
    fake.handle('settings:update', (changes) => (fake.settings = { ...fake.settings, ...changes }));
    await fireEvent.input(folder, { target: { value: '/data/solar' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(folder.getAttribute('aria-invalid')).toBeNull();
    expect(messageUnder(folder)).toBeNull();
  });

  it('keeps a refusal it cannot place (several fields changed) in a banner', async () => {
    const { fake, folder } = await openSettings();
    fake.fail('settings:update', { kind: 'invalid-input', message: 'Retries must be a whole number from 0 to 20.' });
    await fireEvent.input(folder, { target: { value: '/data/solar' } });
    await fireEvent.input(spin('Retries'), { target: { value: '99' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Retries must be a whole number from 0 to 20.');
    screen.getByText('Not saved.');
    expect(folder.getAttribute('aria-invalid')).toBeNull();
  });

  it('shows a refusal at the field the core names, even when several fields changed', async () => {
    const { fake, folder } = await openSettings();
    fake.fail('settings:update', { kind: 'invalid-input', message: 'Retries must be a whole number from 0 to 20.', field: 'retries' });
    await fireEvent.input(folder, { target: { value: '/data/solar' } });
    await fireEvent.input(spin('Retries'), { target: { value: '99' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Retries must be a whole number from 0 to 20.');
    expect(spin('Retries').getAttribute('aria-invalid')).toBe('true');
    expect(folder.getAttribute('aria-invalid')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(spin('Retries')));
  });

  it('shows and saves the listing limits, with a hint on each', async () => {
    const { fake } = await openSettings();
    expect(spin('Listing time limit').value).toBe('10');
    expect(spin('Listing size limit').value).toBe('256');
    screen.getByText(/minutes to wait for a search's file list/);
    screen.getByText(/MB a file list may take/);
    await fireEvent.input(spin('Listing time limit'), { target: { value: '30' } });
    await fireEvent.input(spin('Listing size limit'), { target: { value: '512' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(fake.callsTo('settings:update')).toEqual([{ listingTimeoutMinutes: 30, maxListingMegabytes: 512 }]);
  });

  it('shows and saves the days before a campaign month settles (what campaign sync --settle-days sets for one run)', async () => {
    const { fake } = await openSettings();
    expect(spin('Campaign months settle after').value).toBe('7');
    screen.getByText("days after a month ends: until then each sync asks the archive for the month's files again; after, it checks only the files it has");
    await fireEvent.input(spin('Campaign months settle after'), { target: { value: '30' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(fake.callsTo('settings:update')).toEqual([{ settleDays: 30 }]);
  });

  it('speaks plain words, never command-line options', async () => {
    await openSettings();
    const words = screen.getByRole('region', { name: 'Settings' }).textContent ?? '';
    expect(words).toContain('Campaign months settle after');
    expect(words).not.toMatch(/(^|[\s(])--?[a-z]/);
  });

  it('switches to the demo server and updates the top bar', async () => {
    const { fake } = await openSettings();
    await fireEvent.click(screen.getByRole('switch', { name: /Use demo server/ }));
    expect((screen.getByRole('textbox', { name: 'Base URL' }) as HTMLInputElement).disabled).toBe(true);
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Demo emulator');
    expect(fake.callsTo('settings:update')).toEqual([{ useDemoServer: true }]);
  });

  it('chooses a folder with the native picker when there is one', async () => {
    const { fake, folder } = await openSettings();
    await fireEvent.click(screen.getByRole('button', { name: 'Choose…' }));
    await waitFor(() => expect(folder.value).toBe('/home/ada/chosen'));
    expect(fake.callsTo('settings:choose-folder')).toHaveLength(1);
  });

  it('keeps unsaved edits across a trip to another screen', async () => {
    const { folder } = await openSettings();
    await fireEvent.input(folder, { target: { value: '/tmp/elsewhere' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Browse' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(((await screen.findByRole('textbox', { name: 'Download folder' })) as HTMLInputElement).value).toBe('/tmp/elsewhere');
  });

  it('follows settings changed elsewhere when nothing is being edited', async () => {
    const { fake, folder } = await openSettings();
    fake.emit('settings:changed', { ...fake.settings, downloadFolder: '/mnt/archive' });
    await waitFor(() => expect(folder.value).toBe('/mnt/archive'));
  });

  it('offers downloads from other servers as a checkbox, off by default, with a line saying what it does', async () => {
    const { fake } = await openSettings();
    const allow = screen.getByRole('checkbox', { name: 'Other servers Allow downloads from other servers' }) as HTMLInputElement;
    expect(allow.checked).toBe(false);
    expect(document.getElementById(allow.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(
      /refused unless this is on; your session never goes there/,
    );
    await fireEvent.click(allow);
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(fake.callsTo('settings:update')).toEqual([{ allowOtherHosts: true }]);
  });
});

describe('state survives screens', () => {
  it('keeps the search results and selection when returning to Browse', async () => {
    await renderApp({ listingSize: 20 });
    await fireEvent.change(screen.getByRole('combobox', { name: 'Instrument' }), { target: { value: 'kcor' } });
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Product' }) as HTMLSelectElement).value).toBe('pb'));
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const grid = await screen.findByRole('grid', { name: 'Files found' });
    await fireEvent.keyDown(grid, { key: 'a', ctrlKey: true });
    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Browse' }));
    screen.getByText('20 files');
    screen.getByText('20 selected');
  });

  it('shows and saves the proxy and the speed cap, and shows a refused speed at its field', async () => {
    const { fake } = await openSettings({ settings: { proxy: 'http://proxy.example.org:3128' } });
    const proxy = screen.getByRole('textbox', { name: 'Proxy' }) as HTMLInputElement;
    const cap = screen.getByRole('textbox', { name: 'Speed cap' }) as HTMLInputElement;
    expect(proxy.value).toBe('http://proxy.example.org:3128');
    expect(cap.value).toBe('');
    expect(proxy.getAttribute('aria-describedby')).toBe('settings-proxy-detail');
    await waitFor(() =>
      expect(document.getElementById('settings-proxy-detail')?.textContent?.replace(/\s+/g, ' ')).toMatch(/, or system for the system's proxy settings\./),
    );

    fake.fail('settings:update', {
      kind: 'invalid-input',
      message: '"fast" is not a speed. Use a speed such as 5M, 5MB/s or 500K (bytes per second), or leave it empty for no cap.',
      field: 'limitRate',
    });
    await fireEvent.input(cap, { target: { value: 'fast' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(messageUnder(cap)).toMatch(/^"fast" is not a speed/));
    await waitFor(() => expect(document.activeElement).toBe(cap));

    fake.handle('settings:update', (changes) => (fake.settings = { ...fake.settings, ...changes }));
    await fireEvent.input(cap, { target: { value: '5MB/s' } });
    await fireEvent.input(proxy, { target: { value: 'direct' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(fake.callsTo('settings:update').at(-1)).toEqual({ limitRate: '5MB/s', proxy: 'direct' });
  });

  it('offers "system" for the proxy only in the desktop app, where the system can be asked', async () => {
    await openSettings({ appInfo: { transport: 'web', canUseNativeDialogs: false } });
    const detail = (document.getElementById('settings-proxy-detail')?.textContent ?? '').replace(/\s+/g, ' ');
    expect(detail).toMatch(/, or direct for none\. Empty follows/);
    expect(detail).not.toMatch(/system/);
  });
});
