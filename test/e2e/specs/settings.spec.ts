// Settings: the download folder and engine settings are saved; a bad value is refused with its rule.
import path from 'node:path';
import { expect } from 'vitest';
import type { E2eContext } from '../e2e-context';
import { goTo, visible, waitUntil } from './ui-helpers';

export async function savesSettingsAndRefusesBadOnes({ page, downloadFolder, screenshot }: E2eContext): Promise<void> {
  await goTo(page, 'Settings');
  const folder = await visible(page.getByLabel('Download folder', { exact: true }));
  expect(await folder.inputValue()).toBe(downloadFolder);
  await folder.fill('relative/folder');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await visible(page.getByText(/full path/));
  // The refusal is told at the field it concerns, which takes the focus.
  expect(await folder.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (await folder.getAttribute('aria-describedby')) ?? '';
  expect(await page.locator(`[id="${describedBy}"]`).innerText()).toMatch(/full path/);
  expect(await folder.evaluate((element) => element.matches(':focus'))).toBe(true);
  await screenshot('settings-refused');
  // A valid folder is saved (and the error goes); then the original one is put back.
  for (const value of [path.join(downloadFolder, 'elsewhere'), downloadFolder]) {
    await folder.fill(value);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await waitUntil(`${value} is saved`, async () => !(await page.getByRole('button', { name: 'Save', exact: true }).isEnabled()));
    expect(
      await page
        .getByText(/full path/)
        .filter({ visible: true })
        .count(),
    ).toBe(0);
  }
  expect(await folder.inputValue()).toBe(downloadFolder);
  await screenshot('settings');
}
