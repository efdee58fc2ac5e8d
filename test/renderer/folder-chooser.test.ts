// Web mode has no native folder dialog: Settings' download folder and the campaign form's folder get a small
// chooser that lists folders through the core (folders:list), goes Up, makes a New folder (folders:create) and
// Chooses, all from the keyboard; Escape closes it and focus returns to the button that opened it.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { renderApp } from './render-app';
import { FakeContract, type FakeOptions } from './fake-contract';
import { FOLDER_LISTING_LIMIT } from '../../src-shared/files/folder-listing';

const WEB: FakeOptions = { appInfo: { canUseNativeDialogs: false, transport: 'web' } };

async function openSettings(options: FakeOptions = {}) {
  const rendered = await renderApp({ ...WEB, ...options });
  await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
  const folder = (await screen.findByRole('textbox', { name: 'Download folder' })) as HTMLInputElement;
  return { ...rendered, folder };
}

async function openChooser(): Promise<{ dialog: HTMLElement; opener: HTMLElement }> {
  const opener = screen.getByRole('button', { name: 'Choose…' });
  await fireEvent.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'Choose a folder' });
  await waitFor(() => expect(dialog.getAttribute('aria-busy')).toBe('false'));
  return { dialog, opener };
}

const shownPath = (dialog: HTMLElement) => dialog.querySelector('.path')?.textContent;
const folderNames = (dialog: HTMLElement) =>
  within(dialog)
    .queryAllByRole('listitem')
    .map((item) => item.textContent?.trim());

describe('the folder chooser in web mode', () => {
  it("starts at Settings' download folder, goes Up, into a folder, makes a New folder and Chooses it", async () => {
    const { fake, folder } = await openSettings();
    const { dialog, opener } = await openChooser();
    expect(shownPath(dialog)).toBe('/home/ada/mlso');
    expect(fake.callsTo('folders:list')).toEqual([{ path: '/home/ada/mlso', showHidden: false }]);
    within(dialog).getByText('No folders here. Choose this one, or make a New folder.');

    const up = within(dialog).getByRole('button', { name: 'Up' });
    up.focus();
    await fireEvent.click(up);
    await waitFor(() => expect(shownPath(dialog)).toBe('/home/ada'));
    expect(folderNames(dialog)).toEqual(['Data', 'Documents', 'Downloads', 'mlso']);
    expect(document.activeElement).toBe(up);

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Downloads' }));
    await waitFor(() => expect(shownPath(dialog)).toBe('/home/ada/Downloads'));
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'MLSO' }));

    await fireEvent.click(within(dialog).getByRole('button', { name: 'New folder…' }));
    const name = within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    expect(document.activeElement).toBe(name);
    await fireEvent.input(name, { target: { value: 'a/b' } });
    await fireEvent.keyDown(name, { key: 'Enter' });
    const refusal = await within(dialog).findByRole('alert');
    expect(refusal.textContent).toBe(
      'The folder name "a/b" cannot be used: the name contains a path separator, a control character or a reserved character. Choose another name.',
    );
    expect(name.getAttribute('aria-invalid')).toBe('true');

    await fireEvent.input(name, { target: { value: 'Eclipse' } });
    await fireEvent.keyDown(name, { key: 'Enter' });
    await waitFor(() => expect(shownPath(dialog)).toBe('/home/ada/Downloads/Eclipse'));
    expect(fake.callsTo('folders:create')).toEqual([
      { parent: '/home/ada/Downloads', name: 'a/b' },
      { parent: '/home/ada/Downloads', name: 'Eclipse' },
    ]);
    const choose = within(dialog).getByRole('button', { name: 'Choose this folder' });
    expect(document.activeElement).toBe(choose);

    await fireEvent.click(choose);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(folder.value).toBe('/home/ada/Downloads/Eclipse');
    expect(document.activeElement).toBe(opener);
    // The choice fills the form; Save keeps it.
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
    expect(fake.callsTo('settings:update')).toHaveLength(0);
  });

  it('is reached and closed from the keyboard: every control is a native one in tab order, Escape closes', async () => {
    await openSettings({ settings: { downloadFolder: '/home/ada' } });
    const { dialog, opener } = await openChooser();
    // Focus starts on the first folder listed.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Data' }));
    const controls = [...dialog.querySelectorAll('button, input, [tabindex]')];
    expect(controls.map((control) => control.tagName)).toEqual(['BUTTON', 'BUTTON', 'INPUT', 'BUTTON', 'BUTTON', 'BUTTON', 'BUTTON', 'BUTTON', 'BUTTON']);
    expect(controls.filter((control) => control.getAttribute('tabindex') === '-1')).toEqual([]);

    // Escape in the name field puts the name away first; a second Escape closes, focus back on Choose….
    await fireEvent.click(within(dialog).getByRole('button', { name: 'New folder…' }));
    await fireEvent.keyDown(within(dialog).getByRole('textbox', { name: 'Name' }), { key: 'Escape' });
    expect(within(dialog).queryByRole('textbox', { name: 'Name' })).toBeNull();
    await fireEvent.keyDown(within(dialog).getByRole('button', { name: 'Up' }), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('starts at the nearest existing parent, shows hidden folders when asked, and says when a list is cut', async () => {
    const many = Array.from({ length: FOLDER_LISTING_LIMIT + 20 }, (_, index) => `/home/ada/Data/run${String(index).padStart(4, '0')}`);
    const fake = new FakeContract({
      ...WEB,
      settings: { downloadFolder: '/home/ada/not/yet/there' },
      folders: ['/', '/home', '/home/ada', '/home/ada/.cache', '/home/ada/Data', ...many],
    });
    await renderApp(fake);
    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await screen.findByRole('textbox', { name: 'Download folder' });
    const { dialog } = await openChooser();
    expect(shownPath(dialog)).toBe('/home/ada');
    expect(folderNames(dialog)).toEqual(['Data']);
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Show hidden folders' }));
    await waitFor(() => expect(folderNames(dialog)).toEqual(['.cache', 'Data']));
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Data' }));
    await within(dialog).findByText(`Showing the first ${FOLDER_LISTING_LIMIT} of 520 folders; type the path to reach the others.`);
    expect(folderNames(dialog)).toHaveLength(FOLDER_LISTING_LIMIT);
  });

  it("fills the campaign form's folder, starting at it, without touching the download folder setting", async () => {
    await renderApp({ ...WEB, session: { signedIn: true, email: 'ada@example.org', expiresAt: null } });
    await fireEvent.click(screen.getByRole('button', { name: 'Campaigns' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'New campaign' }));
    const field = screen.getByRole('textbox', { name: 'Folder' }) as HTMLInputElement;
    await fireEvent.input(field, { target: { value: '/home/ada/Documents/not-yet' } });
    const { dialog, opener } = await openChooser();
    expect(shownPath(dialog)).toBe('/home/ada/Documents');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Up' }));
    await waitFor(() => expect(shownPath(dialog)).toBe('/home/ada'));
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Data' }));
    await waitFor(() => expect(shownPath(dialog)).toBe('/home/ada/Data'));
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Choose this folder' }));
    expect(field.value).toBe('/home/ada/Data');
    expect(document.activeElement).toBe(opener);
  });
});
