// Campaigns end to end: a search saved as a campaign with a folder layout, synced until every file is on disk in the
// layout's folders (byte for byte), verified (all good) and exported; the screen photographed light and dark.
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { campaignSlug } from '../../../src-shared/campaigns/campaign-name';
import type { E2eContext } from '../e2e-context';
import { chooseProduct, fillFilter, inColourScheme, signIn, visible, waitUntil } from './ui-helpers';

const CAMPAIGN = 'E2E eclipse day';
const LAYOUT = '{instrument}/{yyyy}/{mm}/{dd}';
/** The emulator's first day (it serves five, up to 2025-03-24), which no other spec downloads. */
const DAY = { start: '2025-03-20', end: '2025-03-21', compact: '20250320', folders: ['kcor', '2025', '03', '20'] };
const KCOR_PB_NAME = /^\d{8}_\d{6}_kcor_l2_pb\.fts$/;
const SYNC_TIMEOUT_MS = 60_000;

/** The names the search lists, once the results are of the day asked for (an earlier search's rows linger until then). */
async function searchOneDay(page: Page): Promise<string[]> {
  await chooseProduct(page, 'kcor', 'pb');
  await fillFilter(page, 'Start date', DAY.start);
  await fillFilter(page, 'End date', DAY.end);
  await fillFilter(page, 'Carrington rotation', '');
  await fillFilter(page, 'Every', '2hours');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const cells = page.getByRole('grid', { name: 'Files found' }).getByText(KCOR_PB_NAME);
  let names: string[] = [];
  await waitUntil(`the results show files of ${DAY.start}`, async () => {
    names = await cells.allInnerTexts();
    return names.length > 0 && names.every((name) => name.startsWith(DAY.compact));
  });
  return names;
}

function campaignCard(page: Page): Locator {
  return page.getByRole('listitem', { name: CAMPAIGN, exact: true });
}

/** Saves the export: a real browser download in web mode; in Electron, where a download asks where to save, the link's name and text. */
async function exportCsv(page: Page, card: Locator): Promise<{ fileName: string; text: string }> {
  await card.getByRole('button', { name: 'Export', exact: true }).click();
  const panel = card.getByRole('group', { name: `Export ${CAMPAIGN}` });
  await visible(panel.getByRole('radio', { name: /CSV manifest/ }));
  const inElectron = await page.evaluate(() => 'mlsoBridge' in globalThis);
  if (!inElectron) {
    const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Save file', exact: true }).click()]);
    const file = await download.path();
    return { fileName: download.suggestedFilename(), text: await readFile(file, 'utf8') };
  }
  // Runs in the page (typed without the DOM library, as this file is compiled for Node).
  await page.evaluate(() => {
    type Link = { href: string; download: string };
    const scope = globalThis as unknown as {
      HTMLAnchorElement: { prototype: { click(this: Link): void } };
      lastExport?: Promise<{ fileName: string; text: string }>;
    };
    const prototype = scope.HTMLAnchorElement.prototype;
    const original = prototype.click;
    prototype.click = function (this: Link) {
      scope.lastExport = fetch(this.href).then(async (response) => ({ fileName: this.download, text: await response.text() }));
      prototype.click = original;
    };
  });
  await panel.getByRole('button', { name: 'Save file', exact: true }).click();
  await waitUntil('the export was saved', async () => page.evaluate(() => 'lastExport' in globalThis));
  return page.evaluate(() => (globalThis as unknown as { lastExport: Promise<{ fileName: string; text: string }> }).lastExport);
}

export async function syncsVerifiesAndExportsACampaign(ctx: E2eContext): Promise<void> {
  const { page, demoEmail, downloadFolder, emulator, screenshot } = ctx;
  await signIn(page, demoEmail);
  const names = await searchOneDay(page);
  expect(names.length).toBeGreaterThanOrEqual(1);

  await page.getByRole('button', { name: 'Save as campaign', exact: true }).click();
  // Once campaigns exist, the button asks whether to add the search to one of them or start a new one.
  const choices = page.getByRole('group', { name: 'Save the search as', exact: true });
  if (await choices.isVisible()) await choices.getByRole('button', { name: 'New campaign…', exact: true }).click();
  const form = page.getByRole('region', { name: 'New campaign', exact: true });
  await (await visible(form.getByLabel('Name', { exact: true }))).fill(CAMPAIGN);
  await form.getByLabel('Folder layout', { exact: true }).fill(LAYOUT);
  await visible(form.getByText(new RegExp(`kcor/2025/03/20/${DAY.compact}_180000_kcor_l2_pb\\.fts$`)));
  await screenshot('campaigns-new-from-search');
  await form.getByRole('button', { name: 'Create campaign', exact: true }).click();

  const card = campaignCard(page);
  await visible(card);
  await visible(card.getByText(LAYOUT, { exact: false }));
  const startedBefore = emulator.stats().downloadsStarted;
  await card.getByRole('button', { name: 'Sync', exact: true }).click();
  const everyFile = `${names.length} on disk`;
  await waitUntil(
    'the counts show every file on disk',
    async () => (await card.getByText(everyFile, { exact: true }).isVisible()) && (await card.getByText('0 missing', { exact: true }).isVisible()),
    SYNC_TIMEOUT_MS,
  );
  expect(await card.getByText(/^[\d,]+ queued$/).count()).toBe(0);
  expect(emulator.stats().downloadsStarted - startedBefore).toBe(names.length);
  // The sync's summary says what it downloaded, in the card's own counts (issue 21: it said "0 new, 0 queued").
  await visible(card.getByText(`Last sync: ${names.length} downloaded, 0 already there, 0 failed`, { exact: true }));

  // On disk, in the layout's folders, byte for byte.
  const dayFolder = path.join(downloadFolder, campaignSlug(CAMPAIGN), ...DAY.folders);
  expect((await readdir(dayFolder)).filter((name) => !name.startsWith('.')).sort()).toEqual([...names].sort());
  for (const name of names) {
    const written = await readFile(path.join(dayFolder, name));
    expect(written.equals(await ctx.emulator.fileBytes('kcor', name)), name).toBe(true);
  }

  await card.getByRole('button', { name: 'Verify', exact: true }).click();
  const report = card.getByRole('group', { name: 'Verify report', exact: true });
  await visible(report.getByText(new RegExp(`All good:.*${names.length} files? on disk, each as downloaded`)));

  const exported = await exportCsv(page, card);
  expect(exported.fileName).toBe(`${campaignSlug(CAMPAIGN)}-manifest.csv`);
  for (const name of names) expect(exported.text).toContain(name);
  const acknowledgement = card.getByRole('textbox', { name: 'Acknowledgement for your paper' });
  expect(await acknowledgement.inputValue()).toContain('10.5065/D69G5JV8');

  for (const scheme of ['light', 'dark'] as const) {
    await inColourScheme(page, scheme);
    await screenshot(`campaigns-1280x800-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // Syncing again fetches nothing: the archive did not grow and no file was lost.
  const startedBeforeResync = emulator.stats().downloadsStarted;
  const lastSync = card.locator('time');
  const firstSyncAt = await lastSync.getAttribute('datetime');
  await card.getByRole('button', { name: 'Sync', exact: true }).click();
  await waitUntil(
    'the second sync has finished',
    async () => (await lastSync.getAttribute('datetime')) !== firstSyncAt && (await card.getByRole('button', { name: 'Sync', exact: true }).isEnabled()),
    SYNC_TIMEOUT_MS,
  );
  await visible(card.getByText(everyFile, { exact: true }));
  expect(emulator.stats().downloadsStarted).toBe(startedBeforeResync);
  await visible(card.getByText(`Last sync: 0 downloaded, ${names.length} already there, 0 failed`, { exact: true }));

  // A file deleted behind the app's back: the Verify report and the card beside it say the same (issue 21: the
  // report said "1 missing" while the card said "0 missing").
  await rm(path.join(dayFolder, names[0]!));
  await card.getByRole('button', { name: 'Verify', exact: true }).click();
  await visible(report.getByText('Verify found problems', { exact: true }));
  const figures = async (list: Locator): Promise<string[]> => (await list.getByRole('listitem').allTextContents()).map((text) => text.trim());
  const reportFigures = report.getByRole('list', { name: 'Verify counts', exact: true });
  const cardFigures = card.getByRole('list', { name: 'File counts', exact: true });
  expect(await figures(reportFigures)).toEqual([`${names.length - 1} on disk`, '1 missing', '0 failed']);
  await waitUntil('the card counts what verify found', async () => (await figures(cardFigures)).join() === (await figures(reportFigures)).join());
  const original = page.viewportSize();
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1024, height: 640 },
  ]) {
    await page.setViewportSize(viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await inColourScheme(page, scheme);
      await report.scrollIntoViewIfNeeded();
      await screenshot(`campaigns-verify-report-${viewport.width}x${viewport.height}-${scheme}`);
    }
  }
  if (original) await page.setViewportSize(original);
  await page.emulateMedia({ colorScheme: 'light' });

  // The next sync fetches that file again, and says so.
  await card.getByRole('button', { name: 'Sync', exact: true }).click();
  await visible(card.getByText(`Last sync: 1 downloaded, ${names.length - 1} already there, 0 failed`, { exact: true }), SYNC_TIMEOUT_MS);
  await visible(card.getByText(everyFile, { exact: true }));
}
