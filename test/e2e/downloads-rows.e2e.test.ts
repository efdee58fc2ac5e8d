// The Downloads rows as a person sees and clicks them, in Debian's Chromium through web mode against the emulator:
// a file name never loses its observation date and time at 1280x800 or 1024x640 (measured on the rendered text),
// and a row paused stays under the pointer until the pointer leaves the list. Screenshots of each state, light and
// dark, go to test-results/screenshots/ (or SHOTS_FOLDER).
import { describe, expect, it } from 'vitest';
import { useWebModeSession } from './web-mode-session';
import { listedNames, search } from './specs/downloads.spec';
import { atEachSizeAndScheme, goTo, inColourScheme, signIn, waitUntil } from './specs/ui-helpers';

const session = useWebModeSession();

const queue = () => session.page.getByRole('table', { name: 'Download queue' });

/**
 * For every row's file name, the characters of its observation date and time (the first 15) that the eye cannot
 * see: those outside the box of the cell or of any element between them that clips (an ellipsis clips too). The
 * text a person sees is every text node of the cell but the one kept for screen readers. Run in the page (a script,
 * since this file is type-checked without the DOM's types).
 */
const HIDDEN_STAMPS = `(() => {
  const hidden = [];
  for (const cell of document.querySelectorAll('[aria-label="Download queue"] [role="row"]:not(.header) .name')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) => (node.parentElement.closest('.visually-hidden') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    let seen = 0;
    for (let node = walker.nextNode(); node && seen < 15; node = walker.nextNode()) {
      const characters = node.textContent;
      for (let index = 0; index < characters.length && seen < 15; index++, seen++) {
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        const box = range.getBoundingClientRect();
        for (let clip = node.parentElement; clip; clip = clip === cell ? null : clip.parentElement) {
          if (getComputedStyle(clip).overflowX === 'visible') continue;
          const shown = clip.getBoundingClientRect();
          if (box.left < shown.left - 0.5 || box.right > shown.right + 0.5) {
            hidden.push(cell.title + ': "' + characters[index] + '" at ' + seen);
            break;
          }
        }
      }
    }
    if (seen < 15) hidden.push(cell.title + ': only ' + seen + ' characters shown');
  }
  return hidden;
})()`;

const hiddenStamps = (): Promise<string[]> => session.page.evaluate<string[]>(HIDDEN_STAMPS);

/** Pictures of a held row in the light and the dark scheme: a scheme changes no layout, so the pointer stays on it. */
async function looksAtTheHeldRow(size: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await inColourScheme(session.page, scheme);
    await session.context.screenshot(`downloads-held-row-${size}-${scheme}`);
  }
  await inColourScheme(session.page, 'light');
}

describe('the Downloads rows', () => {
  it('shows each file name with its observation date and time whole at 1280x800 and 1024x640, light and dark', async () => {
    await signIn(session.page, session.context.demoEmail);
    await search(session.page, { 'Start date': '2025-03-24', Every: '1hour' });
    const names = await listedNames(session.page, '20250324');
    await session.page.getByRole('button', { name: 'Download all' }).click();
    await goTo(session.page, 'Downloads');
    await waitUntil(
      'every file is done',
      async () =>
        (await queue()
          .getByRole('button', { name: /^Quick look at / })
          .count()) === names.length,
      30_000,
    );
    await atEachSizeAndScheme(session.page, async (size, scheme) => {
      await session.context.screenshot(`downloads-finished-${size}-${scheme}`);
      expect(await queue().locator('[role="row"]:not(.header) .name').count()).toBe(names.length);
      expect(await hiddenStamps(), `names at ${size} ${scheme}`).toEqual([]);
    });
  });

  it('keeps a paused row under the pointer until the pointer leaves the list, then applies the order', async () => {
    session.emulator.setOptions({ bandwidthBytesPerSecond: 2_000 });
    try {
      await search(session.page, { 'Start date': '2025-03-23', 'End date': '2025-03-24', Every: '2hours' });
      await listedNames(session.page, '20250323');
      await session.page.getByRole('button', { name: 'Download all' }).click();
      await goTo(session.page, 'Downloads');
      const firstRow = queue().getByRole('row').nth(1);
      await waitUntil('two files are moving', async () => session.emulator.stats().activeDownloads >= 2 && /active/.test(await firstRow.innerText()));
      const pause = firstRow.getByRole('button', { name: /^Pause / });
      const label = (await pause.getAttribute('aria-label')) ?? '';
      const file = label.replace(/^Pause /, '');
      await pause.click();
      // The paused row belongs after the files still moving; it stays under the pointer while the pointer stays,
      // through the progress that comes meanwhile (each event would reload the rows in view).
      const rowBox = await firstRow.boundingBox();
      const point = { x: rowBox!.x + rowBox!.width - 40, y: rowBox!.y + rowBox!.height / 2 };
      const fileAt = () =>
        session.page.evaluate<string>(
          `document.elementFromPoint(${point.x}, ${point.y})?.closest('[role="row"]')?.querySelector('.name')?.getAttribute('title') ?? ''`,
        );
      const pausedRow = queue().getByRole('row').filter({ hasText: file });
      await waitUntil('the clicked file says paused', async () => /paused/.test(await pausedRow.innerText()));
      const progress = session.page.getByRole('region', { name: 'Downloads' }).locator('.overall');
      const seen = new Set<string>();
      const underPointer = new Set<string>();
      await waitUntil('three progress figures came after the pause, or another file came under the pointer', async () => {
        underPointer.add(await fileAt());
        return seen.add(await progress.innerText()).size >= 3 || underPointer.size > 1;
      });
      expect([...underPointer], 'the files under the pointer after the pause').toEqual([file]);
      await looksAtTheHeldRow('1280x800');
      await session.page.mouse.move(5, 5);
      await waitUntil('the order applies once the pointer left', async () => (await fileAt()) !== file);
      // The same at 1024x640: the next moving file paused with the pointer on it (a resize could move the list away
      // from the pointer, which ends a hold).
      await session.page.setViewportSize({ width: 1024, height: 640 });
      await waitUntil('a file is moving at the top', async () => /active/.test(await firstRow.innerText()));
      await firstRow.getByRole('button', { name: /^Pause / }).click();
      await waitUntil('the top row says paused', async () => /paused/.test(await firstRow.innerText()));
      await looksAtTheHeldRow('1024x640');
      await session.page.setViewportSize({ width: 1280, height: 800 });
    } finally {
      session.emulator.setOptions({ bandwidthBytesPerSecond: 0 });
    }
  });
});
