// Browsing: both instruments with their products; the product's metadata decides which filters show;
// every filter kind is checked inline with the shared rules.
import { expect } from 'vitest';
import type { E2eContext } from '../e2e-context';
import { atEachSizeAndScheme, chooseProduct, fillFilter, visible, waitUntil } from './ui-helpers';

export async function browsesBothInstruments({ page, screenshot }: E2eContext): Promise<void> {
  await chooseProduct(page, 'ucomp', 'l2');
  // The instrument's coverage (from its details) is shown beside the choice.
  await visible(page.getByText(/2021-07-15/));
  await visible(page.getByLabel('Wave region', { exact: true }));
  await visible(page.getByLabel('Observing plan', { exact: true }));
  // The picker shows the whole name of the chosen instrument ("Upgraded Coronal Multi-Polarimeter (UCoMP)"), uncut.
  const picker = page.getByRole('combobox', { name: 'Instrument' });
  const [contentWidth, boxWidth] = await picker.evaluate((element) => [element.scrollWidth, element.clientWidth]);
  expect(contentWidth, 'the instrument name overflows its picker').toBeLessThanOrEqual(boxWidth!);
  await screenshot('browse-ucomp');

  await chooseProduct(page, 'kcor', 'pb');
  await visible(page.getByText(/2013-09-30/));
  await waitUntil('UCoMP-only filters are hidden for KCor pB', async () => (await page.getByLabel('Wave region', { exact: true }).count()) === 0);
  expect(await page.getByLabel('Observing plan', { exact: true }).count()).toBe(0);
  for (const label of ['Start date', 'End date', 'Carrington rotation', 'Every']) await visible(page.getByLabel(label, { exact: true }));
  // DOI and landing page are links (opened in the system browser, not in the app).
  expect(await page.getByRole('link', { name: /doi|10\.5065/i }).count()).toBeGreaterThan(0);
}

const invalidInputs: [label: string, value: string, message: RegExp][] = [
  ['Start date', '2025-02-30', /real calendar date/],
  ['End date', '24/03/2025', /YYYY-MM-DD/],
  ['Carrington rotation', 'x', /positive whole number/],
  ['Every', '2fortnights', /second, minute, hour, day, week, month, quarter or year/],
];

export async function checksEveryFilterInline({ page, screenshot }: E2eContext): Promise<void> {
  await chooseProduct(page, 'kcor', 'pb');
  for (const [label, value, message] of invalidInputs) {
    const field = await fillFilter(page, label, value);
    await field.blur();
    await visible(page.getByText(message));
    await fillFilter(page, label, '');
  }
  await fillFilter(page, 'Start date', '2025-03-25');
  await fillFilter(page, 'End date', '2025-03-24');
  await page.getByLabel('End date', { exact: true }).blur();
  await visible(page.getByText(/after end date|after the end date/));
  await screenshot('browse-invalid-filters');
  await fillFilter(page, 'End date', '');

  // The Carrington rotation shows its date span.
  await fillFilter(page, 'Carrington rotation', '2295');
  await visible(page.getByText(/2025-03-0[12]/));
  await fillFilter(page, 'Carrington rotation', '');

  await chooseProduct(page, 'ucomp', 'l2');
  const wave = await visible(page.getByLabel('Wave region', { exact: true }));
  const tag = await wave.evaluate((element) => element.tagName.toLowerCase());
  if (tag === 'select') {
    const values = await wave.locator('option').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value).filter(Boolean));
    expect(values).toEqual(['637', '706', '789', '1074', '1079']);
  } else {
    await wave.fill('999');
    await wave.blur();
    await visible(page.getByText(/637, 706, 789, 1074, 1079/));
    await wave.fill('');
  }
}

export async function searchesWithFilters({ page, screenshot }: E2eContext): Promise<void> {
  await chooseProduct(page, 'ucomp', 'l2');
  const wave = await visible(page.getByLabel('Wave region', { exact: true }));
  if ((await wave.evaluate((element) => element.tagName.toLowerCase())) === 'select') await wave.selectOption('1074');
  else await wave.fill('1074');
  await fillFilter(page, 'Observing plan', 'synoptic');
  await fillFilter(page, 'Start date', '2025-03-24');
  const every = await fillFilter(page, 'Every', '30minutes');
  await every.press('Enter');
  await visible(page.getByText(/\.ucomp\.1074\.l2\.fts/).first());
  await visible(page.getByText(/\d[\d,]* files?/).first());
  await screenshot('browse-ucomp-results');
}

/**
 * Runs after searchesWithFilters (UCoMP l2 results on screen): choosing KCor pB leaves them stale (dimmed, a line
 * naming their query, no Download all or Save as campaign); going back to UCoMP l2 with the same filters makes them
 * current again; the line's "search again" (reached by Tab) searches KCor pB, and focus lands on what it found.
 */
export async function marksResultsStaleWhenTheFormChanges({ page, screenshot }: E2eContext): Promise<void> {
  const results = page.getByRole('region', { name: 'Results' });
  const staleLine = results.getByRole('status').filter({ hasText: /Results for / });
  const downloadAll = results.getByRole('button', { name: 'Download all', exact: true });
  const saveAsCampaign = results.getByRole('button', { name: 'Save as campaign', exact: true });
  await visible(page.getByText(/\.ucomp\.1074\.l2\.fts/).first());
  expect(await staleLine.count()).toBe(0);
  expect(await downloadAll.isEnabled()).toBe(true);

  await chooseProduct(page, 'kcor', 'pb');
  await visible(staleLine);
  expect((await staleLine.innerText()).replace(/\s+/g, ' ').trim()).toMatch(/^Results for ucomp l2, from 2025-03-24 UT, open-ended · .*: search again$/);
  expect(await downloadAll.isDisabled()).toBe(true);
  expect(await saveAsCampaign.isDisabled()).toBe(true);
  await atEachSizeAndScheme(page, (size, scheme) => screenshot(`browse-stale-results-${size}-${scheme}`));

  // The form back at the results' query (UCoMP l2, its filters kept by the form): current again.
  await chooseProduct(page, 'ucomp', 'l2');
  await waitUntil('the results are current again', async () => (await staleLine.count()) === 0 && (await downloadAll.isEnabled()));

  // Keyboard: from the Product field, Tab reaches "search again"; pressing it searches KCor pB.
  await chooseProduct(page, 'kcor', 'pb');
  await visible(staleLine.getByRole('button', { name: 'search again', exact: true }));
  // Asked as a string: the specs compile without the DOM's types.
  const focused = (what: string): Promise<string | null> => page.evaluate<string | null>(`document.activeElement?.${what} ?? null`);
  await page.getByRole('combobox', { name: 'Product' }).focus();
  await waitUntil('Tab reaches "search again"', async () => {
    await page.keyboard.press('Tab');
    return (await focused('textContent')) === 'search again';
  });
  await page.keyboard.press('Enter');
  await waitUntil('the KCor pB results are current', async () => (await staleLine.count()) === 0 && (await downloadAll.isEnabled()));
  await visible(page.getByText(/_kcor_l2_pb\.fts/).first());
  // Focus lands on what the search found, not on the page.
  expect(await focused("getAttribute('aria-label')")).toBe('Files found');

  // Search pressed from the keyboard keeps the focus while its search runs and after (Chromium drops the focus of a
  // button that becomes disabled).
  await page.locator('#search-button').focus();
  const searchesBefore = await page.getByRole('grid', { name: 'Files found' }).getAttribute('aria-rowcount');
  await page.keyboard.press('Enter');
  await waitUntil('the search has run', async () => (await page.getByText(/^Searching /).count()) === 0);
  expect(await page.getByRole('grid', { name: 'Files found' }).getAttribute('aria-rowcount')).toBe(searchesBefore);
  expect(await focused('id')).toBe('search-button');
}
