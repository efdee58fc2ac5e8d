// The Settings screen's choice for files found finished in another folder (issue 22 item 5): copied by default (a
// reflink where the disk allows), hard-linked when this box is ticked; the setting is linkReused.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/svelte';
import { renderApp } from './render-app';

const NAME = 'Files already downloaded Reuse files already downloaded elsewhere by hard link instead of copy';

async function openSettings(linkReused: boolean) {
  const rendered = await renderApp({ settings: { linkReused } });
  await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
  return { ...rendered, box: (await screen.findByRole('checkbox', { name: NAME })) as HTMLInputElement };
}

describe('reusing files already downloaded elsewhere', () => {
  it('offers hard links as a checkbox, off by default, saying what each choice does', async () => {
    const { fake, box } = await openSettings(false);
    expect(box.checked).toBe(false);
    expect(document.getElementById(box.getAttribute('aria-describedby') ?? '')?.textContent?.replace(/\s+/g, ' ')).toMatch(
      /copied \(a reflink where the disk allows\) unless this is on; a hard link takes no space, but a change to one changes both/,
    );
    await fireEvent.click(box);
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(fake.callsTo('settings:update')).toEqual([{ linkReused: true }]);
  });

  it('shows the saved choice, and turning it off saves false', async () => {
    const { fake, box } = await openSettings(true);
    expect(box.checked).toBe(true);
    await fireEvent.click(box);
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(fake.callsTo('settings:update')).toEqual([{ linkReused: false }]);
  });
});
