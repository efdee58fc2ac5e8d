// Web mode's folder chooser (the desktop app keeps the native dialog): opened from Settings and from the campaign
// form, it goes Up, makes a New folder on disk and Chooses it into the field.
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { E2eContext } from '../e2e-context';
import { findingsOn } from './accessibility.spec';
import { atEachSizeAndScheme, goTo, visible, waitUntil } from './ui-helpers';

/** Opens the chooser beside `field`, goes Up, makes `newName` and Chooses it; answers the folder made. */
async function upNewFolderAndChoose(page: Page, scope: Locator, field: Locator, newName: string): Promise<string> {
  const opener = scope.getByRole('button', { name: 'Choose…', exact: true });
  const start = await field.inputValue();
  await opener.click();
  const dialog = await visible(page.getByRole('dialog', { name: 'Choose a folder' }));
  const shown = dialog.locator('.path');
  await waitUntil('the chooser starts at the field', async () => (await shown.innerText()) === start);
  await dialog.getByRole('button', { name: 'Up', exact: true }).click();
  const parent = path.dirname(start);
  await waitUntil('Up shows the parent', async () => (await shown.innerText()) === parent);
  await visible(dialog.getByRole('button', { name: path.basename(start), exact: true }));
  // New folder from the keyboard: the name field takes the focus and Enter makes it.
  await dialog.getByRole('button', { name: 'New folder…', exact: true }).click();
  const name = dialog.getByRole('textbox', { name: 'Name', exact: true });
  await waitUntil('the name field has the focus', () => name.evaluate((element) => element.matches(':focus')));
  await page.keyboard.type(newName);
  await page.keyboard.press('Enter');
  const made = path.join(parent, newName);
  await waitUntil('the chooser shows the new folder', async () => (await shown.innerText()) === made);
  expect((await stat(made)).isDirectory()).toBe(true);
  await dialog.getByRole('button', { name: 'Choose this folder', exact: true }).click();
  await waitUntil('the chooser closed', async () => (await page.getByRole('dialog', { name: 'Choose a folder' }).count()) === 0);
  expect(await field.inputValue()).toBe(made);
  expect(await opener.evaluate((element) => element.matches(':focus'))).toBe(true);
  return made;
}

export async function choosesFoldersInWebMode({ page, downloadFolder, screenshot }: E2eContext): Promise<void> {
  const start = path.join(downloadFolder, 'picks', 'inner');
  await mkdir(start, { recursive: true });

  await goTo(page, 'Settings');
  const settings = await visible(page.getByRole('region', { name: 'Settings', exact: true }));
  const folder = settings.getByLabel('Download folder', { exact: true });
  await folder.fill(start);
  await upNewFolderAndChoose(page, settings, folder, 'from-settings');

  // The dialog as it looks, at each size and scheme; Escape closes it and focus returns to Choose….
  await settings.getByRole('button', { name: 'Choose…', exact: true }).click();
  const dialog = await visible(page.getByRole('dialog', { name: 'Choose a folder' }));
  await dialog.getByRole('button', { name: 'Up', exact: true }).click();
  await visible(dialog.getByRole('button', { name: 'inner', exact: true }));
  const blocking: string[] = [];
  await atEachSizeAndScheme(page, async (size, scheme) => {
    await screenshot(`folder-chooser-settings-${size}-${scheme}`);
    const findings = await findingsOn(page, { screen: 'Settings with the folder chooser', scheme, viewport: size });
    for (const finding of findings) {
      if (finding.impact === 'serious' || finding.impact === 'critical') blocking.push(`${finding.rule} ${scheme} ${size}: ${finding.nodes.join('; ')}`);
    }
  });
  expect(blocking).toEqual([]);
  await page.keyboard.press('Escape');
  await waitUntil('Escape closed the chooser', async () => (await page.getByRole('dialog', { name: 'Choose a folder' }).count()) === 0);
  expect(await settings.getByRole('button', { name: 'Choose…', exact: true }).evaluate((element) => element.matches(':focus'))).toBe(true);
  await settings.getByRole('button', { name: 'Revert', exact: true }).click();
  expect(await folder.inputValue()).toBe(downloadFolder);

  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Campaigns/ })
    .click();
  await (await visible(page.getByRole('button', { name: 'New campaign', exact: true }))).click();
  const form = await visible(page.getByRole('region', { name: 'New campaign', exact: true }));
  const campaignFolder = form.getByLabel('Folder', { exact: true });
  await campaignFolder.fill(start);
  await upNewFolderAndChoose(page, form, campaignFolder, 'from-campaign');
  await form.getByRole('button', { name: 'Choose…', exact: true }).click();
  await visible(page.getByRole('dialog', { name: 'Choose a folder' }));
  await atEachSizeAndScheme(page, (size, scheme) => screenshot(`folder-chooser-campaign-${size}-${scheme}`));
  await page.keyboard.press('Escape');
  await form.getByRole('button', { name: 'Cancel', exact: true }).click();
}
