// The coverage timeline on a real emulator listing: five observing days of KCor pB, hourly bins with the nights
// empty between them; hovering tells a bin's span and count; dragging across two days fills the date fields, and
// the notice's List this span searches just that span.
import path from 'node:path';
import { expect } from 'vitest';
import type { E2eContext } from '../e2e-context';
import { search } from './downloads.spec';
import { visible, waitUntil } from './ui-helpers';

/** Bars of the timeline, by bin: an empty bin has none. */
const BARS = 'rect.bar';

async function summaryOf(page: E2eContext['page']): Promise<{ files: number; filled: number; bins: number; unit: string }> {
  const slider = page.getByRole('slider', { name: 'Coverage timeline' });
  const describedBy = (await slider.getAttribute('aria-describedby')) ?? '';
  const text = await page.locator(`[id="${describedBy.split(' ')[0]}"]`).textContent();
  const match = /^Coverage: ([\d,]+) files? in ([\d,]+) of ([\d,]+) (\S+) bins?$/.exec(text?.trim() ?? '');
  if (!match) throw new Error(`unexpected timeline summary: ${text}`);
  const number = (value: string | undefined): number => Number(value?.replaceAll(',', ''));
  return { files: number(match[1]), filled: number(match[2]), bins: number(match[3]), unit: match[4]! };
}

export async function showsCoverageWithGaps({ page, screenshot }: E2eContext): Promise<void> {
  await search(page, { 'Start date': '2025-03-20', 'End date': '2025-03-25' });
  const slider = await visible(page.getByRole('slider', { name: 'Coverage timeline' }));
  await waitUntil('the timeline covers the five days searched', async () => (await summaryOf(page)).bins === 120);
  const summary = await summaryOf(page);
  // KCor observes about three hours a day: a few filled hours each day, the nights empty.
  expect(summary.unit).toBe('hourly');
  expect(summary.filled).toBeGreaterThanOrEqual(5 * 3);
  expect(summary.filled).toBeLessThanOrEqual(5 * 5);
  const filledBins = await page.locator(BARS).evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('data-bin'))));
  expect(filledBins).toHaveLength(summary.filled);
  // A gap of at least twelve empty hours separates each day's observations from the next.
  const gaps = filledBins
    .slice(1)
    .map((bin, i) => bin - filledBins[i]! - 1)
    .filter((gap) => gap >= 12);
  expect(gaps).toHaveLength(4);
  await visible(page.getByText('CR 2295'));

  // Hovering the first filled bin tells its span and count.
  const firstBar = page.locator(BARS).first();
  await firstBar.hover();
  const tip = await visible(page.locator('.coverage .tip'));
  expect(await tip.textContent()).toMatch(/^2025-03-20 1\d:00 – 1\d:00 UT: [\d,]+ files?$/);
  const shot = await screenshot('timeline-gaps');
  await slider.locator('xpath=ancestor::div[contains(@class, "coverage")]').screenshot({ path: path.join(path.dirname(shot), 'timeline-gaps-detail.png') });

  // Dragging from the second day's first bar to the third day's last picks those two days' hours.
  const second = filledBins.find((bin) => bin >= 24 && bin < 48)!;
  const third = filledBins.filter((bin) => bin >= 48 && bin < 72).at(-1)!;
  const from = await page.locator(`${BARS}[data-bin="${second}"]`).first().boundingBox();
  const to = await page.locator(`${BARS}[data-bin="${third}"]`).first().boundingBox();
  if (!from || !to) throw new Error('the bars to drag across are not on screen');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
  const start = `2025-03-21T${String(second - 24).padStart(2, '0')}:00:00`;
  const end = `2025-03-22T${String(third - 48 + 1).padStart(2, '0')}:00:00`;
  expect(await page.getByLabel('Start date', { exact: true }).inputValue()).toBe(start);
  expect(await page.getByLabel('End date', { exact: true }).inputValue()).toBe(end);
  const notice = await visible(page.getByRole('status').filter({ hasText: 'Start and End date set to' }));
  await screenshot('timeline-picked');

  await notice.getByRole('button', { name: 'List this span' }).click();
  await waitUntil('the listing covers just the span picked', async () => {
    const narrowed = await summaryOf(page);
    return narrowed.files < summary.files && narrowed.files > 0;
  });
  const names = await page
    .getByRole('grid', { name: 'Files found' })
    .getByText(/^\d{8}_\d{6}_kcor_l2_pb\.fts$/)
    .allInnerTexts();
  expect(names.every((name) => name.startsWith('20250321') || name.startsWith('20250322'))).toBe(true);
}
