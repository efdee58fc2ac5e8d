// Browse's results sorted by a header from the keyboard and a few files selected in that order, in Debian's Chromium
// through web mode against the emulator: the order is the emulator's listing sorted, and "Download selected" puts
// exactly the files chosen on disk. Screenshots of the sorted, selected table at 1280x800 and 1024x640, light and
// dark, go to test-results/screenshots/ (or SHOTS_FOLDER).
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { MlsoClient } from '../../src-main/core/api/mlso-client';
import { search } from './specs/downloads.spec';
import { atEachSizeAndScheme, signIn, visible, waitUntil } from './specs/ui-helpers';
import { useWebModeSession } from './web-mode-session';

const session = useWebModeSession();

const FILTERS = { 'Start date': '2025-03-24', Every: '10minutes' };

/** The emulator's listing for FILTERS, read as the command line reads it. */
async function listing(): Promise<{ filename: string; filesize: number }[]> {
  const client = new MlsoClient({ baseUrl: session.emulator.url });
  const answer = await client.files({ instrument: 'kcor', product: 'pb', filters: { 'start-date': FILTERS['Start date'], every: FILTERS.Every } });
  return answer.files;
}

const grid = () => session.page.getByRole('grid', { name: 'Files found' });
const nameInRow = (index: number) => grid().locator(`#file-row-${index} .name`);

describe('Browse sorted by a column', () => {
  it('sorts by size from the keyboard, keeps the files chosen in that order and downloads exactly them', async () => {
    await signIn(session.page, session.context.demoEmail);
    await search(session.page, FILTERS);
    const files = await listing();
    await visible(session.page.getByText(`${files.length} files`, { exact: true }));
    const header = grid().getByRole('columnheader', { name: /Listed size/ });
    const button = header.getByRole('button');
    // Enter, then Space, on the focused header: ascending, then descending.
    await button.focus();
    await session.page.keyboard.press('Enter');
    await waitUntil('the size header says ascending', async () => (await header.getAttribute('aria-sort')) === 'ascending');
    await session.page.keyboard.press(' ');
    await waitUntil('the size header says descending', async () => (await header.getAttribute('aria-sort')) === 'descending');

    // Biggest first, ties in the listing's order reversed (as the core sorts: the list read backwards).
    const positions = files.map((_file, position) => position);
    positions.sort((a, b) => files[b]!.filesize - files[a]!.filesize || b - a);
    const expected = positions.map((position) => files[position]!.filename);
    await waitUntil('the rows are in size order', async () => (await nameInRow(0).innerText()) === expected[0]);
    for (const index of [1, 2, 5]) expect(await nameInRow(index).innerText()).toBe(expected[index]);

    await grid().locator('#file-row-0').click();
    await grid().locator('#file-row-2').click();
    await grid()
      .locator('#file-row-4')
      .click({ modifiers: ['Shift'] });
    await visible(session.page.getByText('4 selected', { exact: true }));
    const chosen = [expected[0]!, ...expected.slice(2, 5)];
    await atEachSizeAndScheme(session.page, (size, scheme) => session.context.screenshot(`browse-sorted-size-descending-${size}-${scheme}`));

    await session.page.getByRole('button', { name: 'Download selected' }).click();
    await visible(session.page.getByText(/4 files queued/));
    const onDisk = async () => (await readdir(session.context.downloadFolder)).filter((name) => !name.startsWith('.')).sort();
    await waitUntil('the chosen files are on disk', async () => (await onDisk()).length === chosen.length, 30_000);
    expect(await onDisk()).toEqual([...chosen].sort());
  });
});
