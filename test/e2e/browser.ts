// Debian's Chromium driven by playwright-core (Playwright's own browser download does not work here).
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM_PATH = process.env['MLSO_CHROMIUM'] ?? '/usr/bin/chromium';

/** `scrollBars`: show them (headless Chromium hides them by default), for a spec that drags one. */
export function launchChromium({ scrollBars = false }: { scrollBars?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    ...(scrollBars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-quic',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}
