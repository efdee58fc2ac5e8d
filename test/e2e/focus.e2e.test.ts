// Focus after every action a person takes, in Debian's Chromium through web mode against the emulator: choosing a
// product, signing in, a row's Pause, Resume, Cancel and Retry, Retry failed, Create campaign, Sync, Verify, Save PNG
// and movie Export each leave the focus on what was pressed or on its result, never on the page's <body>.
// Screenshots of the focus ring after some of them go to test-results/screenshots/ (or SHOTS_FOLDER).
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useWebModeSession } from './web-mode-session';
import { listedNames, search } from './specs/downloads.spec';
import { atEachSizeAndScheme, chooseProduct, fillFilter, goTo, visible, waitUntil } from './specs/ui-helpers';

const CAMPAIGN = 'Focus walk';
const SLOW_MS = 60_000;

const session = useWebModeSession();

/** What holds the focus, as a person would name it: "<body>", or the element's tag with its accessible label or text. */
const FOCUSED = `(() => {
  const element = document.activeElement;
  if (!element || element === document.body) return '<body>';
  const name = element.getAttribute('aria-label') || element.labels?.[0]?.textContent?.trim() || element.textContent?.trim().slice(0, 60) || element.id;
  return element.tagName.toLowerCase() + ' "' + name + '"';
})()`;

const focused = (): Promise<string> => session.page.evaluate<string>(FOCUSED);

/**
 * Where the focus is after each action of a test (noted once its result is on screen): every action is walked and
 * noted, then the test fails naming each one after which the focus fell to the page.
 */
class FocusWalk {
  readonly after: Record<string, string> = {};

  async note(action: string): Promise<string> {
    this.after[action] = await focused();
    return this.after[action];
  }

  expectNoneOnBody(): void {
    const fell = Object.entries(this.after).filter(([, where]) => where === '<body>');
    expect(
      fell.map(([action]) => action),
      'the actions after which the focus fell to <body>',
    ).toEqual([]);
  }
}

/** What the window's live region says now. */
const announced = (): Promise<string> => session.page.locator('#announcer').innerText();

const queue = (): Locator => session.page.getByRole('table', { name: 'Download queue' });
const rowOf = (file: string): Locator => queue().getByRole('row').filter({ hasText: file });

describe('the focus after each action', () => {
  it('goes to Sign out after a successful sign-in', async () => {
    await (await visible(session.page.getByLabel('E-mail', { exact: true }))).fill(session.context.demoEmail);
    await session.page.getByRole('button', { name: 'Sign in' }).click();
    await visible(session.page.getByRole('button', { name: 'Sign out' }));
    const walk = new FocusWalk();
    await walk.note('signing in');
    walk.expectNoneOnBody();
    expect(walk.after).toEqual({ 'signing in': 'button "Sign out"' });
  });

  it('stays on the product chosen once signed in', async () => {
    await goTo(session.page, 'Browse');
    const instrument = await visible(session.page.getByRole('combobox', { name: 'Instrument' }));
    await waitUntil('KCor is offered', async () => (await instrument.locator('option[value="kcor"]').count()) > 0);
    await instrument.selectOption('kcor');
    // Picked as a person picks: the list is opened (which focuses it), then an entry chosen.
    const product = session.page.getByRole('combobox', { name: 'Product' });
    await waitUntil('pB is offered', async () => (await product.locator('option[value="pb"]').count()) > 0);
    await product.focus();
    await product.selectOption('pb');
    await visible(session.page.getByLabel('Every', { exact: true }));
    await visible(session.page.getByText('Formats:', { exact: false }));
    const walk = new FocusWalk();
    await walk.note('choosing a product');
    walk.expectNoneOnBody();
    expect(walk.after).toEqual({ 'choosing a product': 'select "Product"' });
  });

  it("stays on a row after the row's Pause, Resume, Cancel and Retry", async () => {
    const walk = new FocusWalk();
    let file = '';
    session.emulator.setOptions({ bandwidthBytesPerSecond: 2_000 });
    try {
      await search(session.page, { 'Start date': '2025-03-23', 'End date': '2025-03-24', Every: '2hours' });
      await listedNames(session.page, '20250323');
      await session.page.getByRole('button', { name: 'Download all' }).click();
      await goTo(session.page, 'Downloads');
      const firstRow = queue().getByRole('row').nth(1);
      await waitUntil('a file is moving', async () => session.emulator.stats().activeDownloads >= 1 && /active/.test(await firstRow.innerText()));
      const pause = firstRow.getByRole('button', { name: /^Pause / });
      file = ((await pause.getAttribute('aria-label')) ?? '').replace(/^Pause /, '');
      await pause.click();
      await waitUntil('the file says paused', async () => /paused/.test(await rowOf(file).innerText()));
      await walk.note('Pause');
      await atEachSizeAndScheme(session.page, (size, scheme) => session.context.screenshot(`focus-after-pause-${size}-${scheme}`));
      // Once the pointer left, the order applies and the paused file moves down: the focus goes with its row, never
      // to the row that took its place (whose Pause would stop another file).
      await session.page.mouse.move(5, 5);
      await waitUntil('the paused file left the top row', async () => !(await queue().getByRole('row').nth(1).innerText()).includes(file));
      await walk.note('Pause, once the order applied');

      await rowOf(file)
        .getByRole('button', { name: `Resume ${file}` })
        .click();
      await waitUntil('the file moves again', async () => /active|queued/.test(await rowOf(file).innerText()));
      await walk.note('Resume');

      await rowOf(file)
        .getByRole('button', { name: `Cancel ${file}` })
        .click();
      await waitUntil('the file says cancelled', async () => /cancelled/.test(await rowOf(file).innerText()));
      await walk.note('Cancel');

      session.emulator.setOptions({ bandwidthBytesPerSecond: 0 });
      await rowOf(file)
        .getByRole('button', { name: `Retry ${file}` })
        .click();
      await waitUntil('the retried file is done', async () => /done/.test(await rowOf(file).innerText()), SLOW_MS);
      await walk.note('Retry');
    } finally {
      session.emulator.setOptions({ bandwidthBytesPerSecond: 0 });
    }
    walk.expectNoneOnBody();
    // Each on the row's control that took the place of the one pressed.
    expect(walk.after).toMatchObject({
      Pause: `button "Resume ${file}"`,
      'Pause, once the order applied': `button "Resume ${file}"`,
      Resume: `button "Pause ${file}"`,
      Cancel: `button "Retry ${file}"`,
    });
  });

  it('stays on Retry failed, or goes to its result', async () => {
    await search(session.page, { 'Start date': '2025-03-21', 'End date': '2025-03-22', Every: '2hours' });
    const names = await listedNames(session.page, '20250321');
    session.emulator.injectFault(names[0]!, 'status-404', 1);
    await session.page.getByRole('button', { name: 'Download all' }).click();
    await goTo(session.page, 'Downloads');
    const retryFailed = await visible(session.page.getByRole('button', { name: 'Retry failed' }));
    await waitUntil('the 404 failed', async () => retryFailed.isEnabled(), SLOW_MS);
    await retryFailed.click();
    await waitUntil('the failed file is done', async () => /done/.test(await rowOf(names[0]!).innerText()), SLOW_MS);
    const walk = new FocusWalk();
    await walk.note('Retry failed');
    walk.expectNoneOnBody();
  });

  it('goes to the new campaign, then stays on Sync and Verify', async () => {
    const walk = new FocusWalk();
    await chooseProduct(session.page, 'kcor', 'pb');
    await fillFilter(session.page, 'Start date', '2025-03-20');
    await fillFilter(session.page, 'End date', '2025-03-21');
    await fillFilter(session.page, 'Every', '2hours');
    await session.page.getByRole('button', { name: 'Search', exact: true }).click();
    await listedNames(session.page, '20250320');
    await session.page.getByRole('button', { name: 'Save as campaign', exact: true }).click();
    const choices = session.page.getByRole('group', { name: 'Save the search as', exact: true });
    if (await choices.isVisible()) await choices.getByRole('button', { name: 'New campaign…', exact: true }).click();
    const form = session.page.getByRole('region', { name: 'New campaign', exact: true });
    await (await visible(form.getByLabel('Name', { exact: true }))).fill(CAMPAIGN);
    await form.getByRole('button', { name: 'Create campaign', exact: true }).click();
    const card = await visible(session.page.getByRole('listitem', { name: CAMPAIGN, exact: true }));
    await walk.note('Create campaign');
    await atEachSizeAndScheme(session.page, (size, scheme) => session.context.screenshot(`focus-after-create-campaign-${size}-${scheme}`));

    await card.getByRole('button', { name: 'Sync', exact: true }).click();
    await visible(card.getByText(/^Last sync: \d+ downloaded/), SLOW_MS);
    await waitUntil('Sync can be pressed again', async () => card.getByRole('button', { name: 'Sync', exact: true }).isEnabled(), SLOW_MS);
    await waitUntil('the sync is said', async () => (await announced()).startsWith(`${CAMPAIGN}: last sync `), SLOW_MS);
    await walk.note('Sync');

    await card.getByRole('button', { name: 'Verify', exact: true }).click();
    await visible(card.getByRole('group', { name: 'Verify report', exact: true }).getByText(/All good/), SLOW_MS);
    await walk.note('Verify');
    await atEachSizeAndScheme(session.page, (size, scheme) => session.context.screenshot(`focus-after-verify-${size}-${scheme}`));
    walk.expectNoneOnBody();
    // The new campaign's card takes the focus by its name; Sync gets it back once it can be pressed again, with its
    // summary (below, away from the focus) said; Verify's report takes it.
    expect(walk.after).toEqual({ 'Create campaign': `h2 "${CAMPAIGN}"`, Sync: 'button "Sync"', Verify: 'div "Verify report"' });
  });

  it('stays in the quick look after Save PNG', async () => {
    await goTo(session.page, 'Downloads');
    const look = await visible(queue().getByRole('button', { name: /^Quick look at / }));
    await look.click();
    const quickLook = await visible(session.page.getByRole('dialog', { name: /^Quick look / }));
    await (await visible(quickLook.getByRole('button', { name: 'Save image…' }))).click();
    const savePanel = await visible(quickLook.getByRole('group', { name: 'Save image' }));
    await Promise.all([session.page.waitForEvent('download'), savePanel.getByRole('button', { name: 'Save PNG' }).click()]);
    await savePanel.waitFor({ state: 'hidden' });
    await waitUntil('the saved file is said', async () => /^Saved .+\.png\.$/.test(await announced()));
    const walk = new FocusWalk();
    await walk.note('Save PNG');
    await atEachSizeAndScheme(session.page, (size, scheme) => session.context.screenshot(`focus-after-save-png-${size}-${scheme}`));
    await session.page.keyboard.press('Escape');
    await quickLook.waitFor({ state: 'hidden' });
    walk.expectNoneOnBody();
  });

  it('stays in the movie panel after Export', async () => {
    await search(session.page, { 'Start date': '2025-03-23', 'End date': '2025-03-24', Every: '2hours' });
    await listedNames(session.page, '20250323');
    await (await visible(session.page.getByRole('button', { name: 'Play downloaded files' }))).click();
    const player = await visible(session.page.getByRole('dialog', { name: /^Player / }));
    await player.getByRole('button', { name: 'Export movie…' }).click();
    const panel = await visible(player.getByRole('group', { name: 'Export movie' }));
    await panel.getByRole('combobox', { name: 'Size' }).selectOption('256');
    await Promise.all([session.page.waitForEvent('download', { timeout: SLOW_MS }), panel.getByRole('button', { name: 'Export', exact: true }).click()]);
    await visible(panel.getByRole('status').filter({ hasText: /^Saved / }));
    const walk = new FocusWalk();
    await walk.note('movie Export');
    await session.page.keyboard.press('Escape');
    await player.waitFor({ state: 'hidden' });
    walk.expectNoneOnBody();
  });
});
