// Signing in: one sentence for an unknown e-mail (where to register, named once as its link), then a good one.
import { expect } from 'vitest';
import type { E2eContext } from '../e2e-context';
import { visible } from './ui-helpers';

export async function unknownEmailIsToldWhereToRegister({ page, screenshot }: E2eContext): Promise<void> {
  await (await visible(page.getByLabel('E-mail', { exact: true }))).fill('stranger@example.org');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const message = await visible(page.getByText('stranger@example.org is not registered', { exact: false }));
  expect((await message.innerText()).split('registration.hao.ucar.edu')).toHaveLength(2);
  expect(await message.getByRole('link', { name: 'registration.hao.ucar.edu' }).count()).toBe(1);
  await screenshot('sign-in-unknown-email');
}

export async function registeredEmailSignsIn({ page, demoEmail, screenshot }: E2eContext): Promise<void> {
  const field = await visible(page.getByLabel('E-mail', { exact: true }));
  await field.fill(demoEmail);
  await field.press('Enter').catch(() => undefined);
  const signOut = page.getByRole('button', { name: 'Sign out' });
  if (!(await signOut.isVisible())) {
    const signInButton = page.getByRole('button', { name: 'Sign in' });
    if (await signInButton.isVisible()) await signInButton.click();
  }
  await visible(signOut);
  await visible(page.getByText(demoEmail));
  await screenshot('signed-in');
}
