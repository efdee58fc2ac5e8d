// The app at 1024x640 (and 1280x800), light and dark, as a person sees it in Debian's Chromium through web mode
// against the emulator: Search never covers a filter field reached from the keyboard, the demo server's badge and the
// coverage timeline's head show their whole text, and the quick-look header table wraps its values only between words. Screenshots of each state go
// to test-results/screenshots/ (or SHOTS_FOLDER).
import { describe, expect, it } from 'vitest';
import { useWebModeSession } from './web-mode-session';
import { listedNames, search } from './specs/downloads.spec';
import { atEachSizeAndScheme, chooseProduct, goTo, signIn, visible, waitUntil } from './specs/ui-helpers';

// The app runs its own demo server (the badge is its).
const session = useWebModeSession('demo');

/**
 * Tabs from the Product choice through the filter form, and for each field focused (the panel scrolls it into view
 * as it does for a person) names it when its label or control overlaps the Search button. Page source, since this
 * file is type-checked without the DOM's types.
 */
const COVERED_FIELD = `(() => {
  const field = document.activeElement.closest('.field');
  if (!field) return null;
  const button = document.getElementById('search-button').getBoundingClientRect();
  const overlaps = (box) => box.width > 0 && box.height > 0 && box.left < button.right && box.right > button.left && box.top < button.bottom && box.bottom > button.top;
  const parts = [field.querySelector('label'), document.activeElement].filter(Boolean);
  return parts.some((part) => overlaps(part.getBoundingClientRect())) ? document.activeElement.id : '';
})()`;

/** Page source: whether the focus is in the filter form. */
const IN_THE_FILTERS = `document.querySelector('form[aria-labelledby="filters-heading"]').contains(document.activeElement)`;

/** Page source of a function: the parts of `element` whose text is cut (scrolled out of their own box, or outside `element`'s). */
const CUT_PARTS = `((element) => {
  const box = element.getBoundingClientRect();
  return [...element.children].filter((part) => {
    const shown = part.getBoundingClientRect();
    return part.scrollWidth > part.clientWidth || shown.left < box.left - 0.5 || shown.right > box.right + 0.5;
  });
})`;

/** The demo server's badge: whether its text is cut (scrolled out of its box, or a part outside it). */
const BADGE_CUT = `(() => {
  const badge = document.querySelector('.server');
  // Whatever gives way for the badge (the sign-in form, the demo hint) stays inside the window too.
  const bar = badge.closest('header');
  const offBar = [...bar.querySelectorAll('*')].filter((part) => part.getBoundingClientRect().right > bar.getBoundingClientRect().right + 0.5);
  return {
    text: badge.innerText,
    cut: badge.scrollWidth > badge.clientWidth || ${CUT_PARTS}(badge).length > 0,
    outsideTheBar: offBar.map((part) => part.textContent.trim() || part.tagName),
  };
})()`;

/** The texts of Browse's coverage timeline head (title, count, hint) that are cut. */
const TIMELINE_HEAD_CUT = `${CUT_PARTS}(document.querySelector('.coverage .head')).map((part) => part.textContent.trim())`;

/**
 * Each line break inside a value or comment of the quick-look header table that does not fall at a space or a
 * punctuation mark: the rendered lines are read from each character's box (Range), in the cell's reading order.
 */
const BROKEN_WORDS = `(() => {
  const broken = [];
  for (const cell of document.querySelectorAll('dialog[open] section[aria-label="Header"] td.value, dialog[open] section[aria-label="Header"] td.comment')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    const characters = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let index = 0; index < node.textContent.length; index++) {
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        const box = range.getBoundingClientRect();
        // A space at the end of a line is collapsed to no width: it is kept (a break beside it is between words).
        characters.push({ character: node.textContent[index], top: box.top, height: box.height, shown: box.width > 0 });
      }
    }
    let before = null;
    for (const after of characters) {
      if (!after.shown) {
        if (before && /\\s/.test(after.character)) before = { ...before, character: ' ' };
        continue;
      }
      const breaks = before && after.top >= before.top + before.height / 2;
      if (breaks && !/[\\s\\p{P}\\p{S}]/u.test(before.character)) {
        broken.push(cell.textContent.trim() + ' (between "' + before.character + '" and "' + after.character + '")');
      }
      before = after;
    }
  }
  return broken;
})()`;

const queue = () => session.page.getByRole('table', { name: 'Download queue' });

/** Whether the queue holds `files` files, all done, each shown in the row the core's order gives it (rows move no more). */
async function everyFileDoneInItsRow(files: number): Promise<boolean> {
  const ordered = await session.app.core.handlers['downloads:page']({ offset: 0, limit: 500, states: null, place: null, sort: null, counted: false });
  const shown = await queue()
    .getByRole('button', { name: /^Quick look at / })
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));
  return (
    ordered.jobs.length === files &&
    ordered.jobs.every((job) => job.state === 'done') &&
    shown.join('\n') === ordered.jobs.map((job) => `Quick look at ${job.localName}`).join('\n')
  );
}

describe('the app in a small window', () => {
  it('keeps Search off every filter field reached from the keyboard at 1024x640 and 1280x800, light and dark', async () => {
    await atEachSizeAndScheme(session.page, async (size, scheme) => {
      await chooseProduct(session.page, 'kcor', 'pb');
      await session.page.getByRole('combobox', { name: 'Product' }).focus();
      const covered: string[] = [];
      let fields = 0;
      for (let step = 0; step < 12; step++) {
        await session.page.keyboard.press('Tab');
        if (!(await session.page.evaluate<boolean>(IN_THE_FILTERS))) break;
        const field = await session.page.evaluate<string | null>(COVERED_FIELD);
        if (field === null) continue;
        fields += 1;
        if (field) covered.push(field);
        // Each field in turn; the picture kept is of the last one reached, the one the panel scrolls farthest for.
        await session.context.screenshot(`browse-filters-${size}-${scheme}`);
      }
      expect(fields, `filter fields reached at ${size}`).toBeGreaterThanOrEqual(4);
      expect(covered, `fields under the Search button at ${size} ${scheme}`).toEqual([]);
    });
  });

  it("shows the demo server's badge whole at 1024x640 and 1280x800, light and dark", async () => {
    await atEachSizeAndScheme(session.page, async (size, scheme) => {
      const badge = await visible(session.page.locator('.server'));
      await session.context.screenshot(`top-bar-demo-badge-${size}-${scheme}`);
      expect(await badge.innerText()).toMatch(/Demo emulator/);
      expect(await session.page.evaluate(BADGE_CUT), `the badge at ${size} ${scheme}`).toMatchObject({ cut: false, outsideTheBar: [] });
    });
  });

  it("shows the coverage timeline's head whole at 1024x640 and 1280x800, light and dark", async () => {
    await signIn(session.page, session.context.demoEmail);
    await search(session.page, { 'Start date': '2025-03-20', 'End date': '2025-03-25' });
    await visible(session.page.getByRole('slider', { name: 'Coverage timeline' }));
    await visible(session.page.getByText(/^Drag across the bars/));
    await atEachSizeAndScheme(session.page, async (size, scheme) => {
      await session.context.screenshot(`browse-timeline-${size}-${scheme}`);
      expect(await session.page.evaluate<string[]>(TIMELINE_HEAD_CUT), `the timeline's head at ${size} ${scheme}`).toEqual([]);
    });
  });

  it('wraps the quick-look header values only between words at 1024x640 and 1280x800, light and dark', async () => {
    await signIn(session.page, session.context.demoEmail);
    await search(session.page, { 'Start date': '2025-03-24', Every: '6hours' });
    const names = await listedNames(session.page, '20250324');
    const name = names[0]!;
    await session.page.getByRole('button', { name: 'Download all' }).click();
    await goTo(session.page, 'Downloads');
    // A row's buttons are reused for the file that moves into it, and a finished file moves above those finished
    // before it a moment later: a button found while the rows may still move can belong to another file when clicked.
    await waitUntil('every file is done, in its row', () => everyFileDoneInItsRow(names.length), 30_000);
    await queue()
      .getByRole('button', { name: `Quick look at ${name}` })
      .click();
    const dialog = await visible(session.page.getByRole('dialog', { name: new RegExp(`^Quick look ${name}`) }));
    await visible(dialog.getByRole('cell', { name: 'INSTRUME', exact: true }));
    await atEachSizeAndScheme(session.page, async (size, scheme) => {
      await session.context.screenshot(`quicklook-header-${size}-${scheme}`);
      expect(await session.page.evaluate<string[]>(BROKEN_WORDS), `header cells at ${size} ${scheme}`).toEqual([]);
    });
    await session.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });
});
