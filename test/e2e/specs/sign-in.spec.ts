// Signing in: the server's own words for an unknown e-mail (with where to register), then a good one.
import { expect } from 'vitest';
import type { E2eContext } from '../e2e-context';
import { visible } from './ui-helpers';

export async function unknownEmailShowsTheServersMessage({ page, screenshot }: E2eContext): Promise<void> {
  await (await visible(page.getByLabel('E-mail', { exact: true }))).fill('stranger@example.org');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await visible(page.getByText('username stranger@example.org not found', { exact: false }));
  const register = page.getByRole('link', { name: /regist|sign up/i });
  expect(await register.count()).toBeGreaterThan(0);
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
