// Small helpers over Playwright's Page for the specs: navigation by the rail, waiting on conditions.
import type { Locator, Page } from 'playwright-core';
import { waitFor } from '../../helpers/wait-for';

const TIMEOUT_MS = 15_000;

/** Polls `condition` until it holds, or fails with `what` after the timeout; a check that throws counts as "not yet". */
export async function waitUntil(what: string, condition: () => Promise<boolean>, timeoutMs = TIMEOUT_MS): Promise<void> {
  // A tenth of a second between looks: each one asks the browser.
  await waitFor(() => condition().catch(() => false), `until ${what}`, timeoutMs, 100);
}

/** Shows the page in a colour scheme, once the page itself answers to it (there are no colour transitions). */
export async function inColourScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  const dark = async () => (await page.evaluate<boolean>("matchMedia('(prefers-color-scheme: dark)').matches")) === true;
  await waitUntil(`the page is ${scheme}`, async () => (await dark()) === (scheme === 'dark'));
}

/** The window sizes a screen is looked at in (ui.md), as `<width>x<height>` names the screenshots carry. */
const LOOKED_AT_SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
] as const;

/** Runs `look` at each size in the light and the dark scheme (`size` is "1280x800"), then puts the page back (light, its size). */
export async function atEachSizeAndScheme(page: Page, look: (size: string, scheme: 'light' | 'dark') => Promise<unknown>): Promise<void> {
  const original = page.viewportSize();
  try {
    for (const viewport of LOOKED_AT_SIZES) {
      await page.setViewportSize(viewport);
      for (const scheme of ['light', 'dark'] as const) {
        await inColourScheme(page, scheme);
        await look(`${viewport.width}x${viewport.height}`, scheme);
      }
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    if (original) await page.setViewportSize(original);
  }
}

/** The first match that is visible (hidden screens and <option>s can hold the same text). */
export async function visible(locator: Locator, timeout = TIMEOUT_MS): Promise<Locator> {
  const shown = locator.filter({ visible: true }).first();
  await shown.waitFor({ state: 'visible', timeout });
  return shown;
}

/** Goes to one of the rail's screens (Browse, Downloads, Settings). */
export async function goTo(page: Page, screen: 'Browse' | 'Downloads' | 'Settings'): Promise<void> {
  const nav = page.getByRole('navigation');
  await (await visible(nav.getByRole('link', { name: new RegExp(`^${screen}`) }).or(nav.getByRole('button', { name: new RegExp(`^${screen}`) })))).click();
}

export async function signIn(page: Page, email: string): Promise<void> {
  const signOut = page.getByRole('button', { name: 'Sign out' });
  if (await signOut.isVisible()) return;
  await (await visible(page.getByLabel('E-mail', { exact: true }))).fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await visible(signOut);
}

export async function chooseProduct(page: Page, instrument: string, product: string): Promise<void> {
  await goTo(page, 'Browse');
  const instrumentSelect = await visible(page.getByRole('combobox', { name: 'Instrument' }));
  await waitUntil(`instrument ${instrument} is offered`, async () => (await instrumentSelect.locator(`option[value="${instrument}"]`).count()) > 0);
  await instrumentSelect.selectOption(instrument);
  const productSelect = page.getByRole('combobox', { name: 'Product' });
  await waitUntil(`product ${product} is offered`, async () => (await productSelect.locator(`option[value="${product}"]`).count()) > 0);
  await productSelect.selectOption(product);
}

/** Fills a filter field (clearing it first) and returns it. */
export async function fillFilter(page: Page, label: string, value: string): Promise<Locator> {
  const field = await visible(page.getByLabel(label, { exact: true }));
  await field.fill(value);
  return field;
}
