// Settings: the download folder and engine settings are saved; a bad value is refused with its rule.
import { expect } from 'vitest';
import type { E2eContext } from '../e2e-context';
import { goTo, visible, waitUntil } from './ui-helpers';

export async function savesSettingsAndRefusesBadOnes({ page, downloadFolder, screenshot }: E2eContext): Promise<void> {
  await goTo(page, 'Settings');
  const folder = await visible(page.getByLabel('Download folder', { exact: true }));
  expect(await folder.inputValue()).toBe(downloadFolder);
  await folder.fill('relative/folder');
  await folder.press('Enter').catch(() => undefined);
  const save = page.getByRole('button', { name: /^Save/ });
  if ((await save.count()) > 0) await save.first().click();
  await visible(page.getByText(/full path/));
  await folder.fill(downloadFolder);
  if ((await save.count()) > 0) await save.first().click();
  await waitUntil('the error goes away once the folder is valid', async () => (await page.getByText(/full path/).count()) === 0);
  await screenshot('settings');
}
