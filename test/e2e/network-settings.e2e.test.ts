// Settings → Network as a person uses it, in Debian's Chromium through web mode against the emulator: the real core
// refuses a speed it cannot read at its field, and saves a speed cap and a proxy choice. Screenshots of each state
// at 1280x800 and 1024x640, light and dark, go to test-results/screenshots/ (or SHOTS_FOLDER).
import { describe, expect, it } from 'vitest';
import { useWebModeSession } from './web-mode-session';
import { atEachSizeAndScheme, goTo, visible, waitUntil } from './specs/ui-helpers';

const session = useWebModeSession();

const save = () => session.page.getByRole('button', { name: 'Save', exact: true });

describe('Settings → Network', () => {
  it('refuses a speed it cannot read at its field, then saves a cap and a proxy choice', async () => {
    await goTo(session.page, 'Settings');
    const cap = await visible(session.page.getByLabel('Speed cap', { exact: true }));
    const proxy = await visible(session.page.getByLabel('Proxy', { exact: true }));
    expect(await proxy.inputValue()).toBe('');
    await cap.fill('fast');
    await save().click();
    await visible(session.page.getByText(/"fast" is not a speed/));
    expect(await cap.getAttribute('aria-invalid')).toBe('true');
    expect(await cap.evaluate((element) => element.matches(':focus'))).toBe(true);
    await atEachSizeAndScheme(session.page, async (size, scheme) => {
      await cap.scrollIntoViewIfNeeded();
      await session.context.screenshot(`settings-network-refused-${size}-${scheme}`);
    });

    await cap.fill('5MB/s');
    await proxy.fill('direct');
    await save().click();
    await waitUntil('the network settings to be saved', async () => !(await save().isEnabled()));
    expect(await cap.getAttribute('aria-invalid')).toBeNull();
    await atEachSizeAndScheme(session.page, async (size, scheme) => {
      await cap.scrollIntoViewIfNeeded();
      await session.context.screenshot(`settings-network-saved-${size}-${scheme}`);
    });
    expect(await session.app.core.handlers['settings:get']()).toMatchObject({ limitRate: '5MB/s', proxy: 'direct' });
  });
});
